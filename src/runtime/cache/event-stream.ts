/**
 * How the pipeline's stages stay cheap per event: withStallDetection, withBackoff and reflect each return an
 * EventStream, and a stage put on an EventStream is fused into it as a tap — a synchronous look at each
 * event, in stage order, inside one `next()` — instead of one more async generator (measured: a chain of
 * four async generators cost 3–5× the CPU of the old single-class informer per listed object). A tap may
 * return a promise to wait on before the next pull (the backoff), resolving false to end the stream. Any
 * async iterable of WatchEvents becomes an EventStream with `EventStream.of`, so every stage still works on
 * its own around any source.
 *
 *   const stream = EventStream.of(watch(client, kind)).through({ onEvent: (e) => void console.log(e.type) });
 *   for await (const e of stream) handle(e);
 */
import type { KubeObject } from '../client/object.js';
import type { WatchEvent, WatchEvents } from './watch-event.js';
import { keepShape } from '../keep-shape.js';

export interface EventTap<T extends KubeObject = KubeObject> {
  /** Sees an event before it is passed on; a returned promise is awaited before the next pull (false: end the stream). */
  onEvent(event: WatchEvent<T>): Promise<boolean> | undefined;
  /** The stream ended or its consumer left. */
  onEnd?(): void;
}

/** A source that hands out events in batches (the watcher: a list page, the lines of one socket chunk). */
export interface BatchSource<T extends KubeObject = KubeObject> {
  nextBatch(): Promise<ReadonlyArray<WatchEvent<T>> | undefined>;
  /** Ends the source (its next batch is undefined). */
  stop(): void;
  /** Events ready now, without waiting (undefined: none; call nextBatch or await arrival). */
  takeReady?(): ReadonlyArray<WatchEvent<T>> | undefined;
  /** A promise for more events to be ready, when the source can say (an open watch); else undefined. */
  arrival?(): Promise<void> | undefined;
}

/**
 * Batches of a stream with its taps applied; `next()` resolves undefined at the end. The hot loop (the
 * Informer's) first takes what is ready (`poll()`), then awaits `arrival()` if the source can say when more
 * comes (one plain promise per socket chunk), and only otherwise `next()`.
 */
export interface EventBatches<T extends KubeObject = KubeObject> {
  next(): Promise<ReadonlyArray<WatchEvent<T>> | undefined>;
  poll(): ReadonlyArray<WatchEvent<T>> | undefined;
  arrival(): Promise<void> | undefined;
  close(): Promise<void>;
}

const DONE: IteratorReturnResult<undefined> = { done: true, value: undefined };

type StreamSource<T extends KubeObject> = AsyncIterable<WatchEvent<T>> & Partial<WatchEvents<T>> & Partial<BatchSource<T>>;

/** Iterate once: taps keep per-stream state (a backoff's failure count, a stall timer). */
export class EventStream<T extends KubeObject = KubeObject> implements WatchEvents<T> {
  private constructor(
    private readonly source: StreamSource<T>,
    private readonly taps: ReadonlyArray<EventTap<T>>,
  ) {}

  static of<T extends KubeObject>(events: AsyncIterable<WatchEvent<T>> & Partial<WatchEvents<T>>): EventStream<T> {
    return events instanceof EventStream ? (events as EventStream<T>) : new EventStream<T>(events, []);
  }

  /** This stream with one more stage at its end. */
  through(tap: EventTap<T>): EventStream<T> {
    return new EventStream(this.source, [...this.taps, tap]);
  }

  restartWatch(reason: Error): void {
    this.source.restartWatch?.(reason);
  }

  /**
   * The stream a batch at a time (what the Informer pulls: one await per socket chunk or list page). A tap's
   * wait (the backoff after an Error) comes before the next batch; an Error is alone in its batch.
   */
  batches(): EventBatches<T> {
    return new TappedBatches(this.source, this.taps);
  }

  [Symbol.asyncIterator](): AsyncIterator<WatchEvent<T>, undefined> {
    const batches = this.batches();
    let batch: ReadonlyArray<WatchEvent<T>> = [];
    let next = 0;
    return {
      next: async () => {
        if (next >= batch.length) {
          const more = await batches.next();
          if (more === undefined) return DONE;
          batch = more;
          next = 0;
        }
        return { value: batch[next++]!, done: false };
      },
      return: async () => {
        await batches.close();
        return DONE;
      },
    };
  }
}

/**
 * EventStream.batches(): a source's batches with the taps applied. A class, not closures per stream: poll()
 * and the taps run on every batch, and a closure's compiled code dies with its runtime (keep-shape.ts).
 */
class TappedBatches<T extends KubeObject> implements EventBatches<T> {
  /** A single-event source's iterator (a source without nextBatch). */
  private readonly iterator: AsyncIterator<WatchEvent<T>> | undefined;
  /** A tap's wait (the backoff) to finish before the next pull; false ends the stream. */
  private wait: Promise<boolean> | undefined;
  private ended = false;

  constructor(
    private readonly source: StreamSource<T>,
    private readonly taps: ReadonlyArray<EventTap<T>>,
  ) {
    this.iterator = source.nextBatch === undefined ? source[Symbol.asyncIterator]() : undefined;
  }

  async next(): Promise<ReadonlyArray<WatchEvent<T>> | undefined> {
    if (this.ended) return undefined;
    const wait = this.wait;
    if (wait !== undefined) {
      const go = await wait;
      this.wait = undefined;
      if (!go) {
        await this.close();
        return undefined;
      }
    }
    const batch = await this.pull();
    if (batch === undefined) {
      this.finish();
      return undefined;
    }
    return this.tapped(batch);
  }

  poll(): ReadonlyArray<WatchEvent<T>> | undefined {
    if (this.ended || this.wait !== undefined || this.source.takeReady === undefined) return undefined;
    const batch = this.source.takeReady();
    return batch === undefined ? undefined : this.tapped(batch);
  }

  arrival(): Promise<void> | undefined {
    return this.ended || this.wait !== undefined ? undefined : this.source.arrival?.();
  }

  async close(): Promise<void> {
    const open = !this.ended;
    this.finish();
    if (open) {
      if (this.iterator) await this.iterator.return?.();
      else this.source.stop!();
    }
  }

  /** The source's next batch (no async frame of its own around a batch source's promise). */
  private pull(): Promise<ReadonlyArray<WatchEvent<T>> | undefined> {
    return this.iterator === undefined ? this.source.nextBatch!() : TappedBatches.pullOne(this.iterator);
  }

  private static async pullOne<T extends KubeObject>(iterator: AsyncIterator<WatchEvent<T>>): Promise<ReadonlyArray<WatchEvent<T>> | undefined> {
    const result = await iterator.next();
    return result.done ? undefined : [result.value];
  }

  private finish(): void {
    if (this.ended) return;
    this.ended = true;
    for (const tap of this.taps) tap.onEnd?.();
  }

  private tapped(batch: ReadonlyArray<WatchEvent<T>>): ReadonlyArray<WatchEvent<T>> {
    const taps = this.taps;
    for (let e = 0; e < batch.length; e++) {
      const event = batch[e]!;
      for (let i = 0; i < taps.length; i++) {
        const pause = taps[i]!.onEvent(event);
        if (pause !== undefined) this.wait = pause;
      }
    }
    return batch;
  }
}

// One instance lives on between informers, so the event path's compiled code stays valid (keep-shape.ts).
keepShape(new TappedBatches<KubeObject>({ nextBatch: () => Promise.resolve(undefined), stop: () => undefined, [Symbol.asyncIterator]: () => ({ next: () => Promise.resolve(DONE) }) }, []));
