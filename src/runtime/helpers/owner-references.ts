/**
 * Owner references: `setControllerReference` makes `owner` the controller of `obj` (so garbage collection
 * deletes it with the owner and `owns()` enqueues the owner), refusing when another object already
 * controls it; `setOwnerReference` adds a plain owner.
 */
import type { OwnerReference } from 'kubernetes-types/meta/v1.js';
import type { KubeObject } from '../client/object.js';
import { splitApiVersion } from '../client/object.js';

export class AlreadyOwnedError extends Error {
  constructor(
    readonly object: KubeObject,
    readonly existing: OwnerReference,
  ) {
    super(`Object ${object.metadata?.namespace ?? ''}/${object.metadata?.name ?? ''} is already owned by another ${existing.kind} controller ${existing.name}`);
    this.name = 'AlreadyOwnedError';
  }
}

function referenceTo(owner: KubeObject): OwnerReference {
  const meta = owner.metadata ?? {};
  if (!owner.apiVersion || !owner.kind || !meta.name || !meta.uid) {
    throw new Error('owner reference: the owner needs apiVersion, kind, metadata.name and metadata.uid (read it from the server first)');
  }
  return { apiVersion: owner.apiVersion, kind: owner.kind, name: meta.name, uid: meta.uid };
}

function sameOwner(a: OwnerReference, b: OwnerReference): boolean {
  return a.kind === b.kind && a.name === b.name && splitApiVersion(a.apiVersion).group === splitApiVersion(b.apiVersion).group;
}

function check(owner: KubeObject, obj: KubeObject): void {
  const ownerNs = owner.metadata?.namespace;
  const objNs = obj.metadata?.namespace;
  if (ownerNs && ownerNs !== objNs) {
    throw new Error(`cross-namespace owner references are disallowed, owner's namespace ${ownerNs}, obj's namespace ${objNs ?? ''}`);
  }
  if (ownerNs && !objNs) throw new Error(`cluster-scoped resource must not have a namespace-scoped owner, owner's namespace ${ownerNs}`);
}

function upsert(obj: KubeObject, ref: OwnerReference): void {
  obj.metadata ??= {};
  const refs = obj.metadata.ownerReferences ?? [];
  const index = refs.findIndex((r) => sameOwner(r, ref));
  if (index >= 0) refs[index] = ref;
  else refs.push(ref);
  obj.metadata.ownerReferences = refs;
}

/** Makes `owner` the controlling owner of `obj` (blockOwnerDeletion, controller: true). */
export function setControllerReference(owner: KubeObject, obj: KubeObject): void {
  check(owner, obj);
  const ref: OwnerReference = { ...referenceTo(owner), blockOwnerDeletion: true, controller: true };
  const existing = obj.metadata?.ownerReferences?.find((r) => r.controller);
  if (existing && !sameOwner(existing, ref)) throw new AlreadyOwnedError(obj, existing);
  upsert(obj, ref);
}

/** Adds (or refreshes) a non-controller owner reference to `owner`. */
export function setOwnerReference(owner: KubeObject, obj: KubeObject): void {
  check(owner, obj);
  const existing = obj.metadata?.ownerReferences?.find((r) => sameOwner(r, referenceTo(owner)));
  upsert(obj, { ...referenceTo(owner), ...(existing?.controller ? { controller: true, blockOwnerDeletion: existing.blockOwnerDeletion } : {}) });
}

/** The controlling owner reference of `obj`, if any. */
export function getControllerOf(obj: KubeObject): OwnerReference | undefined {
  return obj.metadata?.ownerReferences?.find((r) => r.controller);
}
