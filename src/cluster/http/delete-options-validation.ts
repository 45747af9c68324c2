/**
 * DeleteOptions validation as apimachinery 1.32's `ValidateDeleteOptions`, which the API server runs on every
 * delete (the DELETE handler, and `rest.BeforeDelete` inside the store's Delete, so the eviction subresource's
 * delete too): a propagationPolicy that is not Foreground, Background or Orphan, or one given together with
 * orphanDependents, is a 422 Invalid for `DeleteOptions.meta.k8s.io ""`.
 */
import type { DeleteOptions } from 'kubernetes-types/meta/v1.js';
import { invalid, notSupported, type FieldError } from '../errors/field-errors.js';
import { invalidObject } from '../errors/status-errors.js';

const POLICIES = ['Foreground', 'Background', 'Orphan'];

/** Throws the API server's 422 Invalid for DeleteOptions it refuses; nothing for good ones. */
export function validateDeleteOptions(options: Pick<DeleteOptions, 'propagationPolicy' | 'orphanDependents'>): void {
  const errors: FieldError[] = [];
  const policy = options.propagationPolicy ?? undefined;
  const orphan = options.orphanDependents ?? undefined;
  if (orphan !== undefined && policy !== undefined) errors.push(invalid('propagationPolicy', policy, 'orphanDependents and deletionPropagation cannot be both set'));
  if (policy !== undefined && !POLICIES.includes(policy)) errors.push(notSupported('propagationPolicy', policy, [...POLICIES, 'nil']));
  if (errors.length > 0) throw invalidObject('DeleteOptions', 'meta.k8s.io', '', errors);
}
