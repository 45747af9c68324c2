/**
 * Kubernetes field errors and the 422 `Invalid` error for the webhooks and the option evaluator: kubeforge's
 * one field-error module (apimachinery's `field.Error` and `apierrors.NewInvalid`, from kubeforge/runtime).
 * Only the rendering of a struct or list value is Furiko's own here: JSON (Go's %#v of a Furiko type cannot
 * be reproduced), so `spec.startPolicy: Invalid value: {"concurrencyPolicy":"Allow"}: …`.
 */
import { field, newInvalid, type FieldError } from 'kubeforge/runtime';

export type { FieldError };

/** A struct or list value shown as JSON; scalars as apimachinery renders them. */
const shown = (value: unknown): unknown => (value !== null && typeof value === 'object' ? new field.GoSyntaxValue(JSON.stringify(value)) : value);

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
