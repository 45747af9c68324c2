/**
 * Kubernetes field errors and the 422 `Invalid` error for the webhooks and the option evaluator: kubeforge's
 * one field-error module (apimachinery's `field.Error` and `apierrors.NewInvalid`, from kubeforge/runtime).
 * Only the rendering of values is Furiko's own here (formatValue, go-values.ts): nil as `"null"`, times in Go's
 * time format, maps and structs in Go's `%#v` form, as Furiko's webhooks print them.
 */
import { field, newInvalid, type FieldError } from 'kubeforge/runtime';
import { GoRendered, goSyntax } from './go-values.js';

export type { FieldError };

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

/** The value as Furiko's webhooks render it, handed to the shared module as already rendered. */
const shown = (value: unknown): field.GoSyntaxValue => new field.GoSyntaxValue(formatValue(value));

export const required = field.required;
export const forbidden = field.forbidden;
export const tooMany = field.tooMany;
export const invalid = (path: string, value: unknown, detail?: string): FieldError => field.invalid(path, shown(value), detail);
export const notFound = (path: string, value: unknown): FieldError => field.notFound(path, shown(value));
export const duplicate = (path: string, value: unknown): FieldError => field.duplicate(path, shown(value));
export const notSupported = (path: string, value: unknown, supported: readonly string[]): FieldError => field.notSupported(path, shown(value), supported);

/** Joins errors as apimachinery's aggregate does: one bare, several in brackets. */
export const aggregateMessage = field.aggregateText;

/** Throws apierrors.NewInvalid for `errors` of `qualifiedKind` (`JobConfig.execution.furiko.io`) if there are any. */
export function throwIfInvalid(qualifiedKind: string, objectName: string, errors: readonly FieldError[]): void {
  const dot = qualifiedKind.indexOf('.');
  const groupKind = dot < 0 ? { group: '', kind: qualifiedKind } : { group: qualifiedKind.slice(dot + 1), kind: qualifiedKind.slice(0, dot) };
  if (errors.length) throw newInvalid(groupKind, objectName, errors);
}
