/**
 * The watch-stall timer under withStallDetection (stall-detection.ts): fires when no event or bookmark
 * arrived for `ms`. An event only sets a flag (no timer re-armed, no clock read per event); one periodic
 * check per quarter timeout turns the flag into a "last seen" time, so a stall is reported no earlier than `ms` and at most half a timeout late.
 * On a Clock (the manager's virtual clock in tests that ask for it) the last event's time is exact. Without
 * one it is the real clock's own fast path: a periodic check (unref'd, so it never keeps a process alive)
 * instead of a timer re-armed per event.
 */
import type { Clock, Timer } from '../clock.js';
import { keepShape } from '../keep-shape.js';

export interface StallTimer {
  /** An event or bookmark arrived. */
  refresh(): void;
  cancel(): void;
}

export function stallTimer(ms: number, onStall: () => void, clock?: Clock): StallTimer {
  return clock ? clockStallTimer(ms, onStall, clock) : new RealTimeStallTimer(ms, onStall);
}

/**
 * The real-time stall timer. A class, not closures per timer: refresh() runs on every event, and a closure's
 * compiled code dies with its runtime (keep-shape.ts).
 */
class RealTimeStallTimer implements StallTimer {
  private seen = false;
  private lastSeen = Date.now();
  private readonly interval: NodeJS.Timeout | undefined;

  constructor(
    private readonly ms: number,
    private readonly onStall: () => void,
    periodic = true,
  ) {
    if (!periodic) return;
    this.interval = setInterval(() => this.check(), Math.max(1, Math.floor(ms / 4)));
    // Only a check: the watch connection itself is what keeps a process alive, never its stall timer.
    this.interval.unref();
  }

  refresh(): void {
    this.seen = true;
  }

  cancel(): void {
    clearInterval(this.interval);
  }

  private check(): void {
    const now = Date.now();
    if (this.seen) {
      this.seen = false;
      this.lastSeen = now; // the event came within the last period: never report early
    } else if (now - this.lastSeen >= this.ms) {
      this.cancel();
      this.onStall();
    }
  }
}

// One timer (without its interval) lives on, so the event path's compiled code stays valid (keep-shape.ts).
keepShape(new RealTimeStallTimer(1, () => undefined, false));

function clockStallTimer(ms: number, onStall: () => void, clock: Clock): StallTimer {
  let lastSeen = clock.now();
  let timer: Timer | undefined;
  let cancelled = false;
  const check = (): void => {
    if (cancelled) return;
    const due = lastSeen + ms;
    if (clock.now() >= due) onStall();
    else timer = clock.schedule(due, check);
  };
  timer = clock.schedule(lastSeen + ms, check);
  return {
    refresh: () => void (lastSeen = clock.now()),
    cancel: () => {
      cancelled = true;
      timer?.cancel();
    },
  };
}
