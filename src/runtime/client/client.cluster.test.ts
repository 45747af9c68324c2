/** The client against the local cluster: CRUD, patch types, server-side apply, status, delete, conflicts, events. */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { ConfigMap, Event as CoreEvent } from 'kubernetes-types/core/v1.js';
import { startTestEnv, type TestEnv } from '../../testing/test-env.js';
import { EventRecorder } from '../helpers/recorder.js';
import { ignoreNotFound, isAlreadyExists, isConflict, isNotFound } from './api-error.js';
import { defineKind, BuiltinKinds } from './kinds.js';
import type { KubeObject } from './object.js';
import { retryOnConflict } from './retry.js';

interface Widget extends KubeObject {
  spec?: { size?: number; color?: string };
  status?: { observedSize?: number };
}
const WidgetKind = defineKind<Widget>({ group: 'example.com', version: 'v1', kind: 'Widget', plural: 'widgets', namespaced: true });
const here = path.dirname(fileURLToPath(import.meta.url));

let env: TestEnv;
beforeAll(async () => {
  env = await startTestEnv({ crdPaths: [path.join(here, 'testdata')], authz: 'alwaysAllow', now: '2024-01-15T10:00:00Z' });
});
afterAll(async () => env?.stop());

async function expectRejection(promise: Promise<unknown>, predicate: (err: unknown) => boolean): Promise<void> {
  const err = await promise.then(
    () => new Error('expected the request to fail'),
    (e: unknown) => e,
  );
  expect(predicate(err) ? 'matched' : String(err)).toBe('matched');
}

const widget = (name: string, spec: Widget['spec'] = { size: 1 }): Widget => ({ apiVersion: 'example.com/v1', kind: 'Widget', metadata: { namespace: 'default', name }, spec });

describe('Client against the local cluster', () => {
  test('create, get, list, update; 409 AlreadyExists and Conflict; 404 NotFound', async () => {
    const client = env.client;
    const created = await client.create(widget('w1'));
    expect(created.metadata?.uid).toBeTruthy();
    await expectRejection(client.create(widget('w1')), isAlreadyExists);
    const got = await client.get(WidgetKind, { namespace: 'default', name: 'w1' });
    expect(got).toMatchObject({ apiVersion: 'example.com/v1', kind: 'Widget', spec: { size: 1 } });
    got.spec = { size: 2 };
    const updated = await client.update(got);
    expect(updated.metadata?.generation).toBe(2);
    got.spec = { size: 3 };
    await expectRejection(client.update(got), isConflict);
    const listed = await client.list(WidgetKind, { namespace: 'default' });
    expect(listed.map((w) => [w.kind, w.metadata?.name])).toEqual([['Widget', 'w1']]);
    await expectRejection(client.get(WidgetKind, { namespace: 'default', name: 'nope' }), isNotFound);
    // ignoreNotFound: a missing object reads as undefined, any other failure still throws
    expect(await client.get(WidgetKind, { namespace: 'default', name: 'nope' }).catch(ignoreNotFound)).toBeUndefined();
    expect((await client.get(WidgetKind, { namespace: 'default', name: 'w1' }).catch(ignoreNotFound))?.metadata?.name).toBe('w1');
    await expectRejection(client.create(widget('w1')).catch(ignoreNotFound), isAlreadyExists);
  });

  test('merge, JSON and server-side apply patches; the status subresource is separate from spec', async () => {
    const client = env.client;
    const w = await client.create(widget('w2', { size: 1, color: 'red' }));
    const merged = await client.patch(w, { spec: { color: 'blue' } }, 'merge');
    expect(merged.spec).toEqual({ size: 1, color: 'blue' });
    const jsonPatched = await client.patch(w, [{ op: 'replace', path: '/spec/size', value: 5 }], 'json');
    expect(jsonPatched.spec?.size).toBe(5);
    const applied = await client.apply<Widget>({ apiVersion: 'example.com/v1', kind: 'Widget', metadata: { namespace: 'default', name: 'w2' }, spec: { color: 'green' } }, { fieldManager: 'tester', force: true });
    expect(applied.spec).toEqual({ size: 5, color: 'green' });

    const afterSpecUpdate = await client.update({ ...applied, status: { observedSize: 99 } });
    expect(afterSpecUpdate.status).toBeUndefined();
    const withStatus = await client.updateStatus({ ...afterSpecUpdate, status: { observedSize: 5 } });
    expect(withStatus.status).toEqual({ observedSize: 5 });
    const statusPatched = await client.patchStatus(withStatus, { status: { observedSize: 6 } });
    expect(statusPatched.status).toEqual({ observedSize: 6 });
    expect(statusPatched.metadata?.generation).toBe(afterSpecUpdate.metadata?.generation);
  });

  test('delete with a propagation policy; retryOnConflict re-runs read-modify-write', async () => {
    const client = env.client;
    await client.create(widget('w3'));
    let attempts = 0;
    await retryOnConflict(async () => {
      attempts++;
      const current = await client.get(WidgetKind, { namespace: 'default', name: 'w3' });
      if (attempts === 1) await client.patch(current, { spec: { color: 'raced' } });
      current.spec = { ...current.spec, size: 10 };
      return client.update(current);
    });
    expect(attempts).toBe(2);
    expect((await client.get(WidgetKind, { namespace: 'default', name: 'w3' })).spec).toEqual({ size: 10, color: 'raced' });
    await client.delete(widget('w3'), { propagationPolicy: 'Foreground' });
    await env.settle();
    await expectRejection(client.get(WidgetKind, { namespace: 'default', name: 'w3' }), isNotFound);
  });

  test('the event recorder writes core/v1 Events and aggregates repeats', async () => {
    const cm = await env.client.create<ConfigMap>({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { namespace: 'default', name: 'evented' } });
    const recorder = new EventRecorder(env.client, env.manager.clock, 'widget-controller');
    await recorder.event(cm, 'Normal', 'Synced', 'all good');
    await env.stepTo('2024-01-15T10:00:30Z');
    await recorder.event(cm, 'Normal', 'Synced', 'all good');
    await recorder.event(cm, 'Warning', 'Failed', 'something broke');
    const events = (await env.client.list<CoreEvent>(BuiltinKinds.Event, { namespace: 'default' })).filter((e) => e.involvedObject?.name === 'evented');
    const byReason = Object.fromEntries(events.map((e) => [e.reason, e]));
    expect(events).toHaveLength(2);
    expect(byReason.Synced).toMatchObject({ count: 2, type: 'Normal', source: { component: 'widget-controller' }, firstTimestamp: '2024-01-15T10:00:00Z', lastTimestamp: '2024-01-15T10:00:30Z' });
    expect(byReason.Failed).toMatchObject({ count: 1, type: 'Warning', message: 'something broke', involvedObject: { kind: 'ConfigMap', uid: cm.metadata?.uid } });
  });
});
