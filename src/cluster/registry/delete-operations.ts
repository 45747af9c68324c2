/**
 * DELETE as kube-apiserver does it (§3.6): preconditions, propagation finalizers, deletionTimestamp
 * while finalizers remain, graceful deletion of bound pods, namespaces handed to the namespace
 * controller, and the response body each kind gives.
 */
import type { ClusterClock } from '../clock/virtual-clock.js';
import { conflict, forbidden, notFound } from '../errors/status-errors.js';
import type { Namespace, Pod } from 'kubernetes-types/core/v1.js';
import type { KubeObject, ObjectStore } from '../store/object-store.js';
import { asStored } from '../store/kube-object.js';
import type { ResourceType } from './resource-type.js';
import type { UserInfo } from '../http/authentication.js';
import { isNoOp, rfc3339 } from './system-metadata.js';
import { copyObject } from '../store/copy-object.js';

export interface DeleteOptions {
  propagationPolicy?: 'Background' | 'Foreground' | 'Orphan';
  gracePeriodSeconds?: number;
  preconditions?: { uid?: string; resourceVersion?: string };
  dryRun?: boolean;
  /** Who asks (ValidatingAdmissionPolicy's `request.userInfo` on DELETE). */
  user?: UserInfo;
}

export class DeleteOperations {
  constructor(
    private readonly store: ObjectStore,
    private readonly clock: ClusterClock,
    private readonly present: (rt: ResourceType, stored: KubeObject) => KubeObject,
  ) {}

  private qr(rt: ResourceType): { group: string; resource: string } {
    return { group: rt.group, resource: rt.resource };
  }

  /** DELETE of one object. Returns the object (still there or deleted) or a Success Status. */
  delete(rt: ResourceType, namespace: string | undefined, name: string, options: DeleteOptions = {}): { body: KubeObject | Record<string, unknown>; warnings: string[] } {
    const ns = rt.namespaced ? namespace : undefined;
    const stored = this.store.get(rt.bucket, ns, name);
    if (!stored) throw notFound(this.qr(rt), name);
    const warnings: string[] = [];
    if (rt.resource === 'namespaces' && !rt.group && ['default', 'kube-system', 'kube-public'].includes(name)) {
      throw forbidden(`namespaces "${name}" is forbidden: this namespace may not be deleted`, this.qr(rt), name);
    }
    const pre = options.preconditions ?? {};
    if (pre.uid && pre.uid !== stored.metadata.uid) {
      throw conflict(this.qr(rt), name, `Precondition failed: UID in precondition: ${pre.uid}, UID in object meta: ${stored.metadata.uid}`);
    }
    if (pre.resourceVersion && pre.resourceVersion !== stored.metadata.resourceVersion) {
      throw conflict(this.qr(rt), name, `Precondition failed: ResourceVersion in precondition: ${pre.resourceVersion}, ResourceVersion in object meta: ${stored.metadata.resourceVersion}`);
    }
    if (!options.propagationPolicy && rt.strategy.deleteWarning) warnings.push(rt.strategy.deleteWarning);
    const policy = options.propagationPolicy ?? rt.defaultPropagation;
    const next = copyObject(stored);
    let finalizers: string[] = [...(next.metadata.finalizers ?? [])];
    const alreadyDeleting = Boolean(stored.metadata.deletionTimestamp);
    if (!alreadyDeleting) {
      finalizers = finalizers.filter((f) => f !== 'orphan' && f !== 'foregroundDeletion');
      if (policy === 'Orphan') finalizers.push('orphan');
      if (policy === 'Foreground') finalizers.push('foregroundDeletion');
      for (const f of rt.strategy.finalizersOnDelete ?? []) if (!finalizers.includes(f)) finalizers.push(f);
    }
    if (rt.resource === 'namespaces' && !rt.group) {
      return { body: this.present(rt, this.startNamespaceDeletion(rt, stored, options)), warnings };
    }
    const graceful = this.gracefulPodDeletion(rt, stored, options, finalizers);
    if (graceful) {
      if (options.dryRun || graceful === stored) return { body: this.present(rt, graceful), warnings };
      return { body: this.present(rt, this.store.update(rt.bucket, graceful)), warnings };
    }
    if (finalizers.length > 0) {
      if (alreadyDeleting) return { body: this.present(rt, stored), warnings };
      next.metadata.finalizers = finalizers;
      next.metadata.deletionTimestamp = rfc3339(this.clock.now());
      next.metadata.deletionGracePeriodSeconds = 0;
      if (next.metadata.generation !== undefined) next.metadata.generation += 1;
      if (options.dryRun) return { body: this.present(rt, next), warnings };
      return { body: this.present(rt, this.store.update(rt.bucket, next)), warnings };
    }
    if (options.dryRun) return { body: this.deletedBody(rt, stored), warnings };
    const gone = this.store.delete(rt.bucket, ns, name)!;
    return { body: this.deletedBody(rt, gone), warnings };
  }

  /**
   * Pods bound to a node and not finished are deleted gracefully (§3.6 step 4): deletionTimestamp is
   * now + grace and the kubelet simulator removes them. Returns the object to keep, or undefined when
   * the pod goes now (unbound, terminal, or grace 0 without finalizers).
   */
  private gracefulPodDeletion(rt: ResourceType, stored: KubeObject, options: DeleteOptions, finalizers: string[]): KubeObject | undefined {
    if (rt.group !== '' || rt.resource !== 'pods') return undefined;
    const pod = asStored<Pod>(stored);
    const phase = pod.status?.phase;
    const bound = Boolean(pod.spec?.nodeName);
    const grace = options.gracePeriodSeconds ?? pod.spec?.terminationGracePeriodSeconds ?? 30;
    if (!bound || phase === 'Succeeded' || phase === 'Failed' || grace <= 0) {
      if (grace <= 0 && stored.metadata.deletionTimestamp && finalizers.length > 0) {
        const next = copyObject(stored);
        next.metadata.deletionGracePeriodSeconds = 0;
        return next;
      }
      return undefined;
    }
    if (stored.metadata.deletionTimestamp) {
      const current = Date.parse(stored.metadata.deletionTimestamp);
      const requested = this.clock.now() + grace * 1000;
      if (requested >= current) return stored;
    }
    const next = copyObject(stored);
    next.metadata.deletionTimestamp = rfc3339(this.clock.now() + grace * 1000);
    next.metadata.deletionGracePeriodSeconds = grace;
    next.metadata.finalizers = finalizers.length ? finalizers : undefined;
    if (!next.metadata.finalizers) delete next.metadata.finalizers;
    return next;
  }

  private deletedBody(rt: ResourceType, gone: KubeObject): KubeObject | Record<string, unknown> {
    if (rt.returnsDeletedObject) return this.present(rt, gone);
    return {
      kind: 'Status',
      apiVersion: 'v1',
      metadata: {},
      status: 'Success',
      details: { name: gone.metadata.name, ...(rt.group ? { group: rt.group } : {}), kind: rt.resource, uid: gone.metadata.uid },
    };
  }

  /** Namespaces: deletionTimestamp + phase Terminating; the namespace controller finishes the job. */
  private startNamespaceDeletion(rt: ResourceType, stored: KubeObject, options: DeleteOptions): KubeObject {
    if (stored.metadata.deletionTimestamp) return stored;
    const next = copyObject(stored);
    next.metadata.deletionTimestamp = rfc3339(this.clock.now());
    next.metadata.deletionGracePeriodSeconds = 0;
    next.status = { ...(next.status ?? {}), phase: 'Terminating' };
    if (options.propagationPolicy === 'Orphan') next.metadata.finalizers = [...(next.metadata.finalizers ?? []), 'orphan'];
    if (options.propagationPolicy === 'Foreground') next.metadata.finalizers = [...(next.metadata.finalizers ?? []), 'foregroundDeletion'];
    if (options.dryRun) return next;
    return this.store.update(rt.bucket, next);
  }

  /** PUT namespaces/<n>/finalize: replaces spec.finalizers; the namespace goes once nothing holds it. */
  finalizeNamespace(rt: ResourceType, name: string, body: unknown): KubeObject {
    const stored = this.store.get('namespaces', undefined, name);
    if (!stored) throw notFound(this.qr(rt), name);
    const next = asStored<Namespace>(copyObject(stored));
    next.spec = { ...(next.spec ?? {}), finalizers: asStored<Namespace>(body as KubeObject)?.spec?.finalizers ?? [] };
    if (next.spec.finalizers!.length === 0) delete next.spec.finalizers;
    if (isNoOp(next, stored)) return this.present(rt, stored);
    if (next.metadata.deletionTimestamp && !(next.spec.finalizers ?? []).length && !(next.metadata.finalizers ?? []).length) {
      return this.present(rt, this.store.delete('namespaces', undefined, name)!);
    }
    return this.present(rt, this.store.update('namespaces', next));
  }
}
