/**
 * Errors from the API server as values: the HTTP code and the server's Status (reason, message, causes),
 * with the predicates controllers branch on (isNotFound, isConflict, isAlreadyExists) and `ignoreNotFound`.
 */
import type { Status } from 'kubernetes-types/meta/v1.js';

export class ApiError extends Error {
  readonly code: number;
  readonly reason: string;
  readonly status: Status | undefined;

  constructor(code: number, status: Status | undefined, context: string) {
    super(`${context}: ${code} ${status?.reason ?? ''}${status?.message ? `: ${status.message}` : ''}`.trim());
    this.name = 'ApiError';
    this.code = code;
    this.reason = status?.reason ?? '';
    this.status = status;
  }
}

function codeOf(err: unknown): number | undefined {
  return err instanceof ApiError ? err.code : undefined;
}

export const isNotFound = (err: unknown): boolean => codeOf(err) === 404;
/**
 * controller-runtime's `client.IgnoreNotFound`, for a promise's `catch`: a 404 becomes `undefined`, any
 * other error is thrown again — `const obj = await client.get(Kind, req).catch(ignoreNotFound); if (!obj) return {};`
 */
export function ignoreNotFound(err: unknown): undefined {
  if (isNotFound(err)) return undefined;
  throw err;
}
export const isConflict = (err: unknown): boolean => codeOf(err) === 409 && (err as ApiError).reason === 'Conflict';
export const isAlreadyExists = (err: unknown): boolean => codeOf(err) === 409 && (err as ApiError).reason === 'AlreadyExists';
export const isGone = (err: unknown): boolean => codeOf(err) === 410;
export const isInvalid = (err: unknown): boolean => codeOf(err) === 422;
export const isForbidden = (err: unknown): boolean => codeOf(err) === 403;
/** Errors worth retrying as-is: throttling, timeouts and server errors. */
export const isTransient = (err: unknown): boolean => {
  const code = codeOf(err);
  return code === undefined || code === 429 || code >= 500 || code === 408;
};
