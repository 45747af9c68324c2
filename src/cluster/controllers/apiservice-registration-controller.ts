/**
 * The aggregator's auto-registration (autoregister + crdregistration controllers): one APIService per
 * served group version — `v1.` for core, `v1.apps`, `v2.autoscaling`, … with kube-apiserver 1.32's
 * priorities, labelled `kube-aggregator.kubernetes.io/automanaged` (`onstart` for built-ins, `true` for
 * CRD groups) and `Available` because they are Local — kept in step with the served set as CRDs come and
 * go. APIServices that name a Service are reported unavailable: the local cluster proxies no aggregated API.
 */
import type { Condition } from 'kubernetes-types/meta/v1.js';
import type { ClusterClock } from '../clock/virtual-clock.js';
import { apiServicePriorities } from '../registry/builtin/api-resources.js';
import type { ResourceCatalog } from '../registry/resource-catalog.js';
import { rfc3339 } from '../registry/system-metadata.js';
import { asStored } from '../store/kube-object.js';
import type { KubeObject, StoreEvent } from '../store/object-store.js';

/** The fields of an apiregistration.k8s.io/v1 APIService this controller reads (kubernetes-types has no apiregistration group). */
type APIService = { spec?: { service?: { namespace: string; name: string } }; status?: { conditions?: Condition[] } };
import type { ControllerClient } from './controller-client.js';
import type { BuiltinController } from './controller-scheduler.js';

const apiServices = 'apiregistration.k8s.io/apiservices';
const automanaged = 'kube-aggregator.kubernetes.io/automanaged';
const syncKey = '*';

export class ApiServiceRegistrationController implements BuiltinController {
  readonly name = 'apiservice-registration-controller';

  constructor(private readonly client: ControllerClient, private readonly catalog: ResourceCatalog, private readonly clock: ClusterClock) {}

  initialKeys(): string[] {
    return [syncKey];
  }

  keysFor(event: StoreEvent): string[] {
    if (event.bucket !== 'apiservices.apiregistration.k8s.io') return [];
    return event.type === 'DELETED' ? [syncKey] : [event.object.metadata.name];
  }

  /** Every APIService the served set calls for, by name. */
  private desired(): Map<string, KubeObject> {
    const out = new Map<string, KubeObject>();
    for (const { group, versions } of this.catalog.groups()) {
      versions.forEach((version, i) => {
        const gv = group ? `${group}/${version}` : version;
        const builtin = apiServicePriorities[gv];
        const [groupPriorityMinimum, versionPriority] = builtin ?? [1000, 100 - i];
        const name = `${version}.${group}`;
        out.set(name, {
          apiVersion: 'apiregistration.k8s.io/v1',
          kind: 'APIService',
          metadata: { name, labels: { [automanaged]: builtin ? 'onstart' : 'true' } },
          spec: { ...(group ? { group } : {}), version, groupPriorityMinimum, versionPriority },
        } as KubeObject);
      });
    }
    return out;
  }

  reconcile(key: string): void {
    const desired = this.desired();
    if (key !== syncKey) return this.reportStatus(key, desired);
    const existing = new Map(this.client.list(apiServices).map((o) => [o.metadata.name, o]));
    for (const [name, object] of desired) {
      if (!existing.has(name)) this.client.create(apiServices, undefined, object);
      this.reportStatus(name, desired);
    }
    for (const [name, object] of existing) {
      if (!desired.has(name) && object.metadata.labels?.[automanaged]) this.client.delete(apiServices, undefined, name);
    }
  }

  /** Available=True (Local) for a local APIService, False for one that names a Service. */
  private reportStatus(name: string, desired: Map<string, KubeObject>): void {
    const current = this.client.get(apiServices, undefined, name);
    if (!current) {
      if (desired.has(name)) this.client.create(apiServices, undefined, desired.get(name)!);
      return;
    }
    const apiService = asStored<APIService>(current);
    const service = apiService.spec?.service;
    const wanted = service
      ? this.client.get('services', service.namespace, service.name)
        ? { status: 'False', reason: 'FailedDiscoveryCheck', message: `failing or missing response from the service/${service.name} in "${service.namespace}": the local cluster does not proxy aggregated APIs` }
        : { status: 'False', reason: 'ServiceNotFound', message: `service/${service.name} in "${service.namespace}" is not present` }
      : { status: 'True', reason: 'Local', message: 'Local APIServices are always available' };
    const old = (apiService.status?.conditions ?? []).find((c) => c.type === 'Available');
    if (old && old.status === wanted.status && old.reason === wanted.reason && old.message === wanted.message) return;
    const lastTransitionTime = old && old.status === wanted.status ? old.lastTransitionTime : rfc3339(this.clock.now());
    const condition = { type: 'Available', status: wanted.status, lastTransitionTime, reason: wanted.reason, message: wanted.message };
    this.client.updateStatus(apiServices, { ...current, status: { ...apiService.status, conditions: [condition] } });
  }
}
