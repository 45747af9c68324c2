/**
 * A 409 Conflict from a write in a reconcile, against the local cluster (a real conflict: another writer
 * updates the object between the reconciler's read and its update): the key is requeued with backoff and
 * each conflict is one info line without a stack trace, never "Reconciler error"; any other error keeps its
 * error line with the stack. Logs through newLogger, as a made project's manager builds it.
 */
import type { ConfigMap } from 'kubernetes-types/core/v1.js';
import { Writable } from 'node:stream';
import { startTestEnv, type TestEnv } from '../../testing/test-env.js';
import { isConflict } from '../client/api-error.js';
import { BuiltinKinds } from '../client/kinds.js';
import { newLogger } from '../logging/logger.js';

let env: TestEnv;
const lines: string[] = [];
const attempts: Record<string, number> = {};
const conflicts: unknown[] = [];

beforeAll(async () => {
  const destination = new Writable({
    write(chunk: Buffer, _encoding, done) {
      lines.push(...chunk.toString().split('\n').filter(Boolean));
      done();
    },
  });
  env = await startTestEnv({ authz: 'alwaysAllow', now: '2024-01-15T10:00:00Z', manager: { logger: newLogger({ destination }) } });
  const mgr = env.manager;
  mgr
    .controllerFor(BuiltinKinds.ConfigMap)
    .named('stale-writer')
    .complete(async (req) => {
      if (!req.name.startsWith('subject-')) return {};
      const n = (attempts[req.name] = (attempts[req.name] ?? 0) + 1);
      if (req.name === 'subject-broken' && n === 1) throw new Error('cannot compute');
      const read = await mgr.apiReader().get(BuiltinKinds.ConfigMap, req);
      if (n <= 2 && req.name === 'subject-raced') {
        // Another writer gets there first: the update below carries a resourceVersion the server has moved past.
        await mgr.apiReader().update<ConfigMap>({ ...read, data: { ...read.data, other: String(n) } });
      }
      try {
        await mgr.client.update<ConfigMap>({ ...read, data: { ...read.data, mine: 'done' } });
      } catch (err) {
        conflicts.push(isConflict(err));
        throw err;
      }
      return {};
    });
  await env.startManager();
});
afterAll(async () => env?.stop());

const parsed = (): Array<Record<string, unknown>> => lines.map((l) => JSON.parse(l) as Record<string, unknown>);

test('two real conflicts: requeued, two info lines without stack traces, then the update lands', async () => {
  await env.client.create<ConfigMap>({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { namespace: 'default', name: 'subject-raced' }, data: {} });
  await env.settle();
  // The env's rate limiter waits 1 s of virtual time between retries.
  await env.stepTo('2024-01-15T10:00:01.5Z');
  await env.stepTo('2024-01-15T10:00:03Z');
  expect(conflicts).toEqual([true, true]);
  // Then it succeeds (each write's watch event brings one more reconcile, which writes nothing new).
  expect(attempts['subject-raced']).toBeGreaterThanOrEqual(3);
  const stored = await env.manager.apiReader().get(BuiltinKinds.ConfigMap, { namespace: 'default', name: 'subject-raced' });
  expect(stored.data).toEqual({ other: '2', mine: 'done' });

  const about = parsed().filter((l) => l.name === 'subject-raced');
  const conflictLines = about.filter((l) => String(l.msg).startsWith('Reconcile conflict'));
  expect(conflictLines).toHaveLength(2);
  for (const line of conflictLines) {
    expect(line).toMatchObject({ level: 30, controller: 'stale-writer', namespace: 'default', msg: 'Reconcile conflict: the object changed since it was read; requeued' });
    expect(String(line.err)).toContain('the object has been modified; please apply your changes to the latest version and try again');
    expect(line).not.toHaveProperty('stacktrace');
  }
  expect(about.filter((l) => (l.level as number) >= 40)).toEqual([]);
  // One physical line per conflict: no stack trace spills onto following lines.
  expect(lines.filter((l) => l.includes('subject-raced') && l.includes('Reconcile conflict'))).toHaveLength(2);
});

test('an error that is not a conflict keeps its "Reconciler error" line at error with the stack trace', async () => {
  await env.client.create<ConfigMap>({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { namespace: 'default', name: 'subject-broken' }, data: {} });
  await env.settle();
  await env.stepTo('2024-01-15T10:00:05Z');
  expect(attempts['subject-broken']).toBeGreaterThanOrEqual(2);
  const errors = parsed().filter((l) => l.name === 'subject-broken' && (l.level as number) >= 40);
  expect(errors).toHaveLength(1);
  expect(errors[0]).toMatchObject({ level: 50, msg: 'Reconciler error', err: 'cannot compute' });
  expect(String(errors[0]!.stacktrace)).toMatch(/^Error: cannot compute\n\s+at .*conflict-log\.cluster\.test\.ts:\d+:\d+/);
});
