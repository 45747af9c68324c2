/** Finalizer helpers: each reports whether it changed the object, so callers update only when needed. */
import type { KubeObject } from '../client/object.js';

export function containsFinalizer(obj: KubeObject, finalizer: string): boolean {
  return obj.metadata?.finalizers?.includes(finalizer) ?? false;
}

/** Adds `finalizer` if absent; true when the object changed. */
export function addFinalizer(obj: KubeObject, finalizer: string): boolean {
  if (containsFinalizer(obj, finalizer)) return false;
  obj.metadata ??= {};
  obj.metadata.finalizers = [...(obj.metadata.finalizers ?? []), finalizer];
  return true;
}

/** Removes every occurrence of `finalizer`; true when the object changed. */
export function removeFinalizer(obj: KubeObject, finalizer: string): boolean {
  if (!containsFinalizer(obj, finalizer)) return false;
  obj.metadata!.finalizers = obj.metadata!.finalizers!.filter((f) => f !== finalizer);
  return true;
}

/** True once the object has been asked to go away and is waiting on finalizers. */
export function isBeingDeleted(obj: KubeObject): boolean {
  return Boolean(obj.metadata?.deletionTimestamp);
}
