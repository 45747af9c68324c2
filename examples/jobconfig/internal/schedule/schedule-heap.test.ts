/** The schedule heap pops the earliest instant first, keeps one entry per key, and deletes anywhere. */
import { ScheduleHeap } from './schedule-heap.js';

describe('ScheduleHeap', () => {
  it('pops entries in time order, ties by key', () => {
    const heap = new ScheduleHeap();
    const times: Array<[string, number]> = [['e', 50], ['a', 30], ['c', 10], ['b', 30], ['d', 70], ['f', 20], ['g', 40], ['h', 60]];
    for (const [key, t] of times) heap.set(key, t);
    const popped: string[] = [];
    for (let e = heap.pop(); e; e = heap.pop()) popped.push(`${e.key}@${e.timeMs}`);
    expect(popped).toEqual(['c@10', 'f@20', 'a@30', 'b@30', 'g@40', 'e@50', 'h@60', 'd@70']);
    expect(heap.size).toBe(0);
  });

  it('moves an existing key instead of adding a second entry', () => {
    const heap = new ScheduleHeap();
    heap.set('a', 10);
    heap.set('b', 20);
    heap.set('c', 30);
    heap.set('a', 40);
    expect(heap.size).toBe(3);
    expect(heap.peek()).toEqual({ key: 'b', timeMs: 20 });
    heap.set('c', 5);
    expect(heap.entries().map((e) => e.key)).toEqual(['c', 'b', 'a']);
    expect(heap.get('a')).toBe(40);
  });

  it('deletes from the middle and keeps the heap order', () => {
    const heap = new ScheduleHeap();
    for (let i = 0; i < 20; i++) heap.set(`k${i}`, (i * 7) % 20);
    heap.delete('k3'); // time 1
    heap.delete('k0'); // time 0
    heap.delete('missing');
    expect(heap.get('k3')).toBeUndefined();
    const order: number[] = [];
    for (let e = heap.pop(); e; e = heap.pop()) order.push(e.timeMs);
    expect(order).toEqual([...order].sort((a, b) => a - b));
    expect(order).toHaveLength(18);
    expect(order[0]).toBe(2);
  });
});
