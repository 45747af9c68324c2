import { describe, expect, it } from '@jest/globals';
import { VirtualClock } from '../clock/virtual-clock.js';
import { ObjectStore, type StoreEvent } from '../store/object-store.js';
import { type BuiltinController, ControllerScheduler, type ReconcileResult } from './controller-scheduler.js';

const start = Date.parse('2024-01-15T10:00:00Z');
const nextMacrotask = (): Promise<void> => new Promise((r) => setImmediate(r));

/** A controller that records what it reconciled and answers with scripted results. */
class Recorder implements BuiltinController {
  readonly seen: string[] = [];
  constructor(readonly name: string, private readonly log: string[], private readonly answer: (key: string) => ReconcileResult | void = () => undefined) {}
  keysFor(event: StoreEvent): string[] {
    return [event.object.metadata.name];
  }
  reconcile(key: string): ReconcileResult | void {
    this.seen.push(key);
    this.log.push(`${this.name}:${key}`);
    return this.answer(key);
  }
}

function setup() {
  const store = new ObjectStore();
  const clock = new VirtualClock(start);
  const scheduler = new ControllerScheduler(store, clock);
  const put = (name: string) => store.create('configmaps', { metadata: { name, namespace: 'default' } });
  return { store, clock, scheduler, put };
}

describe('controller scheduler', () => {
  it('enqueues at commit, drains on the next macrotask, controllers in order, keys FIFO and de-duplicated', async () => {
    const { scheduler, put, store } = setup();
    const log: string[] = [];
    scheduler.add(new Recorder('first', log));
    scheduler.add(new Recorder('second', log));
    put('a');
    put('b');
    store.update('configmaps', { metadata: { name: 'a', namespace: 'default' }, data: { x: '1' } });
    expect(log).toEqual([]);
    expect(scheduler.idle()).toBe(false);
    await nextMacrotask();
    expect(log).toEqual(['first:a', 'first:b', 'second:a', 'second:b']);
    expect(scheduler.idle()).toBe(true);
    scheduler.stop();
  });

  it('requeue-after waits for the virtual clock', async () => {
    const { scheduler, put, clock } = setup();
    const log: string[] = [];
    let calls = 0;
    scheduler.add(new Recorder('timed', log, () => (++calls === 1 ? { requeueAfterMs: 5000 } : undefined)));
    put('a');
    await nextMacrotask();
    expect(log).toEqual(['timed:a']);
    await clock.stepTo(start + 4999);
    await nextMacrotask();
    expect(log).toEqual(['timed:a']);
    await clock.stepTo(start + 5000);
    await nextMacrotask();
    expect(log).toEqual(['timed:a', 'timed:a']);
    scheduler.stop();
  });

  it('a throwing reconcile is retried with a doubling back-off and recorded', async () => {
    const { scheduler, put, clock } = setup();
    const log: string[] = [];
    scheduler.add(new Recorder('broken', log, () => {
      throw new Error('boom');
    }));
    put('a');
    await nextMacrotask();
    await clock.stepTo(start + 1000); // retry 1 after 1 s
    await nextMacrotask();
    await clock.stepTo(start + 2999); // retry 2 is due 2 s after retry 1
    await nextMacrotask();
    expect(log).toEqual(['broken:a', 'broken:a']);
    await clock.stepTo(start + 3000);
    await nextMacrotask();
    expect(log).toHaveLength(3);
    expect(scheduler.errors.map((e) => (e.error as Error).message)).toEqual(['boom', 'boom', 'boom']);
    scheduler.stop();
  });

  it('stop drops queued keys and timers', async () => {
    const { scheduler, put, clock } = setup();
    const log: string[] = [];
    scheduler.add(new Recorder('r', log, () => ({ requeueAfterMs: 1000 })));
    put('a');
    scheduler.stop();
    await nextMacrotask();
    await clock.stepTo(start + 10_000);
    expect(log).toEqual([]);
  });
});
