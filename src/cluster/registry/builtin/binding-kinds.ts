/**
 * Binding a pod to a node: the core/v1 `bindings` resource (create only) and the pods/binding
 * subresource, as the API server's BindingREST does — spec.nodeName and PodScheduled=True set in one
 * storage write, 409 when the pod is already bound or being deleted. The scheduler binds through it.
 */
import { ApiError, conflict, notFound } from '../../errors/status-errors.js';
import { invalid, required } from '../../errors/field-errors.js';
import { invalidObject, badRequest } from '../../errors/status-errors.js';
import type { Binding, Pod } from 'kubernetes-types/core/v1.js';
import type { KubeObject } from '../../store/object-store.js';
import { asStored } from '../../store/kube-object.js';
import { defineKind } from '../define-kind.js';
import type { ObjectOperations } from '../object-operations.js';
import type { ResourceType } from '../resource-type.js';
import { rfc3339 } from '../system-metadata.js';

export const bindings = defineKind({
  resource: 'bindings',
  kind: 'Binding',
  namespaced: true,
  verbs: ['create'],
  fields: ['target'],
});

const podBindingResource = { group: '', resource: 'pods/binding' };

/** The Status a successful binding answers with. */
export const bindingSucceeded = { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Success', code: 201 };

/**
 * Binds pod `namespace/podName` to `binding.target.name`; throws the API server's errors.
 * `urlName` is the pod named in a pods/<name>/binding path (must match the body's name).
 */
export function bindPod(ops: ObjectOperations, podsType: ResourceType, namespace: string, binding: KubeObject, now: number, urlName?: string, dryRun = false): KubeObject {
  const name: string = binding?.metadata?.name ?? '';
  if (urlName !== undefined && name !== '' && name !== urlName) throw badRequest('name in URL does not match name in Binding object');
  const podName = name || urlName || '';
  const target = asStored<Binding>(binding)?.target;
  const errors = [];
  if (!target?.name) errors.push(required('target.name'));
  if (target?.kind && target.kind !== 'Node') errors.push(invalid('target.kind', target.kind, "must be empty or 'Node'"));
  if (errors.length) throw invalidObject('Binding', '', podName, errors);
  const bodyNamespace = binding.metadata?.namespace;
  if (bodyNamespace && bodyNamespace !== namespace) throw badRequest('the namespace of the provided object does not match the namespace sent on the request');
  const nodeName: string = target!.name!;
  try {
    return ops.guaranteedUpdate(
      podsType,
      namespace,
      podName,
      (stored) => {
        const pod = asStored<Pod>(stored);
        if (binding.metadata?.uid && binding.metadata.uid !== pod.metadata.uid) {
          throw conflict(podBindingResource, podName, `Precondition failed: UID in precondition: ${binding.metadata.uid}, UID in object meta: ${pod.metadata.uid}`);
        }
        if (pod.metadata.deletionTimestamp) throw conflict(podBindingResource, podName, `pod ${podName} is being deleted, cannot be assigned to a host`);
        if (pod.spec?.nodeName) throw conflict(podBindingResource, podName, `pod ${podName} is already assigned to node "${pod.spec.nodeName}"`);
        pod.spec!.nodeName = nodeName;
        if (binding.metadata?.annotations) pod.metadata.annotations = { ...(pod.metadata.annotations ?? {}), ...binding.metadata.annotations };
        markScheduled(stored, now);
      },
      { dryRun },
    ).object;
  } catch (err) {
    if (err instanceof ApiError && err.code === 404) throw notFound({ group: '', resource: 'pods' }, podName);
    throw err;
  }
}

/** PodScheduled=True, keeping the transition time when it already was True. */
function markScheduled(pod: KubeObject, now: number): void {
  pod.status ??= {};
  // conditions as JSON: the API server writes lastProbeTime: null, which PodCondition's type does not allow
  const conditions = (asStored<Pod>(pod).status!.conditions ??= []) as unknown as Array<Record<string, unknown>>;
  const existing = conditions.find((c) => c.type === 'PodScheduled');
  const scheduled = { type: 'PodScheduled', status: 'True', lastProbeTime: null, lastTransitionTime: rfc3339(now) };
  if (!existing) conditions.push(scheduled);
  else if (existing.status !== 'True') Object.assign(existing, scheduled, { reason: undefined, message: undefined });
  for (const c of conditions) {
    if (c.reason === undefined) delete c.reason;
    if (c.message === undefined) delete c.message;
  }
}
