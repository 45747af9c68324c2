/**
 * Dispatch with async map functions and predicates: each gets the event's context, events reach the queue in
 * the order they came (a slow map of an earlier event holds the later ones), a map function or predicate
 * that throws is logged and drops only its own event, and pending() counts the events still in flight.
 */
import pino from 'pino';
import { Writable } from 'node:stream';
import type { KubeObject, Request } from '../client/object.js';
import type { EventContext, ObjectReader } from '../handler/event-context.js';
import type { RequestQueue } from '../handler/events.js';
import { enqueueRequestsFromMapFunc } from '../handler/handler.js';
import { and, newPredicate, predicateFuncs } from '../predicate/predicate.js';
import { Dispatch } from './source.js';

const cm = (name: string, namespace = 'ns'): KubeObject => ({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { namespace, name } });

function recordingQueue(): RequestQueue & { added: string[] } {
  const added: string[] = [];
  return { added, add: (r) => void added.push(`${r.namespace}/${r.name}`), addAfter: (r) => void added.push(`${r.namespace}/${r.name}`) };
}

/** A context whose client answers from a fixed list and whose logger records its lines. */
function testContext(): EventContext & { lines: Array<Record<string, unknown>> } {
  const lines: Array<Record<string, unknown>> = [];
  const sink = new Writable({ write: (chunk: Buffer, _enc, done) => (lines.push(JSON.parse(chunk.toString()) as Record<string, unknown>), done()) });
  const client: ObjectReader = {
    get: async <T extends KubeObject>() => cm('got') as T,
    list: async <T extends KubeObject>() => [cm('listed-1'), cm('listed-2')] as T[],
  };
  return { client, log: pino({ level: 'info' }, sink), lines };
}

/** A promise with its resolve handle, to release a map function when the test says so. */
function gate(): { promise: Promise<void>; open: () => void } {
  let open!: () => void;
  const promise = new Promise<void>((resolve) => (open = resolve));
  return { promise, open };
}

const settle = () => new Promise<void>((resolve) => setImmediate(resolve));

describe('Dispatch with async map functions and predicates', () => {
  test('an async map function reads through the context client; its requests are enqueued when it resolves', async () => {
    const q = recordingQueue();
    const ctx = testContext();
    const handler = enqueueRequestsFromMapFunc<KubeObject>(async (obj, { client, log }) => {
      log.info({ for: obj.metadata?.name }, 'mapping');
      const listed = await client.list({ apiVersion: 'v1', kind: 'ConfigMap' }, { namespace: 'ns' });
      return listed.map((o): Request => ({ namespace: o.metadata!.namespace!, name: o.metadata!.name! }));
    });
    const dispatch = new Dispatch(handler, [], q, ctx);
    dispatch.create({ object: cm('trigger') });
    expect(dispatch.pending()).toBe(1);
    await settle();
    expect(q.added).toEqual(['ns/listed-1', 'ns/listed-2']);
    expect(dispatch.pending()).toBe(0);
    expect(ctx.lines.filter((l) => l.msg === 'mapping').map((l) => l.for)).toEqual(['trigger']);
  });

  test('a sync map function still enqueues at once (nothing pending)', () => {
    const q = recordingQueue();
    const dispatch = new Dispatch(enqueueRequestsFromMapFunc<KubeObject>((obj) => [{ namespace: 'ns', name: `${obj.metadata!.name}-owner` }]), [], q, testContext());
    dispatch.create({ object: cm('a') });
    expect(q.added).toEqual(['ns/a-owner']);
    expect(dispatch.pending()).toBe(0);
  });

  test('events keep their order: a slow map of the first event holds the sync ones after it', async () => {
    const q = recordingQueue();
    const slow = gate();
    const calls: string[] = [];
    const handler = enqueueRequestsFromMapFunc<KubeObject>((obj) => {
      const name = obj.metadata!.name!;
      calls.push(name);
      if (name === 'first') return slow.promise.then(() => [{ namespace: 'ns', name }]);
      return [{ namespace: 'ns', name }];
    });
    const dispatch = new Dispatch(handler, [], q, testContext());
    dispatch.create({ object: cm('first') });
    dispatch.create({ object: cm('second') });
    dispatch.delete({ object: cm('third') });
    await settle();
    expect(q.added).toEqual([]);
    expect(calls).toEqual(['first']);
    expect(dispatch.pending()).toBe(3);
    slow.open();
    await settle();
    expect(q.added).toEqual(['ns/first', 'ns/second', 'ns/third']);
    expect(calls).toEqual(['first', 'second', 'third']);
    expect(dispatch.pending()).toBe(0);
  });

  test('a map function that throws or rejects is logged; the events around it are enqueued', async () => {
    const q = recordingQueue();
    const ctx = testContext();
    const handler = enqueueRequestsFromMapFunc<KubeObject>(async (obj) => {
      if (obj.metadata!.name === 'bad-async') throw new Error('index unavailable');
      return [{ namespace: 'ns', name: obj.metadata!.name! }];
    });
    const throwsSync = enqueueRequestsFromMapFunc<KubeObject>((obj) => {
      if (obj.metadata!.name === 'bad-sync') throw new Error('no owner label');
      return [{ namespace: 'ns', name: obj.metadata!.name! }];
    });
    const dispatch = new Dispatch(handler, [], q, ctx);
    for (const name of ['a', 'bad-async', 'b']) dispatch.create({ object: cm(name) });
    const syncDispatch = new Dispatch(throwsSync, [], q, ctx);
    for (const name of ['c', 'bad-sync', 'd']) syncDispatch.generic({ object: cm(name) });
    await settle();
    expect(q.added).toEqual(['ns/c', 'ns/d', 'ns/a', 'ns/b']);
    const failures = ctx.lines.filter((l) => l.msg === 'map function failed: no requests for this event');
    expect(failures.map((l) => [l.err, (l.object as { name: string }).name])).toEqual([
      ['no owner label', 'bad-sync'],
      ['index unavailable', 'bad-async'],
    ]);
    expect(dispatch.pending() + syncDispatch.pending()).toBe(0);
  });

  test('an update maps both versions and enqueues each request once', async () => {
    const q = recordingQueue();
    const dispatch = new Dispatch(enqueueRequestsFromMapFunc<KubeObject>(async (obj) => [{ namespace: 'ns', name: 'same' }, { namespace: 'ns', name: obj.metadata!.name! }]), [], q, testContext());
    dispatch.update({ objectOld: cm('old'), objectNew: cm('new') });
    await settle();
    expect(q.added).toEqual(['ns/same', 'ns/old', 'ns/new']);
  });

  test('async predicates get the context, filter in order, and a throwing one drops only its event', async () => {
    const q = recordingQueue();
    const ctx = testContext();
    const asked: string[] = [];
    const allowedByServer = newPredicate<KubeObject>(async (obj, context) => {
      asked.push(obj.metadata!.name!);
      const found = await context!.client.get({ apiVersion: 'v1', kind: 'ConfigMap' }, { namespace: 'ns', name: 'x' });
      if (obj.metadata!.name === 'explode') throw new Error('predicate broke');
      return found.metadata?.name === 'got' && !obj.metadata!.name!.startsWith('skip');
    });
    const notInKubeSystem = predicateFuncs<KubeObject>({ create: (e) => e.object.metadata?.namespace !== 'kube-system' });
    const dispatch = new Dispatch(enqueueRequestsFromMapFunc<KubeObject>((o) => [{ namespace: o.metadata!.namespace!, name: o.metadata!.name! }]), [and(notInKubeSystem, allowedByServer)], q, ctx);
    dispatch.create({ object: cm('one') });
    dispatch.create({ object: cm('skip-me') });
    dispatch.create({ object: cm('system', 'kube-system') });
    dispatch.create({ object: cm('explode') });
    dispatch.create({ object: cm('two') });
    await settle();
    expect(q.added).toEqual(['ns/one', 'ns/two']);
    expect(asked).toEqual(['one', 'skip-me', 'explode', 'two']);
    expect(ctx.lines.filter((l) => l.msg === 'predicate failed: event dropped').map((l) => l.err)).toEqual(['predicate broke']);
    expect(dispatch.pending()).toBe(0);
  });

  test('a handler called outside a controller gets a detached context whose client says so', async () => {
    const q = recordingQueue();
    let error = '';
    const handler = enqueueRequestsFromMapFunc<KubeObject>(async (_obj, { client }) => {
      await client.list({ apiVersion: 'v1', kind: 'ConfigMap' }).catch((err: Error) => (error = err.message));
      return [{ namespace: '', name: 'mapped' }];
    });
    await handler.create({ object: cm('a') }, q);
    expect(error).toBe('this handler was called outside a controller: its context has no client');
    expect(q.added).toEqual(['/mapped']);
  });
});
