/**
 * Field errors as apimachinery 1.32 renders them (`k8s.io/apimachinery/pkg/util/validation/field`): the
 * path of a field (`field.Path`), one error per problem (`field.Invalid`, `Required`, `Duplicate`,
 * `Forbidden`, `NotSupported`, `TooLong`, `TooMany`, …) with its exact `<field>: <body>` text, an
 * `ErrorList`, and `newInvalid` — apierrors.NewInvalid: the 422 `Invalid` Status with one cause per error
 * and the message `<Kind>[.<group>] "<name>" is invalid: <err>` (several errors in brackets).
 * One module for the local cluster (which answers with these Statuses), the runtime (re-exported from
 * kubeforge/runtime for made projects' webhooks) and the reference operators; it imports nothing.
 */

export type FieldErrorType =
  | 'FieldValueRequired'
  | 'FieldValueInvalid'
  | 'FieldValueNotSupported'
  | 'FieldValueForbidden'
  | 'FieldValueDuplicate'
  | 'FieldValueTooLong'
  | 'FieldValueTooMany'
  | 'FieldValueTypeInvalid'
  | 'FieldValueNotFound'
  | 'InternalError';

/** One problem at one field (field.Error); `String(error)` is its `<field>: <body>` text when made by the functions below. */
export interface FieldError {
  type: FieldErrorType;
  field: string;
  /** The offending value (omitted from the text for Required, Forbidden, TooLong and InternalError). */
  value?: unknown;
  detail?: string;
}

/** field.ErrorList. */
export type ErrorList = FieldError[];

/**
 * A field's path (field.Path): `newPath('spec', 'template').child('containers').index(0).key('app')`
 * prints as `spec.template.containers[0][app]`. The functions below take a Path or its text.
 */
export class Path {
  private constructor(private readonly text: string) {}

  static root(name: string, ...more: string[]): Path {
    return new Path([name, ...more].join('.'));
  }

  child(name: string, ...more: string[]): Path {
    return new Path([this.text, name, ...more].join('.'));
  }

  index(i: number): Path {
    return new Path(`${this.text}[${i}]`);
  }

  key(k: string): Path {
    return new Path(`${this.text}[${k}]`);
  }

  toString(): string {
    return this.text;
  }
}

/** field.NewPath. */
export const newPath = (name: string, ...more: string[]): Path => Path.root(name, ...more);

/** A string rendered as Go's %q does. */
export function goQuote(s: string): string {
  return JSON.stringify(s).replace(/\\u([0-9a-f]{4})/g, (m, hex: string) => {
    const code = parseInt(hex, 16);
    return code < 0x20 || code === 0x7f ? `\\x${hex.slice(2)}` : m;
  });
}

/** A value whose rendering is already known (a Go struct the server prints as is, or a caller's own rendering). */
export class GoSyntaxValue {
  constructor(readonly text: string) {}
}

/** A value rendered as apimachinery 1.32 does in field errors: scalars bare, strings quoted, the rest as Go %#v. */
export function renderValue(value: unknown): string {
  if (value instanceof GoSyntaxValue) return value.text;
  if (value === null || value === undefined) return 'null';
  if (typeof value === 'string') return goQuote(value);
  if (typeof value === 'number' || typeof value === 'boolean' || typeof value === 'bigint') return String(value);
  return goSyntax(value);
}

function goSyntax(value: unknown): string {
  if (value === null || value === undefined) return 'interface {}(nil)';
  if (typeof value === 'string') return goQuote(value);
  if (typeof value === 'number' || typeof value === 'bigint') return `${value}`;
  if (typeof value === 'boolean') return String(value);
  if (Array.isArray(value)) return `[]interface {}{${value.map(goSyntax).join(', ')}}`;
  const entries = Object.keys(value as object)
    .sort()
    .map((k) => `${goQuote(k)}:${goSyntax((value as Record<string, unknown>)[k])}`);
  return `map[string]interface {}{${entries.join(', ')}}`;
}

const typeText: Record<FieldErrorType, string> = {
  FieldValueRequired: 'Required value',
  FieldValueInvalid: 'Invalid value',
  FieldValueNotSupported: 'Unsupported value',
  FieldValueForbidden: 'Forbidden',
  FieldValueDuplicate: 'Duplicate value',
  FieldValueTooLong: 'Too long',
  FieldValueTooMany: 'Too many',
  FieldValueTypeInvalid: 'Invalid value',
  FieldValueNotFound: 'Not found',
  InternalError: 'Internal error',
};

/** The error body after `<field>: ` (field.Error.ErrorBody; what goes into causes[].message). */
export function fieldErrorBody(e: FieldError): string {
  const head = typeText[e.type];
  switch (e.type) {
    case 'FieldValueRequired':
    case 'FieldValueForbidden':
    case 'FieldValueTooLong':
    case 'InternalError':
      return e.detail ? `${head}: ${e.detail}` : head;
    default:
      return e.detail !== undefined && e.detail !== '' ? `${head}: ${renderValue(e.value)}: ${e.detail}` : `${head}: ${renderValue(e.value)}`;
  }
}

/** `<field>: <body>` (field.Error.Error), the text used in the Status message. */
export function fieldErrorText(e: FieldError): string {
  return `${e.field}: ${fieldErrorBody(e)}`;
}

/** The errors made below print as field.Error does (`String(err)`, template literals). */
const printable = {
  toString(this: FieldError): string {
    return fieldErrorText(this);
  },
};

function fieldError(e: FieldError): FieldError {
  return Object.assign(Object.create(printable) as FieldError, e);
}

const at = (field: string | Path): string => String(field);

export const required = (field: string | Path, detail?: string): FieldError => fieldError({ type: 'FieldValueRequired', field: at(field), detail: detail ?? '' });
export const invalid = (field: string | Path, value: unknown, detail?: string): FieldError => fieldError({ type: 'FieldValueInvalid', field: at(field), value, detail: detail ?? '' });
export const forbidden = (field: string | Path, detail: string): FieldError => fieldError({ type: 'FieldValueForbidden', field: at(field), detail });
export const notSupported = (field: string | Path, value: unknown, supported: readonly string[]): FieldError =>
  fieldError({
    type: 'FieldValueNotSupported',
    field: at(field),
    value,
    detail: supported.length ? `supported values: ${supported.map(goQuote).join(', ')}` : '',
  });
export const duplicate = (field: string | Path, value: unknown): FieldError => fieldError({ type: 'FieldValueDuplicate', field: at(field), value });
export const notFound = (field: string | Path, value: unknown): FieldError => fieldError({ type: 'FieldValueNotFound', field: at(field), value });
export const tooLong = (field: string | Path, max: number): FieldError => fieldError({ type: 'FieldValueTooLong', field: at(field), detail: `may not be more than ${max} bytes` });
export const tooMany = (field: string | Path, actual: number, max: number): FieldError => fieldError({ type: 'FieldValueTooMany', field: at(field), value: actual, detail: `must have at most ${max} items` });
export const typeInvalid = (field: string | Path, value: unknown, detail: string): FieldError => fieldError({ type: 'FieldValueTypeInvalid', field: at(field), value, detail });
export const internalError = (field: string | Path, err: Error): FieldError => fieldError({ type: 'InternalError', field: at(field), detail: err.message });

/** The errors joined as ErrorList.ToAggregate().Error() prints them: repeats dropped, one bare, several in brackets. */
export function aggregateText(errors: readonly FieldError[]): string {
  const texts = [...new Set(errors.map(fieldErrorText))];
  return texts.length === 1 ? texts[0]! : `[${texts.join(', ')}]`;
}

/** metav1.Status as apierrors builds it (the fields a 422 Invalid uses). */
export interface InvalidStatus {
  kind: 'Status';
  apiVersion: 'v1';
  metadata: Record<string, never>;
  status: 'Failure';
  message: string;
  reason: 'Invalid';
  details: { name?: string; group?: string; kind?: string; causes: Array<{ reason: FieldErrorType; message: string; field: string }> };
  code: 422;
}

/** The kind an Invalid error names: `Kind` and its API group ('' for the core group). */
export interface GroupKind {
  group: string;
  kind: string;
}

/** apierrors.NewInvalid's Status: `<Kind>[.<group>] "<name>" is invalid: …`, a cause per error (empty details left out, as Go's omitempty). */
export function invalidStatus(groupKind: GroupKind, name: string, errors: readonly FieldError[]): InvalidStatus {
  const qualifiedKind = groupKind.group ? `${groupKind.kind}.${groupKind.group}` : groupKind.kind;
  return {
    kind: 'Status',
    apiVersion: 'v1',
    metadata: {},
    status: 'Failure',
    message: errors.length === 0 ? `${qualifiedKind} ${goQuote(name)} is invalid` : `${qualifiedKind} ${goQuote(name)} is invalid: ${aggregateText(errors)}`,
    reason: 'Invalid',
    details: {
      ...(name ? { name } : {}),
      ...(groupKind.group ? { group: groupKind.group } : {}),
      ...(groupKind.kind ? { kind: groupKind.kind } : {}),
      causes: errors.map((e) => ({ reason: e.type, message: fieldErrorBody(e), field: e.field })),
    },
    code: 422,
  };
}

/**
 * The error apierrors.NewInvalid returns: its message is the Status message, and it carries the Status with
 * its `code` (422) and `reason` (Invalid), which the webhook server answers with.
 */
export class InvalidError extends Error {
  readonly status: InvalidStatus;
  readonly code = 422;
  readonly reason = 'Invalid';

  constructor(groupKind: GroupKind, name: string, readonly errors: readonly FieldError[]) {
    const status = invalidStatus(groupKind, name, errors);
    super(status.message);
    this.name = 'InvalidError';
    this.status = status;
  }
}

/** apierrors.NewInvalid: `throw newInvalid({ group: 'batch.example.com', kind: 'CronJob' }, name, errors)`. */
export function newInvalid(groupKind: GroupKind, name: string, errors: readonly FieldError[]): InvalidError {
  return new InvalidError(groupKind, name, errors);
}
