/*
Copyright 2026 The memcached Authors.

Licensed under the Apache License, Version 2.0 (the "License");
you may not use this file except in compliance with the License.
You may obtain a copy of the License at

    http://www.apache.org/licenses/LICENSE-2.0

Unless required by applicable law or agreed to in writing, software
distributed under the License is distributed on an "AS IS" BASIS,
WITHOUT WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied.
See the License for the specific language governing permissions and
limitations under the License.
*/

/**
 * The Memcached controller, made by the deploy-image/v1-alpha plugin: for each Memcached it deploys and manages
 * the Operand image (read from the MEMCACHED_IMAGE environment variable, set in config/manager/manager.yaml)
 * as a Deployment the Memcached owns, sized by `spec.size`, and reports what it did in status conditions.
 * A finalizer lets it record an Event before a Memcached goes away.
 */
import type { Deployment } from 'kubernetes-types/apps/v1.js';
import {
  addFinalizer,
  BuiltinKinds,
  containsFinalizer,
  isBeingDeleted,
  isNotFound,
  removeFinalizer,
  setControllerReference,
  setStatusCondition,
  type Clock,
  type ConditionInput,
  type EventRecorder,
  type Manager,
  type ReconcileContext,
  type Request,
  type Result,
} from 'kubeforge/runtime';
import { MemcachedKind, type Memcached } from '../../api/v1alpha1/memcached_types.js';
import { reasonFinalizing, reasonReconciling } from './conditions.js';

/** The finalizer this controller puts on every Memcached, so that it can clean up before the Memcached is deleted. */
export const memcachedFinalizer = 'cache.example.com/finalizer';

// Definitions to manage status conditions
/** typeAvailableMemcached represents the status of the Deployment reconciliation. */
export const typeAvailableMemcached = 'Available';
/** typeDegradedMemcached represents the status used when the custom resource is deleted and the finalizer operations are yet to occur. */
export const typeDegradedMemcached = 'Degraded';

// The following markers are used to generate the rules permissions (RBAC) on config/rbac when
// `make manifests` runs. To know more about markers see: https://book.kubebuilder.io/reference/markers.html

// +kubebuilder:rbac:groups=cache.example.com,resources=memcacheds,verbs=get;list;watch;create;update;patch;delete
// +kubebuilder:rbac:groups=cache.example.com,resources=memcacheds/status,verbs=get;update;patch
// +kubebuilder:rbac:groups=cache.example.com,resources=memcacheds/finalizers,verbs=update
// +kubebuilder:rbac:groups=events.k8s.io,resources=events,verbs=create;patch
// +kubebuilder:rbac:groups=apps,resources=deployments,verbs=get;list;watch;create;update;patch;delete
// (The book also grants core pods get;list;watch, which its controller never uses: the least-privilege
// report of the deploy proof showed the rule unused, so this port leaves it out.)

/** MemcachedReconciler reconciles a Memcached object. */
export class MemcachedReconciler {
  private readonly recorder: EventRecorder;

  constructor(private readonly mgr: Manager) {
    this.recorder = mgr.eventRecorderFor('memcached-controller', { api: 'events.k8s.io/v1' });
  }

  /**
   * Reconcile moves the cluster toward the state a Memcached asks for. It must be idempotent: it reads the
   * Memcached and its Deployment, acts, and returns when to look again. Every write answers the object as
   * the server now has it, and the next write starts from that answer (so a write never fails on a
   * resourceVersion this reconcile already made stale).
   * For further info:
   * - About Operator Pattern: https://kubernetes.io/docs/concepts/extend-kubernetes/operator/
   * - About Controllers: https://kubernetes.io/docs/concepts/architecture/controller/
   */
  async reconcile(request: Request, context: ReconcileContext): Promise<Result> {
    const { log, clock } = context;
    const client = this.mgr.client;

    // Fetch the Memcached instance. If it is not found it was deleted (or never created): nothing to do.
    let memcached: Memcached;
    try {
      memcached = await client.get(MemcachedKind, request);
    } catch (err) {
      if (isNotFound(err)) {
        log.info('Memcached resource not found, ignoring since object must be deleted');
        return {};
      }
      log.error({ err }, 'Failed to get memcached');
      throw err;
    }

    // Let's just set the status as Unknown when no status is available
    if ((memcached.status?.conditions ?? []).length === 0) {
      memcached = await this.setCondition(memcached, { type: typeAvailableMemcached, status: 'Unknown', reason: reasonReconciling, message: 'Starting reconciliation' }, clock, log);
    }

    // Let's add a finalizer. Then, we can define some operations which should occur before the custom
    // resource is deleted. More info: https://kubernetes.io/docs/concepts/overview/working-with-objects/finalizers
    // (A Memcached already being deleted can take no new finalizer: the API server refuses it.)
    if (!isBeingDeleted(memcached) && addFinalizer(memcached, memcachedFinalizer)) {
      log.info('Adding finalizer for Memcached');
      try {
        memcached = await client.update(memcached);
      } catch (err) {
        log.error({ err }, 'Failed to update custom resource to add finalizer');
        throw err;
      }
    }

    // Check if the Memcached instance is marked to be deleted, which is indicated by the deletion timestamp being set.
    if (isBeingDeleted(memcached)) {
      if (containsFinalizer(memcached, memcachedFinalizer)) {
        log.info('Performing finalizer operations for Memcached before deleting CR');

        // Let's add here a status "Downgrade" to reflect that this resource began its process to be terminated.
        const name = memcached.metadata!.name!;
        memcached = await this.setCondition(memcached, { type: typeDegradedMemcached, status: 'Unknown', reason: reasonFinalizing, message: `Performing finalizer operations for the custom resource: ${name} ` }, clock, log);

        // Perform all operations required before removing the finalizer and allow the Kubernetes API to
        // remove the custom resource.
        await this.doFinalizerOperationsForMemcached(memcached);

        // TODO(user): If you add operations to the doFinalizerOperationsForMemcached method then you need to
        // ensure that all worked fine before deleting and updating the Downgrade status; otherwise, you
        // should requeue here.

        memcached = await this.setCondition(memcached, { type: typeDegradedMemcached, status: 'True', reason: reasonFinalizing, message: `Finalizer operations for custom resource ${name} name were successfully accomplished` }, clock, log);

        log.info('Removing finalizer for Memcached after successfully performing the operations');
        removeFinalizer(memcached, memcachedFinalizer);
        try {
          await client.update(memcached);
        } catch (err) {
          log.error({ err }, 'Failed to remove finalizer for Memcached');
          throw err;
        }
      }
      return {};
    }

    // Check if the deployment already exists, if not create a new one
    let found: Deployment | undefined;
    try {
      found = await client.get(BuiltinKinds.Deployment, request);
    } catch (err) {
      if (!isNotFound(err)) {
        log.error({ err }, 'Failed to get Deployment');
        // Let's return the error for the reconciliation be re-triggered again
        throw err;
      }
    }
    if (!found) {
      // Define a new deployment
      let dep: Deployment;
      try {
        dep = this.deploymentForMemcached(memcached);
      } catch (err) {
        log.error({ err }, 'Failed to define new Deployment resource for Memcached');
        // The following implementation will update the status
        await this.setCondition(memcached, { type: typeAvailableMemcached, status: 'False', reason: reasonReconciling, message: `Failed to create Deployment for the custom resource (${memcached.metadata!.name!}): (${errorText(err)})` }, clock, log);
        throw err;
      }

      log.info({ 'Deployment.Namespace': dep.metadata!.namespace, 'Deployment.Name': dep.metadata!.name }, 'Creating a new Deployment');
      try {
        await client.create(dep);
      } catch (err) {
        log.error({ err, 'Deployment.Namespace': dep.metadata!.namespace, 'Deployment.Name': dep.metadata!.name }, 'Failed to create new Deployment');
        throw err;
      }

      // Deployment created successfully. We will requeue the reconciliation so that we can ensure the
      // state and move forward for the next operations.
      return { requeueAfter: 60_000 };
    }

    // The CRD API defines that the Memcached type has a MemcachedSpec.size field to set the quantity of
    // Deployment instances to the desired state on the cluster. Therefore, the following code will
    // ensure the Deployment size is the same as defined via the size spec of the custom resource which
    // we are reconciling. (If the size is not defined the desired replicas are 0.)
    const size = memcached.spec.size ?? 0;
    if (found.spec?.replicas !== size) {
      found.spec = { ...found.spec!, replicas: size };
      try {
        await client.update(found);
      } catch (err) {
        log.error({ err, 'Deployment.Namespace': found.metadata?.namespace, 'Deployment.Name': found.metadata?.name }, 'Failed to update Deployment');
        // The following implementation will update the status
        await this.setCondition(memcached, { type: typeAvailableMemcached, status: 'False', reason: 'Resizing', message: `Failed to update the size for the custom resource (${memcached.metadata!.name!}): (${errorText(err)})` }, clock, log);
        throw err;
      }
      // Now that we updated the size we want to requeue the reconciliation so that we can ensure that we
      // have the latest state of the resource before update. Also, it will help ensure the desired state
      // on the cluster.
      return { requeue: true };
    }

    // The following implementation will update the status
    await this.setCondition(memcached, { type: typeAvailableMemcached, status: 'True', reason: reasonReconciling, message: `Deployment for custom resource (${memcached.metadata!.name!}) with ${size} replicas created successfully` }, clock, log);
    return {};
  }

  /** Sets a status condition and writes the status when it changed; returns the Memcached as the server has it. */
  private async setCondition(memcached: Memcached, condition: ConditionInput, clock: Clock, log: ReconcileContext['log']): Promise<Memcached> {
    memcached.status = { ...memcached.status, conditions: [...(memcached.status?.conditions ?? [])] };
    if (!setStatusCondition(memcached.status.conditions!, condition, clock)) return memcached;
    try {
      return await this.mgr.client.updateStatus(memcached);
    } catch (err) {
      log.error({ err }, 'Failed to update Memcached status');
      throw err;
    }
  }

  /** Performs the required operations before the custom resource is deleted. */
  private async doFinalizerOperationsForMemcached(cr: Memcached): Promise<void> {
    // TODO(user): Add the cleanup steps that the operator needs to do before the CR can be deleted.
    // Examples of finalizers include performing backups and deleting resources that are not owned by
    // this CR, like a PVC.

    // Note: It is not recommended to use finalizers with the purpose of deleting resources which are
    // created and managed in the reconciliation. These ones, such as the Deployment created on this
    // reconcile, are defined as dependent of the custom resource. See that we use setControllerReference
    // to set the ownerRef, which means that the Deployment will be deleted by the Kubernetes API.
    // More info: https://kubernetes.io/docs/tasks/administer-cluster/use-cascading-deletion/

    // The following implementation will raise an event
    await this.recorder.event(cr, 'Warning', 'Deleting', `Custom Resource ${cr.metadata!.name!} is being deleted from the namespace ${cr.metadata!.namespace!}`, 'DeleteCR');
  }

  /** deploymentForMemcached returns a Memcached Deployment object. */
  private deploymentForMemcached(memcached: Memcached): Deployment {
    const labels = labelsForMemcached();

    // Get the Operand image
    const image = imageForMemcached();

    const dep: Deployment = {
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      metadata: { name: memcached.metadata!.name!, namespace: memcached.metadata!.namespace! },
      spec: {
        replicas: memcached.spec.size,
        selector: { matchLabels: labels },
        template: {
          metadata: { labels },
          spec: {
            // TODO(user): Uncomment the following code to configure the nodeAffinity expression
            // according to the platforms which are supported by your solution. It is considered
            // best practice to support multiple architectures. You can build your manager image using the
            // makefile target docker-buildx. Also, you can use docker manifest inspect <image>
            // to check what are the platforms supported.
            // More info: https://kubernetes.io/docs/concepts/scheduling-eviction/assign-pod-node/#node-affinity
            // affinity: {
            //   nodeAffinity: {
            //     requiredDuringSchedulingIgnoredDuringExecution: {
            //       nodeSelectorTerms: [
            //         {
            //           matchExpressions: [
            //             { key: 'kubernetes.io/arch', operator: 'In', values: ['amd64', 'arm64', 'ppc64le', 's390x'] },
            //             { key: 'kubernetes.io/os', operator: 'In', values: ['linux'] },
            //           ],
            //         },
            //       ],
            //     },
            //   },
            // },
            securityContext: {
              runAsNonRoot: true,
              // IMPORTANT: seccompProfile was introduced with Kubernetes 1.19. If you are looking for to
              // produce solutions to be supported on lower versions you must remove this option.
              seccompProfile: { type: 'RuntimeDefault' },
            },
            containers: [
              {
                image,
                name: 'memcached',
                imagePullPolicy: 'IfNotPresent',
                // Ensure restrictive context for the container
                // More info: https://kubernetes.io/docs/concepts/security/pod-security-standards/#restricted
                securityContext: {
                  runAsNonRoot: true,
                  runAsUser: 1001,
                  allowPrivilegeEscalation: false,
                  readOnlyRootFilesystem: true,
                  capabilities: { drop: ['ALL'] },
                },
                ports: [{ containerPort: memcached.spec.containerPort, name: 'memcached' }],
                command: ['memcached', '--memory-limit=64', '-o', 'modern', '-v'],
              },
            ],
          },
        },
      },
    };

    // Set the ownerRef for the Deployment
    // More info: https://kubernetes.io/docs/concepts/overview/working-with-objects/owners-dependents/
    setControllerReference(memcached, dep);
    return dep;
  }
}

/**
 * labelsForMemcached returns the labels for selecting the resources.
 * More info: https://kubernetes.io/docs/concepts/overview/working-with-objects/common-labels/
 */
export function labelsForMemcached(): Record<string, string> {
  let imageTag = '';
  try {
    imageTag = imageTagOf(imageForMemcached());
  } catch {
    // no image: no version label value
  }
  return {
    'app.kubernetes.io/name': 'memcached',
    'app.kubernetes.io/version': imageTag,
    'app.kubernetes.io/managed-by': 'MemcachedController',
  };
}

/**
 * imageForMemcached gets the Operand image which is managed by this controller from the MEMCACHED_IMAGE
 * environment variable defined in config/manager/manager.yaml.
 */
export function imageForMemcached(): string {
  const imageEnvVar = 'MEMCACHED_IMAGE';
  const image = process.env[imageEnvVar];
  if (image === undefined) throw new Error(`unable to find ${imageEnvVar} environment variable with the image`);
  return image;
}

/** The tag of an image reference (`memcached:1.6.26-alpine` → `1.6.26-alpine`), or '' when it has none. */
function imageTagOf(image: string): string {
  const lastPart = image.split('@')[0]!.split('/').pop()!;
  const colon = lastPart.indexOf(':');
  return colon < 0 ? '' : lastPart.slice(colon + 1);
}

function errorText(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

/**
 * Registers the Memcached controller with the manager (called from internal/controller/index.ts). It watches
 * the Memcached objects and the Deployments they own: any change to such a Deployment reconciles its
 * Memcached again, so that the cluster's state is brought back to what the Memcached asks for.
 */
export function setupMemcachedController(mgr: Manager): void {
  mgr
    .controllerFor(MemcachedKind)
    .named('memcached')
    .owns(BuiltinKinds.Deployment)
    .complete(new MemcachedReconciler(mgr));
}
