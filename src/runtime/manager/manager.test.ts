/** Manager lifecycle without a server: runnables, graceful shutdown on SIGTERM. */
import { KubeConfig } from '@kubernetes/client-node';
import pino from 'pino';
import { ManualClock, flushAsyncWork } from '../../testing/manual-clock.js';
import type { KubeObject } from '../client/object.js';
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
  mgr
    .controllerFor(BuiltinKinds.ConfigMap)
    .withPredicates({ create: () => false, update: () => false, delete: () => false, generic: () => false })
    .watches(channelSource(channel), enqueueRequestForObject())
    .withOptions({ maxConcurrentReconciles: 1 })
    .complete(async (req) => {
      await new Promise<void>((r) => (release = r));
      done.push(req.name);
    });
  // The kind source of the primary ConfigMap would list from a server; this test feeds only the channel.
  const stopped = mgr.runUntilSignal();
  await flushAsyncWork();
  const [controller] = mgr.controllerList();
  channel.send(cm('in-flight'));
  channel.send(cm('queued'));
  await flushAsyncWork();
  process.emit('SIGTERM');
  await flushAsyncWork();
  release();
  await stopped;
  expect(done).toEqual(['in-flight']);
  expect(controller!.workQueue()!.isShuttingDown()).toBe(true);
});
