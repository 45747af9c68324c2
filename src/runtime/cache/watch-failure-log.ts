/**
 * How an informer reports a failing connection or watch: at warn, with the error and the backoff before the
 * next try, once when it enters a failure state (a new kind of error: refused connection, a status code,
 * a stall) — not once per retry, so a server that stays down for an hour costs one line, not thousands;
 * and once at info when the watch is up again, with how many tries failed in between.
 */
import type { Logger } from 'pino';
import { ApiError } from '../client/api-error.js';
import { isError } from '../as-error.js';

/**
 * Socket-level codes that all mean "the server cannot be reached": a server going away shows first as a
 * reset or hung-up watch, then as refused connections — one state, one line.
 */
const UNREACHABLE = new Set(['ECONNREFUSED', 'ECONNRESET', 'ECONNABORTED', 'EPIPE', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENETUNREACH', 'EHOSTDOWN', 'ENOTFOUND', 'EAI_AGAIN', 'UND_ERR_SOCKET', 'UND_ERR_CONNECT_TIMEOUT']);

/** The state a failure puts the informer in: the same state on a retry is not logged again. */
export function failureState(err: unknown): string {
  if (err instanceof ApiError) return `status ${err.code}`;
  const code = (err as { code?: unknown } | undefined)?.code;
  if (typeof code === 'string') return UNREACHABLE.has(code) ? 'unreachable' : code; // CERT_HAS_EXPIRED, ERR_TLS_… stay apart
  if (isError(err) && /socket hang up/.test(err.message)) return 'unreachable';
  return isError(err) ? err.name : 'error';
}

export class WatchFailureLog {
  private state: string | undefined;
  private failedTries = 0;

  constructor(private readonly kind: string, private readonly logger: Logger | undefined) {}

  /** A try failed; the informer waits `backoffMs` before the next one. */
  failed(err: unknown, backoffMs: number, what = 'watch failed, retrying with backoff'): void {
    this.failedTries++;
    const state = failureState(err);
    if (state === this.state) return;
    this.state = state;
    this.logger?.warn({ kind: this.kind, err: String(err), backoffMs: Math.round(backoffMs), failedTries: this.failedTries }, what);
  }

  /** The watch is open again. */
  recovered(): void {
    if (this.state === undefined) return;
    this.logger?.info({ kind: this.kind, failedTries: this.failedTries, lastError: this.state }, 'watch re-established');
    this.state = undefined;
    this.failedTries = 0;
  }
}
