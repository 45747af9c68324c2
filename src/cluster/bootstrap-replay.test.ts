/** bootstrapOnce: the second bootstrap from the same inputs is a replay the store and its listeners cannot tell from a run. */
import { bootstrapOnce } from './bootstrap-replay.js';
import { startLocalCluster } from './local-cluster.js';
import { SeededRandom } from './registry/system-metadata.js';
import { ObjectStore, type StoreEvent } from './store/object-store.js';

/** A store, its random sequence and every event its listener saw. */
function fresh(seed = 7): { store: ObjectStore; random: SeededRandom; events: StoreEvent[] } {
  const store = new ObjectStore({ initialResourceVersion: 500 });
  const events: StoreEvent[] = [];
  store.onCommit((e) => events.push(e));
  return { store, random: new SeededRandom(seed), events };
}

function writer(runs: { count: number }, s: { store: ObjectStore; random: SeededRandom }, remove = false): () => void {
  return () => {
    runs.count++;
    const a = s.store.create('configmaps', { metadata: { name: 'a', namespace: 'ns', uid: s.random.uuid() }, data: { k: 'v' } });
    s.store.create('secrets', { metadata: { name: `b-${s.random.nameSuffix()}`, namespace: 'ns' } });
    s.store.update('configmaps', { ...a, data: { k: 'w' } });
    if (remove) s.store.delete('secrets', 'ns', 'gone');
  };
}

const shown = (events: StoreEvent[]) => events.map((e) => ({ type: e.type, bucket: e.bucket, rv: e.rv, object: e.object, oldObject: e.oldObject }));

test('the same key replays the recorded writes: same events at the same resourceVersions, random sequences moved on alike', () => {
  const runs = { count: 0 };
  const first = fresh();
  bootstrapOnce('replay-test', first.store, [first.random], writer(runs, first));
  const second = fresh();
  bootstrapOnce('replay-test', second.store, [second.random], writer(runs, second));
  expect(runs.count).toBe(1);
  expect(second.events).toHaveLength(3);
  expect(shown(second.events)).toEqual(shown(first.events));
  expect(second.store.resourceVersion).toBe(first.store.resourceVersion);
  expect(second.random.position()).toBe(first.random.position());
  expect(second.random.uuid()).toBe(first.random.uuid());
  // the replayed objects are the second store's own: changing them there leaves the first untouched
  expect(Object.isFrozen(second.store.peek('configmaps', 'ns', 'a'))).toBe(true);
  expect(second.store.peek('configmaps', 'ns', 'a')).not.toBe(first.store.peek('configmaps', 'ns', 'a'));
});

test('another key, another seed or another starting resourceVersion runs the bootstrap; no key never records', () => {
  const runs = { count: 0 };
  const a = fresh();
  bootstrapOnce('inputs-1', a.store, [a.random], writer(runs, a));
  const otherKey = fresh();
  bootstrapOnce('inputs-2', otherKey.store, [otherKey.random], writer(runs, otherKey));
  const otherSeed = fresh(8);
  bootstrapOnce('inputs-1', otherSeed.store, [otherSeed.random], writer(runs, otherSeed));
  const otherStart = fresh();
  otherStart.store.create('configmaps', { metadata: { name: 'before', namespace: 'ns' } });
  bootstrapOnce('inputs-1', otherStart.store, [otherStart.random], writer(runs, otherStart));
  expect(runs.count).toBe(4);
  const unkeyed = fresh();
  bootstrapOnce(undefined, unkeyed.store, [unkeyed.random], writer(runs, unkeyed));
  bootstrapOnce(undefined, unkeyed.store, [unkeyed.random], () => void runs.count++);
  expect(runs.count).toBe(6);
});

test('a bootstrap that deletes is not recorded: it runs again', () => {
  const runs = { count: 0 };
  const a = fresh();
  a.store.create('secrets', { metadata: { name: 'gone', namespace: 'ns' } });
  bootstrapOnce('with-delete', a.store, [a.random], writer(runs, a, true));
  const b = fresh();
  b.store.create('secrets', { metadata: { name: 'gone', namespace: 'ns' } });
  bootstrapOnce('with-delete', b.store, [b.random], writer(runs, b, true));
  expect(runs.count).toBe(2);
});

test('two clusters started alike hold the same objects, history and random positions once settled (the second replays the first bootstrap)', async () => {
  const start = async () => startLocalCluster({ now: '2025-03-01T08:00:00Z', seed: 3, tls: false });
  const one = await start();
  await one.settle();
  const two = await start();
  await two.settle();
  try {
    const contents = (c: typeof one) => {
      const { store } = c.internals;
      return store.bucketNames().map((b) => [b, store.listShared(b)]);
    };
    // what the bootstrap wrote and announced, and what the controllers made of it once settled
    const history = (c: typeof one) => shown(c.internals.store.eventsSince(c.internals.store.oldestResourceVersion));
    expect(contents(one).length).toBeGreaterThan(5);
    expect(contents(two)).toEqual(contents(one));
    expect(history(two)).toEqual(history(one));
    expect(two.internals.random.position()).toBe(one.internals.random.position());
  } finally {
    await one.stop();
    await two.stop();
  }
});
