/**
 * What a reconciler is: a function from a Request to a Result (`requeueAfter` in ms of clock time), given
 * a context with the controller's logger, the manager's clock, a reconcile ID and an AbortSignal (aborted when
 * the controller's `reconciliationTimeoutMs` runs out or the manager's grace period ends; pass it on to
 * anything that can stop early, e.g. `client.withRequestOptions({ signal: ctx.signal })`). Throwing retries with backoff (a thrown error wins: there is no result to
 * honour), except `TerminalError`, which is only logged.
 */
import type { Logger } from 'pino';
import type { Clock } from '../clock.js';
import type { Request } from '../client/object.js';

export interface Result {
  /** Reconcile again after this many milliseconds of clock time (and reset the backoff). */
  requeueAfter?: number;
  /** Reconcile again after the rate limiter's backoff. */
  requeue?: boolean;
  /** The priority of that requeue (default: the priority the request was queued with). */
  priority?: number;
}

export interface ReconcileContext {
  controller: string;
  reconcileID: string;
  log: Logger;
  clock: Clock;
  /**
   * Aborted once this reconcile is abandoned (timed out, or the manager's grace period ended). The
   * controller always sets it; optional so that tests may call a reconciler with a context of their own.
   */
  signal?: AbortSignal;
}

export type ReconcileFunc = (request: Request, context: ReconcileContext) => Promise<Result | void> | Result | void;

export interface Reconciler {
  reconcile: ReconcileFunc;
}

/** An error that retrying cannot fix (bad spec): logged and counted, never requeued. */
export class TerminalError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'TerminalError';
  }
}

export function isTerminalError(err: unknown): err is TerminalError {
  return err instanceof TerminalError;
}

export function toReconcileFunc(r: Reconciler | ReconcileFunc): ReconcileFunc {
  return typeof r === 'function' ? r : (req, ctx) => r.reconcile(req, ctx);
}
