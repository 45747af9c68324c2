/**
 * A Deployment's ReplicaSets as the deployment controller reads and marks them (deployment/util): the
 * pod-template-hash label, the revision, revision-history, desired-replicas and max-replicas annotations,
 * template equality ignoring the hash, and the orderings the controller sorts ReplicaSets by.
 */
import type { PodTemplateSpec } from 'kubernetes-types/core/v1.js';
import type { ReplicaSet } from 'kubernetes-types/apps/v1.js';
import type { Stored, WritableObjectMeta } from '../store/object-store.js';
import { deepEqual } from '../registry/system-metadata.js';
import type { StoredDeployment } from './deployment-conditions.js';
import { maxSurge } from './rollout-arithmetic.js';
import { copyObject } from '../store/copy-object.js';

export const hashLabel = 'pod-template-hash';
export const annotations = {
  revision: 'deployment.kubernetes.io/revision',
  revisionHistory: 'deployment.kubernetes.io/revision-history',
  desiredReplicas: 'deployment.kubernetes.io/desired-replicas',
  maxReplicas: 'deployment.kubernetes.io/max-replicas',
};
/** Annotations of the Deployment never copied to its ReplicaSets. */
const notCopied = new Set([...Object.values(annotations), 'kubectl.kubernetes.io/last-applied-configuration', 'deprecated.deployment.rollback.to']);
const maxRevisionHistoryChars = 2000;

export type RS = Stored<ReplicaSet>;
export const replicasOf = (rs: RS | undefined): number => rs?.spec?.replicas ?? 0;
export const sum = (list: RS[], f: (rs: RS) => number): number => list.reduce((n, rs) => n + f(rs), 0);
export const active = (list: Array<RS | undefined>): RS[] => list.filter((rs): rs is RS => rs !== undefined && replicasOf(rs) > 0);
const created = (rs: RS): number => Date.parse(rs.metadata.creationTimestamp ?? '') || 0;
/** ReplicaSetsByCreationTimestamp: older first, then by name. */
export const byCreation = (a: RS, b: RS): number => created(a) - created(b) || (a.metadata.name < b.metadata.name ? -1 : a.metadata.name > b.metadata.name ? 1 : 0);
export const revisionOf = (rs: RS): number => Number(rs.metadata.annotations?.[annotations.revision] ?? 0) || 0;
export const numberAnnotation = (rs: RS, key: string): number | undefined => {
  const v = rs.metadata.annotations?.[key];
  return v !== undefined && /^-?\d+$/.test(v) ? Number(v) : undefined;
};

/** A pod template, its metadata as written (the creationTimestamp a template carries is dropped). */
type Template = Omit<PodTemplateSpec, 'metadata'> & { metadata?: WritableObjectMeta };

/** EqualIgnoreHash: the templates equal once the pod-template-hash label is dropped from both. */
export function equalIgnoreHash(a: Template | undefined, b: Template | undefined): boolean {
  const strip = (t: Template | undefined): Template => {
    const copy: Template = copyObject(t ?? {});
    if (copy.metadata) delete copy.metadata.creationTimestamp;
    if (copy.metadata?.labels) {
      delete copy.metadata.labels[hashLabel];
      if (Object.keys(copy.metadata.labels).length === 0) delete copy.metadata.labels;
    }
    return copy;
  };
  return deepEqual(strip(a), strip(b));
}

/** SetNewReplicaSetAnnotations: copies the Deployment's annotations, bumps revision (+ history), sets replica annotations on create. */
export function setNewReplicaSetAnnotations(d: StoredDeployment, rs: RS, newRevision: string, exists: boolean): boolean {
  let changed = false;
  const a: Record<string, string> = (rs.metadata.annotations ??= {});
  for (const [k, v] of Object.entries((d.metadata.annotations ?? {}) as Record<string, string>)) {
    if (notCopied.has(k) || a[k] === v) continue;
    a[k] = v;
    changed = true;
  }
  const oldRevision = a[annotations.revision];
  let oldNumber = 0;
  if (oldRevision !== undefined) {
    if (!/^-?\d+$/.test(oldRevision)) return false;
    oldNumber = Number(oldRevision);
  }
  const newNumber = Number(newRevision);
  if (oldNumber < newNumber) {
    a[annotations.revision] = newRevision;
    changed = true;
  }
  if (oldRevision !== undefined && oldNumber < newNumber) {
    const history = a[annotations.revisionHistory] ?? '';
    let previous = history.split(',');
    if (previous[0]!.length === 0) a[annotations.revisionHistory] = oldRevision;
    else {
      let total = history.length + oldRevision.length + 1;
      let start = 0;
      while (total > maxRevisionHistoryChars && start < previous.length) total -= previous[start++]!.length + 1;
      if (total <= maxRevisionHistoryChars) {
        previous = [...previous.slice(start), oldRevision];
        a[annotations.revisionHistory] = previous.join(',');
      }
    }
  }
  if (!exists && setReplicasAnnotations(rs, d.spec.replicas, d.spec.replicas + maxSurge(d.spec.replicas, d.spec.strategy))) changed = true;
  return changed;
}

/** SetReplicasAnnotations: desired-replicas and max-replicas; true when they changed. */
export function setReplicasAnnotations(rs: RS, desired: number, max: number): boolean {
  const a: Record<string, string> = (rs.metadata.annotations ??= {});
  if (a[annotations.desiredReplicas] === String(desired) && a[annotations.maxReplicas] === String(max)) return false;
  a[annotations.desiredReplicas] = String(desired);
  a[annotations.maxReplicas] = String(max);
  return true;
}
