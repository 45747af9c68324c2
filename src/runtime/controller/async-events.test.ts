/**
 * A controller with an async map function: the event counts as work (isIdle false, so settle() waits) until
 * the map resolves, its requests are then reconciled, and the map gets the controller's client and a logger
 * bound to the controller's name.
 */
import { Kubeconfig } from '../client/kubeconfig.js';
import { Writable } from 'node:stream';
import pino from 'pino';
import { ManualClock, flushAsyncWork } from '../../testing/manual-clock.js';
import { Cache } from '../cache/cache.js';
import { Client } from '../client/client.js';
import { KindRegistry } from '../client/kinds.js';
import type { KubeObject, Request } from '../client/object.js';
import { Transport } from '../client/transport.js';
import type { ObjectReader } from '../handler/event-context.js';
import { enqueueRequestsFromMapFunc } from '../handler/handler.js';
import { EventChannel, channelSource } from '../source/channel.js';
import { Controller } from './controller.js';

function offlineCache(): Cache {
  const kc = new Kubeconfig([{ name: 'c', server: 'https://127.0.0.1:1' }], [{ name: 'u' }], [{ name: 'x', cluster: 'c', user: 'u' }], 'x');
  const transport = new Transport(kc);
  const kinds = new KindRegistry();
  return new Cache({ client: new Client(transport, kinds), transport, kinds });
}

test('an event waiting in an async map function keeps the controller busy; its requests reconcile when it resolves', async () => {
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  const client: ObjectReader = { get: async () => Promise.reject(new Error('unused')), list: async <T extends KubeObject>() => [{ metadata: { namespace: 'ns', name: 'from-client' } }] as T[] };
  const lines: Array<Record<string, unknown>> = [];
  const logger = pino({ level: 'info' }, new Writable({ write: (chunk: Buffer, _e, done) => (lines.push(JSON.parse(chunk.toString()) as Record<string, unknown>), done()) }));
  const seen: Request[] = [];
  const channel = new EventChannel();
  const controller = new Controller('mapper', async (req) => void seen.push(req));
  controller.watch(
    channelSource(channel),
    enqueueRequestsFromMapFunc(async (_obj, context) => {
      await released;
      context.log.info('mapped');
      return (await context.client.list({ apiVersion: 'v1', kind: 'ConfigMap' })).map((o) => ({ namespace: o.metadata!.namespace!, name: o.metadata!.name! }));
    }),
  );
  await controller.start({ cache: offlineCache(), clock: new ManualClock(0), logger, client });
  channel.send({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { namespace: 'ns', name: 'trigger' } });
  await flushAsyncWork();
  expect(controller.isIdle()).toBe(false);
  expect(seen).toEqual([]);
  release();
  await flushAsyncWork();
  expect(seen).toEqual([{ namespace: 'ns', name: 'from-client' }]);
  expect(controller.isIdle()).toBe(true);
  expect(lines.filter((l) => l.msg === 'mapped').map((l) => l.controller)).toEqual(['mapper']);
  await controller.stop();
});
