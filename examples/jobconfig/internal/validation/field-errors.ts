/**
 * Kubernetes field errors (apimachinery's `field.Error`) with their exact message texts, and the 422
 * `Invalid` error that carries a list of them — what the webhooks and the option evaluator report.
 */
import { GoRendered, goSyntax } from './go-values.js';

/** One problem at one field path, rendered exactly as Kubernetes renders `field.Error`. */
export class FieldError {
  constructor(
    readonly path: string,
    readonly text: string,
  ) {}

  toString(): string {
    return `${this.path}: ${this.text}`;
  }
}

/**
 * Renders a bad value as Kubernetes does: nil as `"null"` (Go turns it into the string "null", then quotes
 * it), strings quoted, numbers and booleans bare, Go-rendered values (go-values.ts) as they are, and lists
 * and maps as Go's `%#v` of the decoded `interface{}` value (go-values.ts goSyntax).
 */
export function formatValue(value: unknown): string {
  if (value === null || value === undefined) return '"null"';
  if (value instanceof GoRendered) return value.text;
  return goSyntax(value);
}

const withDetail = (head: string, detail?: string) => (detail ? `${head}: ${detail}` : head);

export const required = (path: string, detail?: string) => new FieldError(path, withDetail('Required value', detail));
export const invalid = (path: string, value: unknown, detail?: string) => new FieldError(path, withDetail(`Invalid value: ${formatValue(value)}`, detail));
export const forbidden = (path: string, detail: string) => new FieldError(path, `Forbidden: ${detail}`);
export const notFound = (path: string, value: unknown) => new FieldError(path, `Not found: ${formatValue(value)}`);
export const duplicate = (path: string, value: unknown) => new FieldError(path, `Duplicate value: ${formatValue(value)}`);
export const tooMany = (path: string, actual: number, max: number) => new FieldError(path, `Too many: ${actual}: must have at most ${max} items`);
export const notSupported = (path: string, value: unknown, supported: readonly string[]) =>
  new FieldError(path, `Unsupported value: ${formatValue(value)}: supported values: ${supported.map((v) => JSON.stringify(v)).join(', ')}`);

/** Joins errors as apimachinery's aggregate does: one bare, several in brackets. */
export function aggregateMessage(errors: readonly FieldError[]): string {
  const listed = errors.map(String);
  return listed.length === 1 ? listed[0]! : `[${listed.join(', ')}]`;
}

/** The 422 Invalid status error (`<Kind>.<group> "<name>" is invalid: …`); the runtime keeps its code and reason. */
export class InvalidError extends Error {
  readonly code = 422;
  readonly reason = 'Invalid';

  constructor(
    readonly qualifiedKind: string,
    readonly objectName: string,
    readonly causes: readonly FieldError[],
  ) {
    super(`${qualifiedKind} ${JSON.stringify(objectName)} is invalid: ${aggregateMessage(causes)}`);
    this.name = 'InvalidError';
  }
}

/** Throws an InvalidError for `errors` if there are any. */
export function throwIfInvalid(qualifiedKind: string, objectName: string, errors: readonly FieldError[]): void {
  if (errors.length) throw new InvalidError(qualifiedKind, objectName, errors);
}
