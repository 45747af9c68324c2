/** Manager lifecycle without a server: runnables, graceful shutdown on SIGTERM. */
import { Kubeconfig } from '../client/kubeconfig.js';
import pino from 'pino';
import { ManualClock, flushAsyncWork } from '../../testing/manual-clock.js';
import type { KubeObject } from '../client/object.js';
import { Controller } from '../controller/controller.js';
import { BuiltinKinds } from '../client/kinds.js';
import { enqueueRequestForObject } from '../handler/handler.js';
import { EventChannel, channelSource } from '../source/channel.js';
import { DEFAULT_GRACEFUL_SHUTDOWN_TIMEOUT_MS, Manager, type ManagerOptions } from './manager.js';

function offlineManager(options: Partial<ManagerOptions> = {}): Manager {
  const kubeConfig = new Kubeconfig([{ name: 'c', server: 'https://127.0.0.1:1' }], [{ name: 'u' }], [{ name: 'x', cluster: 'c', user: 'u' }], 'x');
  return new Manager({ kubeConfig, clock: new ManualClock(0), logger: pino({ level: 'silent' }), ...options });
}

const cm = (name: string): KubeObject => ({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { namespace: 'ns', name } });

test('runnables start with the manager and stop with it', async () => {
  const mgr = offlineManager();
  const log: string[] = [];
  mgr.add({ start: () => void log.push('leader start'), stop: () => void log.push('leader stop') });
  mgr.add({ needLeaderElection: false, start: () => void log.push('always start'), stop: () => void log.push('always stop') });
  await mgr.start();
  await mgr.stop();
  expect(log).toEqual(['always start', 'leader start', 'leader stop', 'always stop']);
});

test('SIGTERM stops taking work and lets the in-flight reconcile finish', async () => {
  const mgr = offlineManager();
  const channel = new EventChannel();
  const done: string[] = [];
  let release!: () => void;
  // A controller fed only by a channel: a kind source would list from a server this test does not have.
  const controller = new Controller('configmap', async (req) => {
    await new Promise<void>((r) => (release = r));
    done.push(req.name);
  }, { maxConcurrentReconciles: 1 });
  controller.watch(channelSource(channel), enqueueRequestForObject());
  mgr.addController(controller);
  const stopped = mgr.runUntilSignal();
  await flushAsyncWork();
  channel.send(cm('in-flight'));
  channel.send(cm('queued'));
  await flushAsyncWork();
  process.emit('SIGTERM');
  await flushAsyncWork();
  release();
  await stopped;
  expect(done).toEqual(['in-flight']);
  expect(controller.workQueue()!.isShuttingDown()).toBe(true);
});

test('start() fails with a clear message when a controller’s cache cannot sync in time', async () => {
  const mgr = offlineManager();
  mgr.controllerFor(BuiltinKinds.ConfigMap).withOptions({ cacheSyncTimeoutMs: 300 }).complete(async () => {});
  await expect(mgr.start()).rejects.toThrow('controller configmap: timed out after 300 ms waiting for caches to sync');
  await mgr.stop();
  mgr.close();
});

describe('gracefulShutdownTimeoutMs', () => {
  function hungController(): { controller: Controller; channel: EventChannel; signals: AbortSignal[] } {
    const channel = new EventChannel();
    const signals: AbortSignal[] = [];
    const controller = new Controller('hung', async (_req, ctx) => {
      signals.push(ctx.signal!);
      await new Promise<never>(() => {}); // never returns, ignores its signal
    });
    controller.watch(channelSource(channel), enqueueRequestForObject());
    return { controller, channel, signals };
  }

  /** Resolves with the promise's outcome, or 'still waiting' after `ms` real milliseconds (a bound, not a sleep). */
  async function within<T>(promise: Promise<T>, ms: number): Promise<T | 'still waiting'> {
    let bound: NodeJS.Timeout | undefined;
    try {
      return await Promise.race([promise, new Promise<'still waiting'>((resolve) => (bound = setTimeout(() => resolve('still waiting'), ms)))]);
    } finally {
      clearTimeout(bound); // the worker must not wait out the bound after the test
    }
  }

  test('defaults to 30 s, as controller-runtime', () => {
    expect(DEFAULT_GRACEFUL_SHUTDOWN_TIMEOUT_MS).toBe(30_000);
  });

  test('stop() ends within the grace period while four reconciles never return, and says so', async () => {
    const lines: Array<Record<string, unknown>> = [];
    const mgr = offlineManager({ gracefulShutdownTimeoutMs: 200, logger: pino({ level: 'info' }, { write: (line: string) => void lines.push(JSON.parse(line)) }) });
    const { controller, channel, signals } = hungController();
    mgr.addController(controller);
    await mgr.start();
    for (const name of ['a', 'b', 'c', 'd']) channel.send(cm(name));
    await flushAsyncWork();
    expect(signals).toHaveLength(4);
    const started = Date.now();
    const outcome = await within(mgr.stop().then(() => 'stopped', (err: Error) => err.message), 5_000);
    expect(outcome).toBe('failed waiting for all runnables to end within grace period of 0.2s: context deadline exceeded');
    expect(Date.now() - started).toBeGreaterThanOrEqual(190);
    expect(signals.every((s) => s.aborted)).toBe(true);
    expect(lines.some((l) => l.msg === 'failed waiting for all runnables to end within grace period of 0.2s: context deadline exceeded' && l.level === 50)).toBe(true);
    mgr.close();
  });

  test('SIGTERM ends runUntilSignal within the grace period, rejecting so the process exits non-zero', async () => {
    const mgr = offlineManager({ gracefulShutdownTimeoutMs: 100 });
    const { controller, channel, signals } = hungController();
    mgr.addController(controller);
    const running = mgr.runUntilSignal().then(() => 'exited cleanly', (err: Error) => err.message);
    await flushAsyncWork();
    channel.send(cm('stuck'));
    await flushAsyncWork();
    expect(signals).toHaveLength(1);
    process.emit('SIGTERM');
    expect(await within(running, 5_000)).toBe('failed waiting for all runnables to end within grace period of 0.1s: context deadline exceeded');
  });

  test('a clean stop within the grace period resolves', async () => {
    const mgr = offlineManager({ gracefulShutdownTimeoutMs: 5_000 });
    await mgr.start();
    await expect(mgr.stop()).resolves.toBeUndefined();
    mgr.close();
  });
});

describe('runnable start failures', () => {
  function loggingManager(): { mgr: Manager; lines: Array<Record<string, unknown>> } {
    const lines: Array<Record<string, unknown>> = [];
    const mgr = offlineManager({ gracefulShutdownTimeoutMs: 5_000, logger: pino({ level: 'info' }, { write: (line: string) => void lines.push(JSON.parse(line)) }) });
    return { mgr, lines };
  }

  test('a runnable that fails to start fails start(), logged at error with its name', async () => {
    const { mgr, lines } = loggingManager();
    mgr.add({ needLeaderElection: false, start: async () => { throw new Error('listen EADDRINUSE: address already in use :::9443'); } });
    await expect(mgr.start()).rejects.toThrow('listen EADDRINUSE: address already in use :::9443');
    expect(lines.filter((l) => l.level === 50).map((l) => [l.msg, l.err])).toEqual([['runnable failed to start', 'listen EADDRINUSE: address already in use :::9443']]);
    await mgr.stop();
    mgr.close();
  });

  test('a runnable added to a running manager that fails to start (even synchronously) is logged and ends runUntilSignal with its error', async () => {
    const { mgr, lines } = loggingManager();
    const running = mgr.runUntilSignal().then(() => 'exited cleanly', (err: Error) => err.message);
    await flushAsyncWork();
    mgr.add({ start: () => { throw new Error('webhook certificates missing'); } });
    expect(await running).toBe('webhook certificates missing');
    expect(lines.some((l) => l.level === 50 && l.msg === 'runnable failed to start' && l.err === 'webhook certificates missing')).toBe(true);
  });

  test('a controller added to a running manager whose caches cannot sync is logged and ends runUntilSignal', async () => {
    const { mgr, lines } = loggingManager();
    const running = mgr.runUntilSignal().then(() => 'exited cleanly', (err: Error) => err.message);
    await flushAsyncWork();
    mgr.controllerFor(BuiltinKinds.ConfigMap).withOptions({ cacheSyncTimeoutMs: 200 }).complete(async () => {});
    expect(await running).toContain('controller configmap: timed out after 200 ms waiting for caches to sync');
    expect(lines.some((l) => l.level === 50 && l.msg === 'runnable failed to start' && l.runnable === 'controller configmap')).toBe(true);
  });
});
