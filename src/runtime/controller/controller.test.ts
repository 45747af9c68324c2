/** The controller loop on a manual clock: results, errors, backoff, concurrency, logs, shutdown. */
import { Kubeconfig } from '../client/kubeconfig.js';
import pino from 'pino';
import { ManualClock, flushAsyncWork } from '../../testing/manual-clock.js';
import { Cache } from '../cache/cache.js';
import { Client } from '../client/client.js';
import { KindRegistry } from '../client/kinds.js';
import type { KubeObject, Request } from '../client/object.js';
import { Transport } from '../client/transport.js';
import { enqueueRequestForObject } from '../handler/handler.js';
import { EventChannel, channelSource } from '../source/channel.js';
import type { Dispatch, Source } from '../source/source.js';
import { tickerSource } from '../source/ticker.js';
import { Controller } from './controller.js';
import { TerminalError, type ReconcileFunc } from './reconcile.js';

/** A cache that is never started: these tests only use channel and ticker sources. */
function offlineCache(): Cache {
  const kc = new Kubeconfig([{ name: 'c', server: 'https://127.0.0.1:1' }], [{ name: 'u' }], [{ name: 'x', cluster: 'c', user: 'u' }], 'x');
  const transport = new Transport(kc);
  const kinds = new KindRegistry();
  return new Cache({ client: new Client(transport, kinds), transport, kinds });
}

const cm = (name: string): KubeObject => ({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { namespace: 'ns', name } });

async function started(reconcile: ReconcileFunc, maxConcurrentReconciles = 4) {
  const clock = new ManualClock(1_000_000);
  const channel = new EventChannel();
  const controller = new Controller('test', reconcile, { maxConcurrentReconciles });
  controller.watch(channelSource(channel), enqueueRequestForObject());
  await controller.start({ cache: offlineCache(), clock });
  return { clock, channel, controller };
}

describe('Controller', () => {
  test('reconciles each sent object once, keyed by namespace/name', async () => {
    const seen: Request[] = [];
    const { channel, controller } = await started(async (req) => void seen.push(req));
    channel.send(cm('a'));
    channel.send(cm('b'));
    await flushAsyncWork();
    expect(seen).toEqual([
      { namespace: 'ns', name: 'a' },
      { namespace: 'ns', name: 'b' },
    ]);
    await controller.stop();
  });

  test('requeueAfter reconciles again after that much clock time', async () => {
    const times: number[] = [];
    const { clock, channel, controller } = await started(async (_req, ctx) => {
      times.push(ctx.clock.now());
      return times.length < 3 ? { requeueAfter: 30_000 } : {};
    });
    channel.send(cm('a'));
    await flushAsyncWork();
    await clock.advance(29_999);
    expect(times).toHaveLength(1);
    await clock.advance(1);
    await clock.advance(30_000);
    expect(times).toEqual([1_000_000, 1_030_000, 1_060_000]);
    await clock.advance(120_000);
    expect(times).toHaveLength(3);
    await controller.stop();
  });

  test('a thrown error is retried with exponential backoff; success forgets the key', async () => {
    const times: number[] = [];
    const { clock, channel, controller } = await started(async (_req, ctx) => {
      times.push(ctx.clock.now() - 1_000_000);
      if (times.length <= 3) throw new Error('boom');
    });
    channel.send(cm('a'));
    await flushAsyncWork();
    await clock.advance(1000);
    expect(times).toEqual([0, 5, 15, 35]);
    expect(controller.workQueue()!.numRequeues('ns/a')).toBe(0);
    await controller.stop();
  });

  test('an exception of any type is contained and the controller keeps working', async () => {
    const seen: string[] = [];
    const { clock, channel, controller } = await started(async (req) => {
      seen.push(req.name);
      if (req.name === 'bad' && seen.filter((n) => n === 'bad').length === 1) {
        const _crash = (undefined as unknown as { x: number }).x; // a TypeError thrown by the runtime, not by the user
      }
    });
    channel.send(cm('bad'));
    channel.send(cm('good'));
    await flushAsyncWork();
    await clock.advance(10);
    expect(seen.sort()).toEqual(['bad', 'bad', 'good']);
    await controller.stop();
  });

  test('reconcile errors are logged with controller, namespace, name and reconcileID', async () => {
    const lines: Array<Record<string, unknown>> = [];
    const logger = pino({ level: 'info' }, { write: (line: string) => void lines.push(JSON.parse(line)) });
    const clock = new ManualClock(0);
    const channel = new EventChannel();
    const controller = new Controller('logged', async () => {
      throw new Error('nope');
    });
    controller.watch(channelSource(channel), enqueueRequestForObject());
    await controller.start({ cache: offlineCache(), clock, logger });
    channel.send(cm('a'));
    await flushAsyncWork();
    // controller-runtime's start-up lines first, then the error.
    expect(lines.slice(0, 2)).toMatchObject([
      { msg: 'Starting Controller', controller: 'logged' },
      { msg: 'Starting workers', controller: 'logged', 'worker count': expect.any(Number) },
    ]);
    expect(lines[2]).toMatchObject({ msg: 'Reconciler error', controller: 'logged', namespace: 'ns', name: 'a' });
    expect(lines[2]!.reconcileID).toMatch(/^[0-9a-f-]{36}$/);
    expect(String(lines[2]!.err)).toContain('nope');
    await controller.stop();
  });

  test('a reconcile has one reconcileID, the same in its context and its log lines, and each reconcile its own', async () => {
    const lines: Array<Record<string, unknown>> = [];
    const logger = pino({ level: 'info' }, { write: (line: string) => void lines.push(JSON.parse(line)) });
    const ids: string[] = [];
    const controller = new Controller('ids', async (_req, ctx) => {
      ids.push(ctx.reconcileID, ctx.reconcileID);
      ctx.log.info('reconciling');
    });
    const channel = new EventChannel();
    controller.watch(channelSource(channel), enqueueRequestForObject());
    await controller.start({ cache: offlineCache(), clock: new ManualClock(0), logger });
    channel.send(cm('a'));
    channel.send(cm('b'));
    await flushAsyncWork();
    expect(ids[0]).toBe(ids[1]);
    expect(ids[2]).toBe(ids[3]);
    expect(ids[0]).not.toBe(ids[2]);
    expect(lines.filter((l) => !['Starting Controller', 'Starting workers'].includes(l.msg as string)).map((l) => [l.name, l.reconcileID, l.controller])).toEqual([
      ['a', ids[0], 'ids'],
      ['b', ids[2], 'ids'],
    ]);
    await controller.stop();
  });

  test('a TerminalError is not retried', async () => {
    let calls = 0;
    const { clock, channel, controller } = await started(async () => {
      calls++;
      throw new TerminalError('spec is invalid');
    });
    channel.send(cm('a'));
    await flushAsyncWork();
    await clock.advance(60_000);
    expect(calls).toBe(1);
    await controller.stop();
  });

  test('different keys run in parallel, the same key never twice at once', async () => {
    let active = 0;
    let maxActive = 0;
    const activeKeys = new Set<string>();
    let overlaps = 0;
    const release: Array<() => void> = [];
    const { channel, controller } = await started(async (req) => {
      if (activeKeys.has(req.name)) overlaps++;
      activeKeys.add(req.name);
      maxActive = Math.max(maxActive, ++active);
      await new Promise<void>((r) => release.push(r));
      activeKeys.delete(req.name);
      active--;
    });
    for (const n of ['a', 'b', 'c', 'a', 'b', 'c']) channel.send(cm(n));
    await flushAsyncWork();
    expect(maxActive).toBe(3);
    channel.send(cm('a'));
    while (release.length) {
      release.shift()!();
      await flushAsyncWork();
    }
    expect(overlaps).toBe(0);
    // a, b, c each ran once, then once more for the events that arrived while they ran (the extra "a" merged).
    expect(controller.reconcileCount()).toBe(6);
    await controller.stop();
  });

  test('stop waits for in-flight reconciles and drops queued keys', async () => {
    let finished = 0;
    let release!: () => void;
    const { channel, controller } = await started(async () => {
      await new Promise<void>((r) => (release = r));
      finished++;
    }, 1);
    channel.send(cm('a'));
    channel.send(cm('b'));
    await flushAsyncWork();
    const stopping = controller.stop();
    await flushAsyncWork();
    release();
    await stopping;
    expect(finished).toBe(1);
  });

  test('a ticker source reconciles its objects every interval of clock time', async () => {
    const clock = new ManualClock(0);
    const seen: Array<[number, string]> = [];
    const controller = new Controller('ticker', async (req, ctx) => void seen.push([ctx.clock.now(), req.name]));
    controller.watch(tickerSource({ intervalMs: 60_000, objects: () => [cm('x'), cm('y')] }), enqueueRequestForObject());
    await controller.start({ cache: offlineCache(), clock });
    await clock.advance(150_000);
    expect(seen).toEqual([
      [60_000, 'x'],
      [60_000, 'y'],
      [120_000, 'x'],
      [120_000, 'y'],
    ]);
    await controller.stop();
    await clock.advance(60_000);
    expect(seen).toHaveLength(4);
  });

  describe('reconciliationTimeoutMs', () => {
    test('four hung reconciles are abandoned after the timeout: their signals abort, workers take other keys, the keys retry with backoff', async () => {
      const clock = new ManualClock(0);
      const lines: Array<Record<string, unknown>> = [];
      const logger = pino({ level: 'info' }, { write: (line: string) => void lines.push(JSON.parse(line)) });
      const timeouts: string[] = [];
      const signals: AbortSignal[] = [];
      const seen: Array<[number, string]> = [];
      const controller = new Controller('hung', async (req, ctx) => {
        seen.push([ctx.clock.now(), req.name]);
        if (req.name.startsWith('hang') && seen.filter(([, n]) => n === req.name).length === 1) {
          signals.push(ctx.signal!);
          await new Promise<never>(() => {}); // never returns, ignores its signal
        }
      }, { maxConcurrentReconciles: 4, reconciliationTimeoutMs: 10_000 });
      const channel = new EventChannel();
      controller.watch(channelSource(channel), enqueueRequestForObject());
      await controller.start({ cache: offlineCache(), clock, logger, metrics: { reconcileTimeout: (name) => void timeouts.push(name) } });
      for (const name of ['hang-1', 'hang-2', 'hang-3', 'hang-4', 'waiting']) channel.send(cm(name));
      await flushAsyncWork();
      expect(seen.map(([, n]) => n)).toEqual(['hang-1', 'hang-2', 'hang-3', 'hang-4']);
      expect(signals.map((s) => s.aborted)).toEqual([false, false, false, false]);
      await clock.advance(9_999);
      expect(seen).toHaveLength(4);
      await clock.advance(1);
      expect(signals.map((s) => s.aborted)).toEqual([true, true, true, true]);
      expect(String(signals[0]!.reason)).toContain('reconciliation timed out after 10s');
      expect(timeouts).toEqual(['hung', 'hung', 'hung', 'hung']);
      const logged = lines.filter((l) => l.msg === 'Reconcile timed out: abandoned, will retry');
      expect(logged.map((l) => l.name).sort()).toEqual(['hang-1', 'hang-2', 'hang-3', 'hang-4']);
      expect(logged[0]).toMatchObject({ controller: 'hung', namespace: 'ns', timeoutMs: 10_000 });
      expect(seen).toContainEqual([10_000, 'waiting']);
      await clock.advance(5); // the first retry's backoff
      expect(seen.filter(([t, n]) => n.startsWith('hang') && t === 10_005)).toHaveLength(4);
      expect(controller.isIdle()).toBe(true);
      await controller.stop();
    });

    test('a reconcile that ends in time keeps its result and its signal is never aborted', async () => {
      const clock = new ManualClock(0);
      let signal: AbortSignal | undefined;
      const seen: number[] = [];
      const controller = new Controller('quick', async (_req, ctx) => {
        signal = ctx.signal!;
        seen.push(ctx.clock.now());
        return seen.length === 1 ? { requeueAfter: 60_000 } : {};
      }, { reconciliationTimeoutMs: 1_000 });
      const channel = new EventChannel();
      controller.watch(channelSource(channel), enqueueRequestForObject());
      await controller.start({ cache: offlineCache(), clock });
      channel.send(cm('a'));
      await flushAsyncWork();
      await clock.advance(60_000);
      expect(seen).toEqual([0, 60_000]);
      expect(signal!.aborted).toBe(false);
      await controller.stop();
    });
  });

  describe('priorities', () => {
    const withVersion = (name: string, resourceVersion: string): KubeObject => ({ ...cm(name), metadata: { ...cm(name).metadata, resourceVersion } });
    /** A source whose events all arrive before the workers start (as an informer's initial list does). */
    function scripted(emit: (dispatch: Dispatch) => void): Source {
      return { start: (dispatch) => emit(dispatch), waitForSync: () => Promise.resolve() };
    }

    test("the initial list's objects and unchanged updates wait behind real changes", async () => {
      const seen: string[] = [];
      const controller = new Controller('prio', async (req) => void seen.push(req.name), { maxConcurrentReconciles: 1 });
      controller.watch(
        scripted((d) => {
          for (const name of ['a', 'b', 'c']) d.create({ object: cm(name), isInitialList: true });
          d.update({ objectOld: withVersion('e', '7'), objectNew: withVersion('e', '7') });
          d.create({ object: cm('new') });
          d.update({ objectOld: withVersion('changed', '1'), objectNew: withVersion('changed', '2') });
        }),
        enqueueRequestForObject(),
      );
      await controller.start({ cache: offlineCache(), clock: new ManualClock(0) });
      await flushAsyncWork();
      expect(seen).toEqual(['new', 'changed', 'a', 'b', 'c', 'e']);
      await controller.stop();
    });

    test('a retried request keeps the priority it was queued with; a result can set another', async () => {
      const clock = new ManualClock(0);
      const attempts: string[] = [];
      let release: () => void = () => {};
      const gate = new Promise<void>((resolve) => (release = resolve));
      const controller = new Controller('prio-retry', async (req) => {
        attempts.push(req.name);
        const times = attempts.filter((n) => n === req.name).length;
        if (req.name === 'failing' && times === 1) throw new Error('not yet');
        if (req.name === 'raised' && times === 1) return { requeueAfter: 1_000, priority: 50 };
        if (req.name === 'blocker') await gate;
      }, { maxConcurrentReconciles: 1 });
      controller.watch(
        scripted((d) => {
          d.create({ object: cm('failing'), isInitialList: true });
          d.create({ object: cm('raised'), isInitialList: true });
        }),
        enqueueRequestForObject(),
      );
      await controller.start({ cache: offlineCache(), clock });
      await flushAsyncWork();
      const queue = controller.workQueue()!;
      queue.add('ns/blocker'); // holds the one worker while the others queue up
      await flushAsyncWork();
      await clock.advance(1_000); // the failure's backoff (5 ms, at its queued priority) and the requeueAfter (priority 50) fire
      queue.add('ns/normal'); // after the retry, yet ahead of it: the retry kept the initial list's low priority
      expect(queue.len()).toBe(3);
      release();
      await flushAsyncWork();
      expect(attempts).toEqual(['failing', 'raised', 'blocker', 'raised', 'normal', 'failing']);
      await controller.stop();
    });
  });
});
