/**
 * API errors as Kubernetes `Status` objects with the real code, reason, message, details and causes
 * (embedded-apiserver.md §2.7). Every layer of the local cluster throws `ApiError`; the HTTP layer
 * writes `error.status` as the response body.
 */
import { type FieldError, aggregateText, fieldErrorBody } from './field-errors.js';

export interface StatusCause {
  /** metav1.StatusCause.Type, whose JSON name is `reason`: FieldValueInvalid, DisruptionBudget, … */
  reason?: string;
  message?: string;
  field?: string;
}

export interface StatusDetails {
  name?: string;
  group?: string;
  kind?: string;
  uid?: string;
  causes?: StatusCause[];
  retryAfterSeconds?: number;
}

export interface Status {
  kind: 'Status';
  apiVersion: 'v1';
  metadata: Record<string, unknown>;
  status: 'Failure' | 'Success';
  message?: string;
  reason?: string;
  details?: StatusDetails;
  code: number;
}

/** The group-qualified resource used in messages: `configmaps`, `widgets.example.com`. */
export interface QualifiedResource {
  group: string;
  resource: string;
}

export function qualified(qr: QualifiedResource): string {
  return qr.group ? `${qr.resource}.${qr.group}` : qr.resource;
}

/** Go's omitempty: empty strings are left out of details. */
function dropEmpty(details: StatusDetails): StatusDetails {
  const out: StatusDetails = {};
  for (const [k, v] of Object.entries(details)) if (v !== '' && v !== undefined) (out as Record<string, unknown>)[k] = v;
  return out;
}

export class ApiError extends Error {
  readonly status: Status;
  constructor(code: number, reason: string, message: string, details?: StatusDetails) {
    super(message);
    const cleaned = details ? dropEmpty(details) : undefined;
    // reason is omitempty: StatusReasonUnknown ("") leaves it out
    this.status = { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message, ...(reason ? { reason } : {}), ...(cleaned ? { details: cleaned } : {}), code };
  }
  get code(): number {
    return this.status.code;
  }
  get reason(): string {
    return this.status.reason ?? '';
  }
}

export const notFound = (qr: QualifiedResource, name: string): ApiError =>
  new ApiError(404, 'NotFound', `${qualified(qr)} "${name}" not found`, { name, group: qr.group, kind: qr.resource });

export const pathNotFound = (): ApiError => new ApiError(404, 'NotFound', 'the server could not find the requested resource', {});

export const alreadyExists = (qr: QualifiedResource, name: string): ApiError =>
  new ApiError(409, 'AlreadyExists', `${qualified(qr)} "${name}" already exists`, { name, group: qr.group, kind: qr.resource });

export const conflict = (qr: QualifiedResource, name: string, why = 'the object has been modified; please apply your changes to the latest version and try again'): ApiError =>
  new ApiError(409, 'Conflict', `Operation cannot be fulfilled on ${qualified(qr)} "${name}": ${why}`, { name, group: qr.group, kind: qr.resource });

export const badRequest = (message: string): ApiError => new ApiError(400, 'BadRequest', message);

export const methodNotAllowed = (verb: string, qr: QualifiedResource): ApiError =>
  new ApiError(405, 'MethodNotAllowed', `${verb} is not supported on resources of kind "${qualified(qr)}"`, { group: qr.group, kind: qr.resource });

export const expired = (message: string): ApiError => new ApiError(410, 'Expired', message);

export const unsupportedMediaType = (accepted: string[]): ApiError =>
  new ApiError(415, 'UnsupportedMediaType', `the body of the request was in an unknown format - accepted media types include: ${accepted.join(', ')}`);

export const notAcceptable = (accepted: string[]): ApiError =>
  new ApiError(406, 'NotAcceptable', `only the following media types are accepted: ${accepted.join(', ')}`);

export const unauthorized = (): ApiError => new ApiError(401, 'Unauthorized', 'Unauthorized');

export const internalError = (message: string): ApiError =>
  new ApiError(500, 'InternalError', `Internal error occurred: ${message}`, { causes: [{ message }] });

export const forbidden = (message: string, qr: QualifiedResource, name?: string, causes?: StatusCause[]): ApiError =>
  new ApiError(403, 'Forbidden', message, { ...(name ? { name } : {}), group: qr.group, kind: qr.resource, ...(causes ? { causes } : {}) });

/** 422 Invalid: `<Kind>[.<group>] "<name>" is invalid: <err>` or `…: [<err1>, <err2>]`. */
export function invalidObject(kind: string, group: string, name: string, errors: FieldError[]): ApiError {
  const qualifiedKind = group ? `${kind}.${group}` : kind;
  return new ApiError(422, 'Invalid', `${qualifiedKind} "${name}" is invalid: ${aggregateText(errors)}`, {
    name,
    group,
    kind,
    causes: errors.map((e) => ({ reason: e.type, message: fieldErrorBody(e), field: e.field })),
  });
}
