/**
 * Thrown values as Errors, messages and log fields without losing what they carry. `instanceof Error` is false
 * for errors made in another realm — Node's own socket errors seen from a jest test or a `vm` context — and
 * wrapping those in a new Error would drop their `code` (ECONNREFUSED, CERT_HAS_EXPIRED…), which is what tells
 * a lost server from a refused request. `util.types.isNativeError` recognises errors from every realm.
 */
import { types } from 'node:util';

/** Whether `err` is an Error of any realm. */
export function isError(err: unknown): err is Error {
  return err instanceof Error || types.isNativeError(err);
}

/** `err` itself when it is an Error of any realm; otherwise a new Error with its text and `err` as the cause. */
export function asError(err: unknown): Error {
  return isError(err) ? err : new Error(String(err), { cause: err });
}

/** An Error's message, or the text of any other thrown value. */
export function errorMessage(err: unknown): string {
  return isError(err) ? err.message : String(err);
}

/** An error as log fields: its message, and its stack in `stacktrace` (which the logger keeps only at its stack-trace level). */
export function errorLogFields(err: unknown): { err: string; stacktrace?: string } {
  if (!isError(err)) return { err: String(err) };
  return err.stack ? { err: err.message, stacktrace: err.stack } : { err: err.message };
}
