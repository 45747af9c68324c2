/**
 * Kubernetes field errors and the 422 `Invalid` error for the webhooks and the option evaluator: kubeforge's
 * one field-error module (apimachinery's `field.Error` and `apierrors.NewInvalid`, from kubeforge/runtime).
 * Only the rendering of values is Furiko's own here (`shown` below, go-values.ts): nil as `"null"`, times in Go's
 * time format, maps and structs in Go's `%#v` form, as Furiko's webhooks print them.
 */
import { field, newInvalid, type FieldError } from 'kubeforge/runtime';

export type { FieldError };

/**
 * A bad value as Furiko's webhooks print it: nil as `"null"` (Go turns it into the string "null", then quotes
 * it); everything else as the shared module renders it (strings quoted, numbers and booleans bare,
 * go-values.ts's already-rendered values as they are, lists and maps as Go's `%#v` of an `interface{}`).
 */
const shown = (value: unknown): unknown => (value === null || value === undefined ? new field.GoSyntaxValue('"null"') : value);

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
