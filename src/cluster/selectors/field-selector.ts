/**
 * Field selectors (`metadata.name=x,status.phase!=Running`): only `=`, `==` and `!=`, values compared
 * as strings, and only the fields each kind supports — anything else is the real 400.
 */
import { badRequest } from '../errors/status-errors.js';
import type { ResourceType } from '../registry/resource-type.js';
import type { KubeObject } from '../store/object-store.js';

export interface FieldRequirement {
  field: string;
  op: '=' | '!=';
  value: string;
}

export type FieldSelector = FieldRequirement[];

export function parseFieldSelector(text: string | undefined): FieldSelector {
  if (!text) return [];
  return text
    .split(',')
    .map((t) => t.trim())
    .filter((t) => t !== '')
    .map((term) => {
      const m = /^([^=!]+?)\s*(==|=|!=)\s*(.*)$/.exec(term);
      if (!m) throw badRequest(`invalid selector: '${text}'; can't understand '${term}'`);
      return { field: m[1]!, op: m[2] === '!=' ? '!=' : '=', value: m[3]! };
    });
}

/** Field values an object exposes to selectors through `rt`. */
export function fieldValues(rt: ResourceType, object: KubeObject): Record<string, string> {
  const values: Record<string, string> = { 'metadata.name': object.metadata.name ?? '' };
  if (rt.namespaced) values['metadata.namespace'] = object.metadata.namespace ?? '';
  return { ...values, ...(rt.strategy.fieldLabels?.(object) ?? {}) };
}

/** Rejects fields the kind does not support (checked against a sample object's field set). */
export function checkFieldSelector(rt: ResourceType, selector: FieldSelector): void {
  const sample: KubeObject = { metadata: { name: '', namespace: '' } };
  const known = fieldValues(rt, sample);
  for (const r of selector) {
    if (r.field in known) continue;
    if (rt.custom || !rt.strategy.fieldLabels) {
      throw badRequest(`"${r.field}" is not a known field selector: only "metadata.name", "metadata.namespace"`);
    }
    throw badRequest(`field label not supported: ${r.field}`);
  }
}

export function matchesFields(rt: ResourceType, selector: FieldSelector, object: KubeObject): boolean {
  if (selector.length === 0) return true;
  const values = fieldValues(rt, object);
  return selector.every((r) => (r.op === '=' ? values[r.field] === r.value : values[r.field] !== r.value));
}
