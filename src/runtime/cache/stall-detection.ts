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
import { EventStream } from './event-stream.js';
import { WatchStalledError, type WatchEvents } from './watch-event.js';

export interface StallDetectionOptions {
  timeoutMs: number;
  /** Default real time (see above). */
  clock?: Clock;
  /** Told when a stall is detected, before the watch is dropped. */
  onStall?(error: WatchStalledError): void;
}

export function withStallDetection<T extends KubeObject>(events: WatchEvents<T>, options: StallDetectionOptions): EventStream<T> {
  const { timeoutMs } = options;
  const clock = options.clock === realClock ? undefined : options.clock;
  const stream = EventStream.of(events);
  const onStall = (): void => {
    const error = new WatchStalledError(timeoutMs);
    options.onStall?.(error);
    stream.restartWatch(error);
  };
  let timer: StallTimer | undefined;
  return stream.through({
    onEvent(event) {
      if (timer !== undefined) timer.refresh();
      const type = event.type;
      if (type === 'WatchOpened') {
        timer?.cancel();
        timer = stallTimer(timeoutMs, onStall, clock);
      } else if (timer !== undefined && (type === 'Error' || type === 'Init')) {
        timer.cancel();
        timer = undefined;
      }
      return undefined;
    },
    onEnd() {
      timer?.cancel();
      timer = undefined;
    },
  });
}
