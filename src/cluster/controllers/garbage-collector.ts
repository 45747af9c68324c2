/**
 * The garbage collector (§3.7, §7.3): deletes dependents whose owners are all gone (background),
 * deletes dependents of an owner in foreground deletion and then releases the owner's
 * `foregroundDeletion` finalizer once no blocking dependent is left, orphans dependents of an owner
 * with the `orphan` finalizer, and drops dangling owner references from dependents that keep a live owner.
 */
import type { ObjectStore, StoreEvent, KubeObject } from '../store/object-store.js';
import type { ControllerClient } from './controller-client.js';
import type { BuiltinController, ReconcileResult } from './controller-scheduler.js';
import { OwnerIndex, type OwnerReference, locationKey, ownerReferencesOf, parseLocationKey } from './owner-index.js';

const foreground = 'foregroundDeletion';
const orphan = 'orphan';

const hasFinalizer = (o: KubeObject | undefined, f: string): boolean => (o?.metadata.finalizers ?? []).includes(f);
const deleting = (o: KubeObject | undefined): boolean => Boolean(o?.metadata.deletionTimestamp);

type OwnerState = 'absent' | 'waitingForDependents' | 'solid';

export class GarbageCollector implements BuiltinController {
  readonly name = 'garbage-collector';
  /** `index` must be fed each commit before the scheduler asks this controller for keys. */
  constructor(private readonly store: ObjectStore, private readonly client: ControllerClient, private readonly index: OwnerIndex) {}

  initialKeys(): string[] {
    const keys: string[] = [];
    for (const bucket of this.store.bucketNames()) {
      for (const o of this.store.listShared(bucket)) {
        const key = locationKey({ bucket, namespace: o.metadata.namespace, name: o.metadata.name });
        if (ownerReferencesOf(o).length) keys.push(`dependent:${key}`);
        if (deleting(o) && (hasFinalizer(o, foreground) || hasFinalizer(o, orphan))) keys.push(`owner:${key}`);
      }
    }
    return keys;
  }

  keysFor(event: StoreEvent): string[] {
    const { object, oldObject } = event;
    const key = locationKey({ bucket: event.bucket, namespace: object.metadata.namespace, name: object.metadata.name });
    const keys: string[] = [];
    if (event.type === 'DELETED') {
      for (const dependent of this.index.dependentsOf(object.metadata.uid!)) keys.push(`dependent:${dependent}`);
    } else {
      if (deleting(object) && (hasFinalizer(object, foreground) || hasFinalizer(object, orphan))) keys.push(`owner:${key}`);
      const refsChanged = JSON.stringify(ownerReferencesOf(object)) !== JSON.stringify(ownerReferencesOf(oldObject));
      if (ownerReferencesOf(object).length && (refsChanged || event.type === 'ADDED')) keys.push(`dependent:${key}`);
    }
    // an owner waiting for its dependents re-checks whenever one of them changes or goes
    for (const ref of [...ownerReferencesOf(object), ...ownerReferencesOf(oldObject)]) {
      const where = this.index.locate(ref.uid);
      if (where) keys.push(`owner:${locationKey(where)}`);
    }
    return [...new Set(keys)];
  }

  reconcile(key: string): ReconcileResult | void {
    if (key.startsWith('owner:')) return this.reconcileOwner(key.slice('owner:'.length));
    return this.reconcileDependent(key.slice('dependent:'.length));
  }

  private load(key: string): { object: KubeObject; bucket: string } | undefined {
    const where = parseLocationKey(key);
    const rt = this.client.typeOfBucket(where.bucket);
    if (!rt) return undefined;
    const object = this.client.get(rt, where.namespace, where.name);
    return object ? { object, bucket: where.bucket } : undefined;
  }

  private ownerState(dependent: KubeObject, ref: OwnerReference): OwnerState {
    const where = this.index.locate(ref.uid);
    if (!where) return 'absent';
    // a namespaced owner only owns dependents of its own namespace
    if (where.namespace !== undefined && where.namespace !== dependent.metadata.namespace) return 'absent';
    const owner = this.store.peek(where.bucket, where.namespace, where.name) as KubeObject | undefined;
    if (!owner || owner.metadata.uid !== ref.uid) return 'absent';
    if (deleting(owner) && hasFinalizer(owner, foreground)) return 'waitingForDependents';
    return 'solid';
  }

  private reconcileDependent(key: string): void {
    const loaded = this.load(key);
    if (!loaded) return;
    const { object, bucket } = loaded;
    const refs = ownerReferencesOf(object);
    if (refs.length === 0) return;
    const states = refs.map((ref) => this.ownerState(object, ref));
    const rt = this.client.typeOfBucket(bucket)!;
    if (states.includes('solid')) {
      // keep the live owners; drop references to owners that are gone or waiting on us
      const keep = refs.filter((_, i) => states[i] === 'solid');
      if (keep.length !== refs.length) this.client.mergePatch(rt, object.metadata.namespace, object.metadata.name, { metadata: { ownerReferences: keep, resourceVersion: object.metadata.resourceVersion } });
      return;
    }
    if (deleting(object)) return;
    // only a dependent with dependents of its own carries an owner's foreground deletion on; a leaf goes
    // by its own finalizers (attemptToDeleteItem's `waitingForDependentsDeletion && dependentsLength() != 0`)
    const passesForegroundOn = states.includes('waitingForDependents') && this.index.dependentsOf(object.metadata.uid!).length > 0;
    const propagationPolicy = passesForegroundOn ? 'Foreground' : hasFinalizer(object, orphan) ? 'Orphan' : hasFinalizer(object, foreground) ? 'Foreground' : 'Background';
    this.client.delete(rt, object.metadata.namespace, object.metadata.name, { propagationPolicy, preconditions: { uid: object.metadata.uid } });
  }

  private reconcileOwner(key: string): ReconcileResult | void {
    const loaded = this.load(key);
    if (!loaded || !deleting(loaded.object)) return;
    const owner = loaded.object;
    const rt = this.client.typeOfBucket(loaded.bucket)!;
    const uid: string = owner.metadata.uid!;
    const dependents = this.index.dependentsOf(uid).map((k) => this.load(k)).filter((d) => d !== undefined);
    if (hasFinalizer(owner, orphan)) {
      for (const d of dependents) {
        const refs = ownerReferencesOf(d.object).filter((r) => r.uid !== uid);
        const drt = this.client.typeOfBucket(d.bucket)!;
        this.client.mergePatch(drt, d.object.metadata.namespace, d.object.metadata.name, { metadata: { ownerReferences: refs.length ? refs : null, resourceVersion: d.object.metadata.resourceVersion } });
      }
      this.removeFinalizer(rt, owner, orphan);
      return;
    }
    if (!hasFinalizer(owner, foreground)) return;
    for (const d of dependents) {
      if (!deleting(d.object)) this.reconcileDependent(locationKey({ bucket: d.bucket, namespace: d.object.metadata.namespace, name: d.object.metadata.name }));
    }
    const blocking = this.index
      .dependentsOf(uid)
      .map((k) => this.load(k))
      .some((d) => d && ownerReferencesOf(d.object).some((r) => r.uid === uid && r.blockOwnerDeletion === true));
    if (!blocking) this.removeFinalizer(rt, owner, foreground);
  }

  private removeFinalizer(rt: ReturnType<ControllerClient['type']>, owner: KubeObject, finalizer: string): void {
    const current = this.client.get(rt, owner.metadata.namespace, owner.metadata.name);
    if (!current || !hasFinalizer(current, finalizer)) return;
    const rest = current.metadata.finalizers!.filter((f) => f !== finalizer);
    if (rest.length) current.metadata.finalizers = rest;
    else delete current.metadata.finalizers;
    this.client.update(rt, current);
  }
}
