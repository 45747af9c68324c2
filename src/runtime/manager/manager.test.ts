/** Manager lifecycle without a server: runnables, graceful shutdown on SIGTERM. */
import { KubeConfig } from '@kubernetes/client-node';
import pino from 'pino';
import { ManualClock, flushAsyncWork } from '../../testing/manual-clock.js';
import type { KubeObject } from '../client/object.js';
import { Controller } from '../controller/controller.js';
import { BuiltinKinds } from '../client/kinds.js';
import { enqueueRequestForObject } from '../handler/handler.js';
import { EventChannel, channelSource } from '../source/channel.js';
import { Manager } from './manager.js';

function offlineManager(): Manager {
  const kubeConfig = new KubeConfig();
  kubeConfig.loadFromOptions({ clusters: [{ name: 'c', server: 'https://127.0.0.1:1' }], users: [{ name: 'u' }], contexts: [{ name: 'x', cluster: 'c', user: 'u' }], currentContext: 'x' });
  return new Manager({ kubeConfig, clock: new ManualClock(0), logger: pino({ level: 'silent' }) });
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
