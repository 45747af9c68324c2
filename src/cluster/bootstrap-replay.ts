/**
 * A cluster's start-up writes (namespaces, RBAC bootstrap policy, APF objects, the default StorageClass),
 * recorded the first time a process bootstraps a cluster and replayed into the next cluster started from
 * the same inputs: the same objects committed in the same order at the same resourceVersions, to the same
 * commit listeners, and the random sequences left where the bootstrap left them — without putting ~130
 * creates through decoding, admission, validation and field ownership again (a test file often starts a
 * cluster per test).
 */
import type { SeededRandom } from './registry/system-metadata.js';
import type { ChangeType, KubeObject, ObjectStore } from './store/object-store.js';
import { copyObject } from './store/copy-object.js';

interface RecordedWrite {
  type: ChangeType;
  bucket: string;
  object: KubeObject;
}

interface RecordedBootstrap {
  writes: RecordedWrite[];
  /** Each random sequence's position after the bootstrap. */
  positions: number[];
}

/** Recorded bootstraps by key; a few inputs at a time (a test file uses one or two start times). */
const recorded = new Map<string, RecordedBootstrap>();
const maxRecorded = 8;

/**
 * Runs `bootstrap` against `store`, or replays what it wrote when a bootstrap with the same `key` ran
 * before. `key` names every input the bootstrap's writes depend on besides the store's starting
 * resourceVersion and the random positions (checked here); undefined: always run it, record nothing.
 */
export function bootstrapOnce(key: string | undefined, store: ObjectStore, randoms: SeededRandom[], bootstrap: () => void): void {
  if (key === undefined) return bootstrap();
  const fullKey = JSON.stringify([key, store.resourceVersion, randoms.map((r) => r.position())]);
  const known = recorded.get(fullKey);
  if (known) return replay(known, store, randoms);
  const writes: RecordedWrite[] = [];
  const unsubscribe = store.onCommit((e) => void writes.push({ type: e.type, bucket: e.bucket, object: copyObject(e.object) }));
  try {
    bootstrap();
  } finally {
    unsubscribe();
  }
  // a delete is not replayed (store.delete takes no object): such a bootstrap is not recorded
  if (writes.some((w) => w.type === 'DELETED')) return;
  if (recorded.size >= maxRecorded) recorded.delete(recorded.keys().next().value!);
  recorded.set(fullKey, { writes, positions: randoms.map((r) => r.position()) });
}

function replay(known: RecordedBootstrap, store: ObjectStore, randoms: SeededRandom[]): void {
  for (const { type, bucket, object } of known.writes) {
    if (type === 'ADDED') store.commitCreate(bucket, object);
    else store.commitUpdate(bucket, object);
  }
  randoms.forEach((r, i) => r.moveTo(known.positions[i]!));
}
