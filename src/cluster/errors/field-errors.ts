/**
 * Field errors as the real API server renders them (apimachinery 1.32 `field.Error`): the cause
 * types, the `<field>: <body>` text, and Go-style rendering of the offending value.
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

export interface FieldError {
  type: FieldErrorType;
  field: string;
  /** The offending value (omitted from the text for Required, Forbidden and TooLong). */
  value?: unknown;
  detail?: string;
}

/** A string rendered as Go's %q does. */
export function goQuote(s: string): string {
  return JSON.stringify(s).replace(/\\u([0-9a-f]{4})/g, (m, hex: string) => {
    const code = parseInt(hex, 16);
    return code < 0x20 || code === 0x7f ? `\\x${hex.slice(2)}` : m;
  });
}

/** A value whose Go %#v rendering is already known (a Go struct the server prints as is). */
export class GoSyntaxValue {
  constructor(readonly text: string) {}
}

/** A value rendered as apimachinery 1.32 does in field errors: scalars bare, strings quoted, the rest as Go %#v. */
export function renderValue(value: unknown): string {
  if (value instanceof GoSyntaxValue) return value.text;
  if (value === null || value === undefined) return 'null';
  if (typeof value === 'string') return goQuote(value);
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  return goSyntax(value);
}

function goSyntax(value: unknown): string {
  if (value === null || value === undefined) return 'interface {}(nil)';
  if (typeof value === 'string') return goQuote(value);
  if (typeof value === 'number') return Number.isInteger(value) ? `${value}` : `${value}`;
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

/** The error body after `<field>: ` (what goes into causes[].message). */
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

/** `<field>: <body>`, the text used in the Status message. */
export function fieldErrorText(e: FieldError): string {
  return `${e.field}: ${fieldErrorBody(e)}`;
}

export const required = (field: string, detail?: string): FieldError => ({ type: 'FieldValueRequired', field, detail: detail ?? '' });
export const invalid = (field: string, value: unknown, detail?: string): FieldError => ({ type: 'FieldValueInvalid', field, value, detail: detail ?? '' });
export const forbidden = (field: string, detail: string): FieldError => ({ type: 'FieldValueForbidden', field, detail });
export const notSupported = (field: string, value: unknown, supported: string[]): FieldError => ({
  type: 'FieldValueNotSupported',
  field,
  value,
  detail: supported.length ? `supported values: ${supported.map(goQuote).join(', ')}` : '',
});
export const duplicate = (field: string, value: unknown): FieldError => ({ type: 'FieldValueDuplicate', field, value });
export const tooLong = (field: string, max: number): FieldError => ({ type: 'FieldValueTooLong', field, detail: `may not be more than ${max} bytes` });
export const tooMany = (field: string, actual: number, max: number): FieldError => ({ type: 'FieldValueTooMany', field, value: actual, detail: `must have at most ${max} items` });
export const typeInvalid = (field: string, value: unknown, detail: string): FieldError => ({ type: 'FieldValueTypeInvalid', field, value, detail });
