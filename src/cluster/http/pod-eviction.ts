/**
 * POST pods/<name>/eviction (policy/v1 Eviction), as kube-apiserver 1.32's EvictionREST: a pod that is
 * Pending, finished or already going is deleted without looking at budgets; otherwise the one
 * PodDisruptionBudget selecting it must allow a disruption — its disruptionsAllowed is decremented and
 * the pod recorded in status.disruptedPods before the pod gets the DisruptionTarget condition and is
 * deleted with the Eviction's DeleteOptions (201 Success), which are validated as a DELETE's are (422 Invalid). No disruption left → 429 with the
 * DisruptionBudget cause; several budgets → the real server's 500; a budget the controller has not yet
 * seen → 429 "still being processed"; unready pods pass while the budget is otherwise met.
 */
import type { ObjectOperations, DeleteOptions } from '../registry/object-operations.js';
import type { ResourceCatalog } from '../registry/resource-catalog.js';
import { rfc3339 } from '../registry/system-metadata.js';
import { ApiError, badRequest, conflict, forbidden, type StatusCause } from '../errors/status-errors.js';
import type { Condition } from 'kubernetes-types/meta/v1.js';
import type { Pod } from 'kubernetes-types/core/v1.js';
import type { Eviction, PodDisruptionBudget, PodDisruptionBudgetStatus } from 'kubernetes-types/policy/v1.js';
import type { DeleteOptions as MetaDeleteOptions } from 'kubernetes-types/meta/v1.js';
import { asStored } from '../store/kube-object.js';
import type { KubeObject, ObjectStore } from '../store/object-store.js';
import type { ResourceHandler } from './resource-handler.js';
import type { ResourceType } from '../registry/resource-type.js';
import { isPodReady, labelSelectorSelects } from '../controllers/service-pods.js';
import { validateDeleteOptions } from './delete-options-validation.js';
import { copyObject } from '../store/copy-object.js';

const evictionKind = { group: 'policy', version: 'v1', kind: 'Eviction', custom: false };
const writer = { fieldManager: 'kube-apiserver' };
const violationMessage = "Cannot evict pod as it would violate the pod's disruption budget.";

function tooManyRequests(message: string, cause: string, retryAfterSeconds = 0): ApiError {
  const causes: StatusCause[] = [{ reason: 'DisruptionBudget', message: cause }];
  return new ApiError(429, 'TooManyRequests', message, { causes, ...(retryAfterSeconds ? { retryAfterSeconds } : {}) });
}

/** Pending, Succeeded, Failed or already terminating pods are deleted without consulting budgets. */
const canIgnoreBudgets = (pod: KubeObject): boolean => (['Pending', 'Succeeded', 'Failed'] as Array<string | undefined>).includes(asStored<Pod>(pod).status?.phase) || Boolean(pod.metadata.deletionTimestamp);

/**
 * The Eviction's DeleteOptions with the request's dryRun folded in, as propagateDryRun does: the
 * request's when the body names none, the body's when the request names none (kubectl drain
 * --dry-run=server sets only the body's); when both name some they must be the same.
 */
function deleteOptionsOf(eviction: Eviction, requestDryRun: string[]): DeleteOptions {
  const given = eviction?.deleteOptions ?? {};
  const bodyDryRun: string[] = Array.isArray(given.dryRun) ? given.dryRun : [];
  if (bodyDryRun.length && requestDryRun.length && bodyDryRun.join('\0') !== requestDryRun.join('\0')) {
    // a plain error in EvictionREST, which the API server answers as a 500 with no reason
    throw new ApiError(500, '', `Non-matching dry-run options in request and content: [${requestDryRun.join(' ')}] and [${bodyDryRun.join(' ')}]`);
  }
  const dryRun = bodyDryRun.length ? bodyDryRun : requestDryRun;
  const options: DeleteOptions = { dryRun: dryRun.includes('All') };
  if (typeof given.gracePeriodSeconds === 'number') options.gracePeriodSeconds = given.gracePeriodSeconds;
  if (given.preconditions) options.preconditions = given.preconditions;
  if (given.propagationPolicy) options.propagationPolicy = given.propagationPolicy as DeleteOptions['propagationPolicy'];
  else if (given.orphanDependents === true) options.propagationPolicy = 'Orphan';
  else if (given.orphanDependents === false) options.propagationPolicy = 'Background';
  return options;
}

export function installPodEviction(handler: ResourceHandler, catalog: ResourceCatalog, store: ObjectStore, operations: ObjectOperations, now: () => number): void {
  handler.subresourceHandlers.set('/pods/eviction', (rt, ctx) => {
    if (ctx.info.verb !== 'create') throw new ApiError(405, 'MethodNotAllowed', `${ctx.info.verb} is not supported on resources of kind "pods/eviction"`, { kind: 'pods' });
    const budgets = catalog.find('policy', 'v1', 'poddisruptionbudgets');
    const eviction: Eviction = (handler.decodeBody(ctx, evictionKind) as Eviction | undefined) ?? {};
    const name = ctx.info.name!;
    const namespace = ctx.info.namespace!;
    if ((eviction.metadata?.name ?? '') !== name) throw badRequest('name in URL does not match name in Eviction object');
    const options = deleteOptionsOf(eviction, ctx.query.getAll('dryRun'));
    const pod = operations.get(rt, namespace, name);
    const evict = (): { code: number; body: unknown } => {
      deletePod(operations, rt, pod, options, eviction.deleteOptions ?? {}, now);
      return { code: 201, body: { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Success', code: 201 } };
    };
    if (canIgnoreBudgets(pod) || !budgets) return evict();
    const matching = store.list(budgets.bucket, namespace).filter((b) => labelSelectorSelects(asStored<PodDisruptionBudget>(b).spec?.selector, pod.metadata.labels));
    if (matching.length > 1) {
      return { code: 500, body: { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message: 'This pod has more than one PodDisruptionBudget, which the eviction subresource does not support.', code: 500 } };
    }
    const pdb = matching[0];
    if (!pdb) return evict();
    if (!isPodReady(pod)) {
      const status: Partial<PodDisruptionBudgetStatus> = asStored<PodDisruptionBudget>(pdb).status ?? {};
      const alwaysAllow = asStored<PodDisruptionBudget>(pdb).spec?.unhealthyPodEvictionPolicy === 'AlwaysAllow';
      // an unready pod does not count as healthy: deleting it disrupts nothing while the budget is met
      if (alwaysAllow || ((status.currentHealthy ?? 0) >= (status.desiredHealthy ?? 0) && (status.desiredHealthy ?? 0) > 0)) return evict();
    }
    checkAndDecrement(operations, budgets, pdb, name, Boolean(options.dryRun), now);
    return evict();
  });
}

/** Takes one disruption from the budget (and records the pod as disrupted), or refuses with 429. */
function checkAndDecrement(operations: ObjectOperations, budgets: ResourceType, pdb: KubeObject, podName: string, dryRun: boolean, now: () => number): void {
  const status: Partial<PodDisruptionBudgetStatus> = asStored<PodDisruptionBudget>(pdb).status ?? {};
  if ((status.observedGeneration ?? 0) < (pdb.metadata.generation ?? 0)) {
    throw tooManyRequests(violationMessage, `The disruption budget ${pdb.metadata.name} is still being processed by the server.`, 10);
  }
  if ((status.disruptionsAllowed ?? 0) < 0) throw forbidden(`poddisruptionbudgets.policy "${pdb.metadata.name}" is forbidden: pdb disruptions allowed is negative`, { group: 'policy', resource: 'poddisruptionbudget' }, pdb.metadata.name);
  if (Object.keys(status.disruptedPods ?? {}).length > 2000) {
    throw forbidden(`poddisruptionbudgets.policy "${pdb.metadata.name}" is forbidden: DisruptedPods map too big - too many evictions not confirmed by PDB controller`, { group: 'policy', resource: 'poddisruptionbudget' }, pdb.metadata.name);
  }
  if ((status.disruptionsAllowed ?? 0) === 0) {
    throw tooManyRequests(violationMessage, `The disruption budget ${pdb.metadata.name} needs ${status.desiredHealthy ?? 0} healthy pods and has ${status.currentHealthy ?? 0} currently`);
  }
  if (dryRun) return;
  const next = copyObject(pdb);
  const nextStatus = asStored<PodDisruptionBudget>(next).status!;
  nextStatus.disruptionsAllowed -= 1;
  if (nextStatus.disruptionsAllowed === 0) {
    nextStatus.conditions = (nextStatus.conditions ?? []).map((c: Condition) =>
      c.type === 'DisruptionAllowed' && c.status !== 'False' ? { ...c, status: 'False', reason: 'InsufficientPods', message: '', lastTransitionTime: rfc3339(now()) } : c,
    );
  }
  nextStatus.disruptedPods = { ...(nextStatus.disruptedPods ?? {}), [podName]: rfc3339(now()) };
  operations.update(budgets, pdb.metadata.namespace, pdb.metadata.name, next, { ...writer, subresource: 'status' });
}

/** The DisruptionTarget condition (EvictionByEvictionAPI), then the delete with the Eviction's options (checked as a DELETE's). */
function deletePod(operations: ObjectOperations, pods: ResourceType, pod: KubeObject, options: DeleteOptions, requested: MetaDeleteOptions, now: () => number): void {
  const { namespace, name } = pod.metadata;
  const pre = options.preconditions ?? {};
  if (pre.uid && pre.uid !== pod.metadata.uid) {
    throw conflict({ group: '', resource: 'Pod' }, name, `the UID in the precondition (${pre.uid}) does not match the UID in record (${pod.metadata.uid}). The object might have been deleted and then recreated`);
  }
  if (pre.resourceVersion && pre.resourceVersion !== pod.metadata.resourceVersion) {
    throw conflict({ group: '', resource: 'Pod' }, name, `the ResourceVersion in the precondition (${pre.resourceVersion}) does not match the ResourceVersion in record (${pod.metadata.resourceVersion}). The object might have been modified`);
  }
  let current = pod;
  if (!options.dryRun) {
    const next = copyObject(pod);
    const status = (next.status ??= {}) as { conditions?: Array<Record<string, unknown>> };
    const conditions: Array<Record<string, unknown>> = status.conditions ?? [];
    const condition = { type: 'DisruptionTarget', status: 'True', lastProbeTime: null, lastTransitionTime: rfc3339(now()), reason: 'EvictionByEvictionAPI', message: 'Eviction API: evicting' };
    const i = conditions.findIndex((c) => c.type === 'DisruptionTarget');
    if (i === -1) conditions.push(condition);
    else if (conditions[i].status !== 'True') conditions[i] = condition;
    status.conditions = conditions;
    current = operations.update(pods, namespace, name, next, { ...writer, subresource: 'status' }).object;
  }
  const deleteOptions: DeleteOptions = { ...options, ...(pre.resourceVersion ? { preconditions: { ...pre, resourceVersion: current.metadata.resourceVersion } } : {}) };
  // The store's Delete validates the options (rest.BeforeDelete) as a DELETE does: after the condition (and the
  // budget's disruption) were written, as in 1.32's addConditionAndDeletePod.
  validateDeleteOptions(requested);
  operations.delete(pods, namespace, name, deleteOptions);
}
