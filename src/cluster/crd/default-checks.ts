/**
 * Checks of `default:` values when a CRD is written: a default may not stand under the root
 * `metadata`, must survive pruning (`must not have unknown fields`) and must validate against its own
 * schema — the classic `+kubebuilder:default` mistake is rejected here as on a real cluster.
 */
import { type FieldError, forbidden, invalid } from '../errors/field-errors.js';
import { pruneUnknown } from './prune-and-default.js';
import { validateValue } from './schema-validation.js';

import type { CrdSchema as Schema } from './crd-schema.js';
import { copyObject } from '../store/copy-object.js';

const isObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);

/** `schemaPath` addresses the node in the CRD; `jsonPath` is the field it describes (`spec.replicas`). */
function check(schema: Schema, schemaPath: string, jsonPath: string, errs: FieldError[]): void {
  if (schema.default !== undefined) {
    const probe: Record<string, unknown> = { value: copyObject(schema.default) };
    const unknown = pruneUnknown(probe, { type: 'object', properties: { value: schema } });
    if (unknown.length) {
      errs.push(invalid(`${schemaPath}.default`, schema.default, `must not have unknown fields: ${unknown.map((u) => u.replace(/^value\.?/, '')).join(', ')}`));
    }
    for (const e of validateValue(probe.value, schema, jsonPath)) errs.push({ ...e, field: `${schemaPath}.default` });
  }
  for (const [name, child] of Object.entries(schema.properties ?? {})) {
    if (isObject(child)) check(child, `${schemaPath}.properties[${name}]`, `${jsonPath}.${name}`, errs);
  }
  if (isObject(schema.items)) check(schema.items, `${schemaPath}.items`, `${jsonPath}[0]`, errs);
  if (isObject(schema.additionalProperties)) check(schema.additionalProperties, `${schemaPath}.additionalProperties`, `${jsonPath}[key]`, errs);
}

export function defaultErrors(root: Schema, path: string): FieldError[] {
  const errs: FieldError[] = [];
  const meta = root.properties?.metadata;
  if (isObject(meta)) {
    const walkMeta = (s: Schema, p: string): void => {
      if (s.default !== undefined) errs.push(forbidden(`${p}.default`, 'must not be set in top-level metadata'));
      for (const [n, c] of Object.entries(s.properties ?? {})) if (isObject(c)) walkMeta(c, `${p}.properties[${n}]`);
    };
    walkMeta(meta, `${path}.properties[metadata]`);
  }
  for (const [name, child] of Object.entries(root.properties ?? {})) {
    if (name !== 'metadata' && isObject(child)) check(child, `${path}.properties[${name}]`, name, errs);
  }
  return errs;
}
