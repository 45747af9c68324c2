/** The controller loop on a manual clock: results, errors, backoff, concurrency, logs, shutdown. */
import { KubeConfig } from '@kubernetes/client-node';
import pino from 'pino';
import { ManualClock, flushAsyncWork } from '../../testing/manual-clock.js';
import { Cache } from '../cache/cache.js';
import { Client } from '../client/client.js';
import { KindRegistry } from '../client/kinds.js';
import type { KubeObject, Request } from '../client/object.js';
import { Transport } from '../client/transport.js';
import { enqueueRequestForObject } from '../handler/handler.js';
import { EventChannel, channelSource } from '../source/channel.js';
import { tickerSource } from '../source/ticker.js';
import { Controller } from './controller.js';
import { TerminalError, type ReconcileFunc } from './reconcile.js';

/** A cache that is never started: these tests only use channel and ticker sources. */
function offlineCache(): Cache {
  const kc = new KubeConfig();
  kc.loadFromOptions({ clusters: [{ name: 'c', server: 'https://127.0.0.1:1' }], users: [{ name: 'u' }], contexts: [{ name: 'x', cluster: 'c', user: 'u' }], currentContext: 'x' });
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
      if (req.name === 'bad' && seen.filter((n) => n === 'bad').length === 1) (undefined as unknown as { x: number }).x;
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
    expect(lines[0]).toMatchObject({ msg: 'Reconciler error', controller: 'logged', namespace: 'ns', name: 'a' });
    expect(lines[0]!.reconcileID).toMatch(/^[0-9a-f-]{36}$/);
    expect(String(lines[0]!.err)).toContain('nope');
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
    expect(lines.map((l) => [l.name, l.reconcileID, l.controller])).toEqual([
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
});
