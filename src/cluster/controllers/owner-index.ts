/**
 * The garbage collector's view of ownership, updated synchronously on every commit: where each uid
 * lives, and which objects name a given uid as an owner (owner → dependents), so deleting an owner
 * finds its dependents without scanning the store.
 */
import type { KubeObject, ObjectStore, StoreEvent } from '../store/object-store.js';

/** Where an object lives in the store. */
export interface ObjectLocation {
  bucket: string;
  namespace: string | undefined;
  name: string;
}

export interface OwnerReference {
  apiVersion: string;
  kind: string;
  name: string;
  uid: string;
  controller?: boolean;
  blockOwnerDeletion?: boolean;
}

export const locationKey = (l: ObjectLocation): string => `${l.bucket}|${l.namespace ?? ''}|${l.name}`;

export function parseLocationKey(key: string): ObjectLocation {
  const [bucket, namespace, ...name] = key.split('|');
  return { bucket: bucket!, namespace: namespace || undefined, name: name.join('|') };
}

export function ownerReferencesOf(object: KubeObject | undefined): OwnerReference[] {
  const refs = object?.metadata?.ownerReferences;
  return Array.isArray(refs) ? (refs as OwnerReference[]) : [];
}

export class OwnerIndex {
  private readonly byUid = new Map<string, ObjectLocation>();
  private readonly dependents = new Map<string, Set<string>>();

  /** An index of everything in `store`, kept current by a commit listener registered now. */
  static follow(store: ObjectStore): { index: OwnerIndex; unsubscribe: () => void } {
    const index = new OwnerIndex();
    for (const bucket of store.bucketNames()) {
      for (const object of store.listShared(bucket)) index.observe({ type: 'ADDED', bucket, rv: 0, object });
    }
    return { index, unsubscribe: store.onCommit((e) => index.observe(e)) };
  }

  /** Applies one committed change. */
  observe(event: StoreEvent): void {
    const meta = event.object.metadata;
    const location: ObjectLocation = { bucket: event.bucket, namespace: meta.namespace, name: meta.name };
    const key = locationKey(location);
    for (const ref of ownerReferencesOf(event.oldObject)) this.dependents.get(ref.uid)?.delete(key);
    if (event.type === 'DELETED') {
      if (this.byUid.get(meta.uid!) && locationKey(this.byUid.get(meta.uid!)!) === key) this.byUid.delete(meta.uid!);
      return;
    }
    this.byUid.set(meta.uid!, location);
    for (const ref of ownerReferencesOf(event.object)) {
      let set = this.dependents.get(ref.uid);
      if (!set) this.dependents.set(ref.uid, (set = new Set()));
      set.add(key);
    }
  }

  locate(uid: string): ObjectLocation | undefined {
    return this.byUid.get(uid);
  }

  /** Location keys of the objects naming `uid` as an owner, sorted. */
  dependentsOf(uid: string): string[] {
    return [...(this.dependents.get(uid) ?? [])].sort();
  }

  /** Dependents of `uid` stored in `bucket` (e.g. a Job's pods), sorted by namespace and name. */
  dependentsIn(uid: string, bucket: string): ObjectLocation[] {
    return this.dependentsOf(uid).map(parseLocationKey).filter((l) => l.bucket === bucket);
  }
}
