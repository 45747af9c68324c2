/**
 * The event recorder in both APIs against the local cluster on a virtual clock: core/v1 Events with count
 * and lastTimestamp, and events.k8s.io/v1 Events (controller-runtime's newer recorder) with
 * reportingController/Instance, action, MicroTime eventTime and a series that grows on repeats — each
 * read back through both APIs (one storage) and shown by real `kubectl events`.
 */
import type { ConfigMap, Event as CoreEvent } from 'kubernetes-types/core/v1.js';
import { startTestEnv, type TestEnv } from '../../testing/test-env.js';
import { BuiltinKinds } from '../client/kinds.js';
import type { KubeObject } from '../client/object.js';

let env: TestEnv;
let cm: ConfigMap;
beforeAll(async () => {
  env = await startTestEnv({ authz: 'alwaysAllow', now: '2024-01-15T10:00:00Z' });
  cm = await env.client.create<ConfigMap>({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { namespace: 'default', name: 'subject' } });
});
afterAll(async () => env?.stop());

interface SeriesEvent extends KubeObject {
  eventTime?: string;
  series?: { count: number; lastObservedTime: string };
  reportingController?: string;
  reportingInstance?: string;
  action?: string;
  reason?: string;
  note?: string;
  type?: string;
  regarding?: { kind?: string; name?: string; uid?: string };
}

const aboutSubject = <T extends KubeObject>(events: T[], field: 'regarding' | 'involvedObject') =>
  events.filter((e) => (e as unknown as Record<string, { name?: string } | undefined>)[field]?.name === 'subject');

test('events.k8s.io/v1: one Event per (object, action, reason); repeats grow its series', async () => {
  const recorder = env.manager.eventRecorderFor('widget-controller', { api: 'events.k8s.io/v1', reportingInstance: 'widget-controller-pod-1' });
  await recorder.event(cm, 'Normal', 'Synced', 'all good', 'Reconcile');
  let [only] = aboutSubject(await env.client.list<SeriesEvent>(BuiltinKinds.EventsV1Event, { namespace: 'default' }), 'regarding');
  expect(only).toMatchObject({ eventTime: '2024-01-15T10:00:00.000000Z', reportingController: 'widget-controller', reportingInstance: 'widget-controller-pod-1', action: 'Reconcile', reason: 'Synced', note: 'all good', type: 'Normal', regarding: { kind: 'ConfigMap', uid: cm.metadata!.uid } });
  expect(only!.series).toBeUndefined();

  await env.stepTo('2024-01-15T10:00:30Z');
  await recorder.event(cm, 'Normal', 'Synced', 'all good', 'Reconcile');
  await env.stepTo('2024-01-15T10:01:00Z');
  await recorder.event(cm, 'Normal', 'Synced', 'still good', 'Reconcile');
  await recorder.event(cm, 'Warning', 'Failed', 'something broke', 'Reconcile');

  const events = aboutSubject(await env.client.list<SeriesEvent>(BuiltinKinds.EventsV1Event, { namespace: 'default' }), 'regarding');
  const byReason = Object.fromEntries(events.map((e) => [e.reason, e]));
  expect(events).toHaveLength(2);
  // client-go keeps the first note: the note is not part of what makes two events "the same".
  expect(byReason.Synced).toMatchObject({ note: 'all good', eventTime: '2024-01-15T10:00:00.000000Z', series: { count: 3, lastObservedTime: '2024-01-15T10:01:00.000000Z' } });
  expect(byReason.Failed).toMatchObject({ type: 'Warning', note: 'something broke' });
  expect(byReason.Failed!.series).toBeUndefined();
  only = byReason.Synced;

  // The same Event read through core/v1 (one storage): reportingComponent and the series, no count.
  const core = await env.client.get<CoreEvent>(BuiltinKinds.Event, { namespace: 'default', name: only!.metadata!.name! });
  expect(core).toMatchObject({ reportingComponent: 'widget-controller', action: 'Reconcile', series: { count: 3 }, involvedObject: { name: 'subject' } });
  expect(core.count).toBeUndefined();
});

test('the action defaults to the reason (events.k8s.io/v1 requires one)', async () => {
  const other = await env.client.create<ConfigMap>({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { namespace: 'default', name: 'quiet' } });
  await env.manager.eventRecorderFor('widget-controller', { api: 'events.k8s.io/v1' }).event(other, 'Normal', 'Noticed', 'hello');
  const [event] = (await env.client.list<SeriesEvent>(BuiltinKinds.EventsV1Event, { namespace: 'default' })).filter((e) => e.regarding?.name === 'quiet');
  expect(event).toMatchObject({ action: 'Noticed', reason: 'Noticed' });
  expect(event!.reportingInstance).toMatch(/^widget-controller-.+/);
});

test('core/v1 (the default): count and lastTimestamp grow, no series', async () => {
  const recorder = env.manager.eventRecorderFor('core-controller');
  await recorder.event(cm, 'Normal', 'Copied', 'copied', 'ignored-by-core');
  await env.stepTo('2024-01-15T10:02:00Z');
  await recorder.event(cm, 'Normal', 'Copied', 'copied');
  const [event] = aboutSubject(await env.client.list<CoreEvent>(BuiltinKinds.Event, { namespace: 'default' }), 'involvedObject').filter((e) => e.reason === 'Copied');
  expect(event).toMatchObject({ count: 2, source: { component: 'core-controller' }, firstTimestamp: '2024-01-15T10:01:00Z', lastTimestamp: '2024-01-15T10:02:00Z' });
  expect(event!.series).toBeUndefined();
  expect(event!.action).toBeUndefined();
});

test('kubectl events shows both kinds of Event', async () => {
  const out = await env.kubectl(['events', '-n', 'default', '--for', 'configmap/subject']);
  expect(out.stderr).toBe('');
  expect(out.stdout).toContain('Synced');
  expect(out.stdout).toContain('Copied');
  expect(out.stdout).toMatch(/Warning\s+Failed/);
});

test('two recorders writing about one object in the same virtual instant make two Events (names never collide)', async () => {
  const shared = await env.client.create<ConfigMap>({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { namespace: 'default', name: 'shared' } });
  for (const api of ['core/v1', 'events.k8s.io/v1'] as const) {
    const first = env.manager.eventRecorderFor('first-controller', { api });
    const second = env.manager.eventRecorderFor('second-controller', { api });
    await Promise.all([first.event(shared, 'Normal', `One-${api}`, 'from the first'), second.event(shared, 'Normal', `Two-${api}`, 'from the second')]);
  }
  const events = (await env.client.list<CoreEvent>(BuiltinKinds.Event, { namespace: 'default' })).filter((e) => e.involvedObject?.name === 'shared' || (e as SeriesEvent).regarding?.name === 'shared');
  expect(events.map((e) => e.reason).sort()).toEqual(['One-core/v1', 'One-events.k8s.io/v1', 'Two-core/v1', 'Two-events.k8s.io/v1']);
  expect(new Set(events.map((e) => e.metadata!.name)).size).toBe(4);
});
