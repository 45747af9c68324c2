/**
 * The CronController's schedule heap: one entry per JobConfig key holding its next schedule instant, with
 * the earliest instant on top (ties broken by key, so pops are deterministic).
 */

/** One JobConfig's place in the heap: its key (`namespace/name`) and next schedule time (epoch ms). */
export interface ScheduleEntry {
  key: string;
  timeMs: number;
}

export class ScheduleHeap {
  private readonly items: ScheduleEntry[] = [];
  private readonly positions = new Map<string, number>();

  get size(): number {
    return this.items.length;
  }

  /** Sets (or moves) the entry of `key`. */
  set(key: string, timeMs: number): void {
    const at = this.positions.get(key);
    if (at === undefined) {
      this.items.push({ key, timeMs });
      this.positions.set(key, this.items.length - 1);
      this.up(this.items.length - 1);
      return;
    }
    this.items[at] = { key, timeMs };
    this.down(this.up(at));
  }

  /** Removes the entry of `key`, if any. */
  delete(key: string): void {
    const at = this.positions.get(key);
    if (at === undefined) return;
    const last = this.items.pop()!;
    this.positions.delete(key);
    if (at === this.items.length) return;
    this.items[at] = last;
    this.positions.set(last.key, at);
    this.down(this.up(at));
  }

  get(key: string): number | undefined {
    const at = this.positions.get(key);
    return at === undefined ? undefined : this.items[at]!.timeMs;
  }

  peek(): ScheduleEntry | undefined {
    return this.items[0];
  }

  /** Removes and returns the earliest entry. */
  pop(): ScheduleEntry | undefined {
    const top = this.items[0];
    if (top) this.delete(top.key);
    return top;
  }

  clear(): void {
    this.items.length = 0;
    this.positions.clear();
  }

  /** Entries in pop order (for logs and tests). */
  entries(): ScheduleEntry[] {
    return [...this.items].sort(compare);
  }

  private up(i: number): number {
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if (compare(this.items[i]!, this.items[parent]!) >= 0) break;
      this.swap(i, parent);
      i = parent;
    }
    return i;
  }

  private down(i: number): void {
    for (;;) {
      const left = 2 * i + 1;
      const right = left + 1;
      let smallest = i;
      if (left < this.items.length && compare(this.items[left]!, this.items[smallest]!) < 0) smallest = left;
      if (right < this.items.length && compare(this.items[right]!, this.items[smallest]!) < 0) smallest = right;
      if (smallest === i) return;
      this.swap(i, smallest);
      i = smallest;
    }
  }

  private swap(a: number, b: number): void {
    const items = this.items;
    [items[a], items[b]] = [items[b]!, items[a]!];
    this.positions.set(items[a]!.key, a);
    this.positions.set(items[b]!.key, b);
  }
}

function compare(a: ScheduleEntry, b: ScheduleEntry): number {
  return a.timeMs - b.timeMs || (a.key < b.key ? -1 : a.key > b.key ? 1 : 0);
}
