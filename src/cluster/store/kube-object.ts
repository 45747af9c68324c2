/**
 * The shape of every object the local cluster stores and serves: apiVersion, kind and a typed
 * ObjectMeta (kubernetes-types', writable because the server sets uid, resourceVersion and the rest,
 * with the name every stored object has). Each kind's own fields are read through its
 * kubernetes-types type where a module needs them.
 */
import type { ObjectMeta } from 'kubernetes-types/meta/v1.js';

type Writable<T> = { -readonly [K in keyof T]: T[K] };

/** ObjectMeta as the server writes it: every field writable. */
export type WritableObjectMeta = Writable<ObjectMeta>;

/** A stored object's metadata: it always has its name. */
export type StoredObjectMeta = WritableObjectMeta & { name: string };

/** A stored Kubernetes object; the store itself only relies on metadata.name/namespace/resourceVersion. */
export interface KubeObject {
  apiVersion?: string;
  kind?: string;
  metadata: StoredObjectMeta;
  // Each kind's spec/status/data, of ~90 built-in kinds and every custom resource: unknown here; modules read
  // them through the kind's kubernetes-types type at the point of use (`asStored<Pod>(obj)`).
  [field: string]: unknown;
}

/** An object a client asks to create: its name may still be left to `generateName`. */
export type NewKubeObject = Omit<KubeObject, 'metadata'> & { metadata: WritableObjectMeta };

/**
 * An object of one kind read through its kubernetes-types type (`Stored<Pod>`, `Stored<Job>`): the kind's
 * own fields typed, apiVersion/kind/metadata as stored. A KubeObject is assignable to it.
 */
export type Stored<T> = Omit<T, 'apiVersion' | 'kind' | 'metadata'> & { apiVersion?: string; kind?: string; metadata: StoredObjectMeta };

/**
 * Reads a stored object as its kind (`asStored<Pod>(obj)`): the deliberate, named cast every module makes at the
 * point where it knows the kind — the registry validated the object against the kind's schema before storing,
 * so its fields have the kind's shape. A KubeObject is not assignable to `Stored<T>` when T has required fields.
 */
export function asStored<T>(obj: KubeObject): Stored<T> {
  return obj as unknown as Stored<T>;
}
