/**
 * The informer's reaction to a watch that shows the server went back in time — a server restarted between two
 * watches, so the re-watch opened at once and only its first bookmark or event, older than the last
 * resourceVersion seen, gives it away. Driven by a scripted server (the cluster cases are in
 * server-timeline.cluster.test.ts and manager/server-restart.cluster.test.ts).
 */
import { PassThrough } from 'node:stream';
import type { ConfigMap } from 'kubernetes-types/core/v1.js';
import pino from 'pino';
import type { Client } from '../client/client.js';
import { BuiltinKinds } from '../client/kinds.js';
import type { Transport } from '../client/transport.js';
import { Informer } from './informer.js';

const cm = (name: string, rv: string): ConfigMap => ({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { namespace: 'ns', name, resourceVersion: rv } });

/** Lists and watches answered from scripts: each call takes the next entry (the last one repeats). */
function scriptedServer(lists: Array<{ items: ConfigMap[]; resourceVersion: string }>, watches: string[][]) {
  const listCalls: string[] = [];
  const watchCalls: string[] = [];
  const client = {
    async listPage(_kind: unknown, options: { resourceVersion?: string }) {
      listCalls.push(options.resourceVersion ?? '');
      return lists[Math.min(listCalls.length - 1, lists.length - 1)]!;
    },
  } as unknown as Client;
  const transport = {
    async stream(_path: string, query: { resourceVersion?: string }) {
      watchCalls.push(query.resourceVersion ?? '');
      const lines = watches[Math.min(watchCalls.length - 1, watches.length - 1)]!;
      const response = new PassThrough();
      setImmediate(() => lines.forEach((l) => response.write(`${l}\n`)));
      return { response, abort: () => response.destroy() };
    },
  } as unknown as Transport;
  return { client, transport, listCalls, watchCalls };
}

async function until(cond: () => boolean, what: string): Promise<void> {
  const deadline = Date.now() + 5000;
  while (!cond()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 2));
  }
}

test.each([
  ['a bookmark', JSON.stringify({ type: 'BOOKMARK', object: { kind: 'ConfigMap', apiVersion: 'v1', metadata: { resourceVersion: '7' } } })],
  ['an event', JSON.stringify({ type: 'ADDED', object: cm('c', '6') })],
])('%s older than the last resourceVersion: warned, relisted from the latest, vanished objects deleted', async (_what, oldLine) => {
  const server = scriptedServer(
    [
      { items: [cm('a', '90'), cm('b', '95')], resourceVersion: '100' },
      { items: [cm('c', '6')], resourceVersion: '8' },
    ],
    [[oldLine], []],
  );
  const warnings: string[] = [];
  const logger = pino({ level: 'warn' }, { write: (line: string) => void warnings.push(JSON.parse(line).msg) });
  const events: string[] = [];
  const informer = new Informer<ConfigMap>({ kind: BuiltinKinds.ConfigMap, client: server.client, transport: server.transport, logger, backoffInitialMs: 1, backoffMaxMs: 2 });
  informer.addHandler({ onAdd: (o) => events.push(`add ${o.metadata!.name}`), onDelete: (o) => events.push(`delete ${o.metadata!.name}`) });
  informer.start();
  await until(() => server.watchCalls.length >= 2, 'the re-watch after the relist');
  await informer.stop();

  expect(server.listCalls).toEqual(['0', '']); // the relist asks for the latest, not "not older than 100"
  expect(server.watchCalls).toEqual(['100', '8']);
  expect(events).toEqual(['add a', 'add b', 'delete a', 'delete b', 'add c']);
  expect([...informer.store.keys()]).toEqual(['ns/c']);
  expect(warnings).toHaveLength(1);
  expect(warnings[0]).toMatch(/^API server went back in time: .* \(resourceVersion [67] after 100\); relisting from the latest$/);
});
