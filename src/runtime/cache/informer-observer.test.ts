/**
 * The informer composed: one observer sees its states (listing, watching, backing off), its sync, its
 * failures with their backoff and its events; the reconnect backoff runs on the informer's clock; health
 * follows the observed watch.
 */
import type { ConfigMap } from 'kubernetes-types/core/v1.js';
import { ApiError } from '../client/api-error.js';
import { BuiltinKinds, defaultKindRegistry } from '../client/kinds.js';
import { Cache } from './cache.js';
import { flushAsyncWork, ManualClock } from '../../testing/manual-clock.js';
import { Informer, type InformerObserver } from './informer.js';
import { cm, event, scriptedServer, until } from './testdata/scripted-server.js';

const unavailable = () => new ApiError(503, { kind: 'Status', code: 503, reason: 'ServiceUnavailable', message: 'try later' } as never, 'watch');

test('one observer sees states, sync, failures with their backoff and events; the backoff waits on the informer clock', async () => {
  const server = scriptedServer([{ items: [cm('a', '3')], resourceVersion: '10' }], [unavailable(), unavailable(), { lines: [event('ADDED', cm('b', '11'))] }]);
  const clock = new ManualClock(0);
  const log: string[] = [];
  const observer: InformerObserver = {
    onStateChange: (kind, s) => log.push(`${kind} ${s.phase}${s.phase === 'watching' ? ` ${s.resourceVersion} open=${s.open}` : s.phase === 'backing-off' ? ` ${s.delayMs}ms #${s.failures}` : ''}`),
    onSynced: (kind) => log.push(`${kind} synced`),
    onError: (kind, err, ms) => log.push(`${kind} error ${(err as ApiError).code} then ${ms}ms`),
    onEvent: (_kind, e) => log.push(`event ${e.type}`),
  };
  const informer = new Informer<ConfigMap>({ kind: BuiltinKinds.ConfigMap, client: server.client, transport: server.transport, clock, backoffInitialMs: 1000, observers: [observer] });
  const adds: string[] = [];
  informer.addHandler({ onAdd: (o, initial) => adds.push(`${o.metadata!.name}${initial ? ' (initial)' : ''}`) });
  informer.start();
  await informer.waitForSync();
  await until(() => informer.state.phase === 'backing-off', 'the first backoff');
  await flushAsyncWork();
  expect(server.watchCalls).toEqual(['10']); // waiting on the clock, not on real time
  expect(clock.timers()).toHaveLength(1);
  const firstDelay = clock.timers()[0]!;
  expect(firstDelay).toBeGreaterThanOrEqual(750);
  expect(firstDelay).toBeLessThanOrEqual(1250);
  await clock.stepTo(firstDelay);
  await until(() => server.watchCalls.length === 2 && clock.timers().length === 1, 'the second try and its backoff');
  await clock.stepTo(clock.timers()[0]!);
  await until(() => adds.length === 2, 'the add from the third watch');
  await informer.stop();

  expect(adds).toEqual(['a (initial)', 'b']);
  expect(server.watchCalls).toEqual(['10', '10', '10']);
  const delays = log.filter((l) => l.includes('error')).map((l) => Number(/then (\d+(\.\d+)?)ms/.exec(l)![1]));
  expect(delays).toHaveLength(2);
  expect(delays[1]).toBeGreaterThanOrEqual(1500); // doubled (±25 %)
  expect(log.filter((l) => !l.startsWith('event') || l === 'event Apply').map((l) => l.replace(/ \d+(\.\d+)?ms/g, ' Nms'))).toEqual([
    'ConfigMap listing',
    'ConfigMap watching 10 open=false',
    'ConfigMap synced',
    'ConfigMap error 503 then Nms',
    'ConfigMap backing-off Nms #1',
    'ConfigMap error 503 then Nms',
    'ConfigMap backing-off Nms #2',
    'ConfigMap watching 10 open=true',
    'event Apply',
    'ConfigMap watching 11 open=false',
    'ConfigMap stopped',
  ]);
});

test('health follows the observed watch: healthy while it is open, a lost watch only for the grace (on stallClock), never while stalled', async () => {
  const server = scriptedServer([{ items: [], resourceVersion: '10' }], [{}, unavailable()]);
  const clock = new ManualClock(0);
  const informer = new Informer<ConfigMap>({ kind: BuiltinKinds.ConfigMap, client: server.client, transport: server.transport, stallClock: clock, stallTimeoutMs: 60_000, clock, backoffInitialMs: 100_000 });
  expect(informer.healthy()).toBe(false);
  informer.start();
  await until(() => informer.state.phase === 'watching' && informer.state.open, 'the watch');
  expect(informer.healthy()).toBe(true);
  await clock.stepTo(60_000); // silent for the stall timeout: dropped, then the re-watch fails and backs off
  await until(() => informer.state.phase === 'backing-off', 'the backoff after the stall');
  expect(informer.healthy()).toBe(false); // stalled, even inside the grace
  await informer.stop();
  expect(informer.isIdle()).toBe(true);
});

test("the cache hands its observers to every informer it makes", async () => {
  const server = scriptedServer([{ items: [cm('a', '3')], resourceVersion: '10' }]);
  const synced: string[] = [];
  const cache = new Cache({ client: server.client, transport: server.transport, kinds: defaultKindRegistry, observers: [{ onSynced: (kind) => synced.push(kind) }] });
  cache.informerFor(BuiltinKinds.ConfigMap);
  cache.informerFor(BuiltinKinds.Secret);
  cache.start();
  await cache.waitForCacheSync();
  await cache.stop();
  expect(synced.sort()).toEqual(['ConfigMap', 'Secret']);
});
