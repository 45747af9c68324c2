/**
 * Async map functions and predicates against the local cluster: a Secret watch maps each Secret to the
 * ConfigMaps that name it, listed through a field index by the context's client (served by the manager's
 * cache); an async predicate reads a switch ConfigMap the same way; a map function that throws for one
 * Secret is logged and the others still reconcile; settle() waits for the async work. The manager refuses a
 * second controller of the same name.
 */
import { Writable } from 'node:stream';
import pino from 'pino';
import type { ConfigMap, Secret } from 'kubernetes-types/core/v1.js';
import { startTestEnv, type TestEnv } from '../../testing/test-env.js';
import { isNotFound } from '../client/api-error.js';
import { BuiltinKinds } from '../client/kinds.js';
import type { Request } from '../client/object.js';
import { newPredicate } from '../predicate/predicate.js';
import { enqueueRequestsFromMapFunc } from './handler.js';

const SECRET_INDEX = '.data.secret';
let env: TestEnv;
const reconciled: string[] = [];
const logLines: Array<Record<string, unknown>> = [];
const mappedBy: string[] = [];

beforeAll(async () => {
  const sink = new Writable({ write: (chunk: Buffer, _enc, done) => (logLines.push(JSON.parse(chunk.toString()) as Record<string, unknown>), done()) });
  env = await startTestEnv({ now: '2024-01-15T10:00:00Z', authz: 'alwaysAllow', manager: { logger: pino({ level: 'info' }, sink) } });
  env.manager.indexField(BuiltinKinds.ConfigMap, SECRET_INDEX, (cm) => cm.data?.secret);
  env.manager
    .controllerFor(BuiltinKinds.ConfigMap)
    .withPredicates(newPredicate(() => false))
    .watches(
      BuiltinKinds.Secret,
      enqueueRequestsFromMapFunc(async (secret: Secret, { client, log }) => {
        if (secret.metadata?.name === 'boom') throw new Error('cannot map boom');
        const users = await client.list(BuiltinKinds.ConfigMap, { namespace: secret.metadata?.namespace, matchingFields: { [SECRET_INDEX]: secret.metadata!.name! } });
        log.info({ secret: secret.metadata?.name, users: users.length }, 'mapped a Secret');
        mappedBy.push(secret.metadata!.name!);
        return users.map((cm): Request => ({ namespace: cm.metadata!.namespace!, name: cm.metadata!.name! }));
      }),
      newPredicate(async (secret: Secret, context) => {
        const enabled = await context!.client.get(BuiltinKinds.ConfigMap, { namespace: secret.metadata!.namespace, name: 'switch' }).catch((err: unknown) => (isNotFound(err) ? undefined : Promise.reject(err)));
        return enabled?.data?.on === 'yes';
      }),
    )
    .complete(async (req: Request) => void reconciled.push(req.name));
  await env.client.create({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'apps' } });
  await env.startManager();
});

afterAll(async () => {
  await env?.stop();
});

const configMap = (name: string, data: Record<string, string>): ConfigMap => ({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { namespace: 'apps', name }, data });
const secret = (name: string): Secret => ({ apiVersion: 'v1', kind: 'Secret', metadata: { namespace: 'apps', name }, stringData: { k: 'v' } });

test('an async map function lists through the index with the context client; a throwing one is logged and drops only its Secret', async () => {
  await env.client.create(configMap('switch', { on: 'yes' }));
  await env.client.create(configMap('web', { secret: 'db-password' }));
  await env.client.create(configMap('worker', { secret: 'db-password' }));
  await env.client.create(configMap('cache', { secret: 'redis' }));
  await env.settle();
  reconciled.length = 0;
  await env.client.create(secret('db-password'));
  await env.client.create(secret('boom'));
  await env.client.create(secret('redis'));
  await env.settle();
  expect(reconciled.sort()).toEqual(['cache', 'web', 'worker']);
  expect(mappedBy).toEqual(['db-password', 'redis']);
  const failed = logLines.filter((l) => l.msg === 'map function failed: no requests for this event');
  expect(failed.map((l) => [l.controller, l.err, (l.object as { name: string }).name])).toEqual([['configmap', 'cannot map boom', 'boom']]);
  expect(logLines.filter((l) => l.msg === 'mapped a Secret').map((l) => [l.controller, l.secret, l.users])).toEqual([
    ['configmap', 'db-password', 2],
    ['configmap', 'redis', 1],
  ]);
});

test('an async predicate reading through the client holds events back while the switch is off', async () => {
  await env.client.update({ ...(await env.client.get(BuiltinKinds.ConfigMap, { namespace: 'apps', name: 'switch' })), data: { on: 'no' } });
  await env.settle();
  reconciled.length = 0;
  await env.client.create(configMap('api', { secret: 'api-token' }));
  await env.client.create(secret('api-token'));
  await env.settle();
  expect(reconciled).toEqual([]);
  await env.client.update({ ...(await env.client.get(BuiltinKinds.ConfigMap, { namespace: 'apps', name: 'switch' })), data: { on: 'yes' } });
  await env.client.update({ ...(await env.client.get(BuiltinKinds.Secret, { namespace: 'apps', name: 'api-token' })), stringData: { k: 'rotated' } });
  await env.settle();
  expect(reconciled).toEqual(['api']);
});

test('a second controller named like the first is refused by the manager; nothing is registered', () => {
  const before = env.manager.controllerList().length;
  expect(() => env.manager.controllerFor(BuiltinKinds.Secret).named('configmap').complete(async () => {})).toThrow(
    'controller with name configmap already exists. Controller names must be unique to avoid multiple controllers reporting to the same metric',
  );
  expect(() => env.manager.controllerManagedBy().owns(BuiltinKinds.Secret).named('secrets').complete(async () => {})).toThrow('Owns() can only be used together with For()');
  expect(env.manager.controllerList()).toHaveLength(before);
});
