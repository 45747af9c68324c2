/**
 * How long the API server gives a request and its client, as kube-apiserver 1.32: non-long-running
 * requests get 60 s (`--request-timeout`; a shorter `timeout` query parameter wins) and then a 504; a
 * connection gets 32 s to send its request headers (and finish its TLS handshake) — http.Server's
 * ReadHeaderTimeout — and is then closed without a response.
 */
import { ApiError, badRequest } from '../errors/status-errors.js';
import { parseGoDuration } from '../../apimachinery/go-duration.js';
import type { Clock, Timer } from '../../clock/clock.js';
import type { RequestInfo } from './request-info.js';

/** `--request-timeout`'s default, the most any non-long-running request gets. */
export const defaultRequestTimeoutSeconds = 60;
/** The secure server's ReadHeaderTimeout. */
export const defaultReadHeaderTimeoutSeconds = 32;

/** genericfilters.BasicLongRunningRequestCheck: watch and proxy verbs, and the streaming subresources. */
const longRunningVerbs = new Set(['watch', 'proxy']);
const longRunningSubresources = new Set(['attach', 'exec', 'proxy', 'log', 'portforward']);

export function isLongRunning(info: RequestInfo): boolean {
  if (info.kind !== 'resource') return false;
  return longRunningVerbs.has(info.verb) || (info.subresource !== undefined && longRunningSubresources.has(info.subresource));
}

/** apierrors.NewTimeoutError as the timeout filter writes it. */
export function requestTimedOut(): ApiError {
  return new ApiError(504, 'Timeout', 'Timeout: request did not complete within the allotted timeout', {});
}

/**
 * The request's deadline in milliseconds (WithRequestDeadline): the `timeout` query parameter when it is
 * positive and shorter than the server's, else the server's. A parameter that is not a duration is a 400.
 */
export function requestDeadlineMs(query: URLSearchParams, serverTimeoutSeconds: number): number {
  const max = serverTimeoutSeconds * 1000;
  const value = query.get('timeout');
  if (!value) return max;
  let ms: number;
  try {
    ms = parseGoDuration(value);
  } catch (err) {
    // as the API server: time.ParseDuration's own error text
    throw badRequest(`invalid timeout specified in the request URL - ${(err as Error).message}`);
  }
  return ms > 0 && ms < max ? ms : max;
}

interface Deadline {
  at: number;
  expire: () => void;
}

const wallClock: Clock = {
  now: () => Date.now(),
  schedule: (at, fn) => {
    const handle = setTimeout(fn, Math.max(0, at - Date.now()));
    return { cancel: () => clearTimeout(handle) };
  },
};

/**
 * The deadlines of the requests in flight, on one clock timer at the earliest of them (a timer per
 * request would pile up cancelled timers on a virtual clock that never moves).
 */
export class RequestDeadlines {
  private readonly pending = new Set<Deadline>();
  private armedAt: number | undefined;
  private armed: Timer | undefined;

  constructor(private readonly clock: Clock = wallClock) {}

  /** Calls `expire` once `ms` have passed on the clock, unless the returned cancel runs first. */
  add(ms: number, expire: () => void): () => void {
    const deadline = { at: this.clock.now() + ms, expire };
    this.pending.add(deadline);
    if (this.armedAt === undefined || deadline.at < this.armedAt) this.arm(deadline.at);
    return () => void this.pending.delete(deadline);
  }

  private arm(at: number): void {
    this.armed?.cancel();
    this.armedAt = at;
    this.armed = this.clock.schedule(at, () => this.fire());
  }

  private fire(): void {
    this.armedAt = undefined;
    this.armed = undefined;
    const now = this.clock.now();
    let next: number | undefined;
    for (const d of [...this.pending]) {
      if (d.at <= now) {
        this.pending.delete(d);
        d.expire();
      } else if (next === undefined || d.at < next) next = d.at;
    }
    if (next !== undefined) this.arm(next);
  }
}
