/**
 * Stall detection as a wrapper around a watch event stream: while a watch is open (from WatchOpened to the
 * next Error or Init), no event or bookmark for `timeoutMs` drops it — `restartWatch(WatchStalledError)` on
 * the stream below, which then yields that error and re-opens the watch. The server bookmarks every minute,
 * so the default 90 s means "the connection died without closing".
 *
 * Which clock: by default real (wall-clock) time, on purpose — a socket stalls in real time, and a virtual
 * clock that a test has stopped would never call a dead connection dead. Pass `clock` (e.g. the manager's
 * virtual clock, `cache.stallOnManagerClock`) only where tests step that clock to provoke a stall. On real
 * time an event only sets a flag (stall-timer.ts): no clock read per event.
 *
 *   const w = watch(client, kind);
 *   for await (const e of withBackoff(withStallDetection(w, { timeoutMs: 90_000 })))
 *     if (e.type === 'Error' && e.error instanceof WatchStalledError) console.warn('re-watching');
 */
import type { KubeObject } from '../client/object.js';
import { realClock, type Clock } from '../clock.js';
import { stallTimer, type StallTimer } from './stall-timer.js';
import { EventStream, type EventTap } from './event-stream.js';
import { WatchStalledError, type WatchEvent, type WatchEvents } from './watch-event.js';
import { keepShape } from '../keep-shape.js';

export interface StallDetectionOptions {
  timeoutMs: number;
  /** Default real time (see above). */
  clock?: Clock;
  /** Told when a stall is detected, before the watch is dropped. */
  onStall?(error: WatchStalledError): void;
}

export function withStallDetection<T extends KubeObject>(events: WatchEvents<T>, options: StallDetectionOptions): EventStream<T> {
  const stream = EventStream.of(events);
  return stream.through(new StallTap<T>(stream, options));
}

/**
 * withStallDetection's stage: a stall timer while a watch is open, refreshed by every event. A class, not a
 * closure per stream: the pipeline calls onEvent on every event, and a closure's compiled code dies with its
 * runtime (keep-shape.ts).
 */
class StallTap<T extends KubeObject> implements EventTap<T> {
  private timer: StallTimer | undefined;
  private readonly clock: Clock | undefined;

  constructor(
    private readonly stream: EventStream<T> | undefined,
    private readonly options: StallDetectionOptions,
  ) {
    this.clock = options.clock === realClock ? undefined : options.clock;
  }

  onEvent(event: WatchEvent<T>): undefined {
    const timer = this.timer;
    if (timer !== undefined) timer.refresh();
    const type = event.type;
    if (type === 'WatchOpened') {
      timer?.cancel();
      this.timer = stallTimer(this.options.timeoutMs, () => this.stalled(), this.clock);
    } else if (timer !== undefined && (type === 'Error' || type === 'Init')) {
      timer.cancel();
      this.timer = undefined;
    }
    return undefined;
  }

  onEnd(): void {
    this.timer?.cancel();
    this.timer = undefined;
  }

  private stalled(): void {
    const error = new WatchStalledError(this.options.timeoutMs);
    this.options.onStall?.(error);
    this.stream?.restartWatch(error);
  }
}

keepShape(new StallTap(undefined, { timeoutMs: 0 }));
