/**
 * core/v1 LimitRange: per-namespace minimum, maximum, default and ratio constraints on the resources
 * of Containers, Pods and PersistentVolumeClaims, with the 1.32 defaulting (default ← max, defaultRequest
 * ← default ← min for Containers) and validation (min ≤ defaultRequest ≤ default ≤ max, ratio ≥ 1). The
 * LimitRanger admission plugin (src/cluster/admission/plugins/limit-ranger.ts) applies them to pods.
 */
import type { LimitRange, LimitRangeItem } from 'kubernetes-types/core/v1.js';
import { type FieldError, forbidden, invalid, required } from '../../errors/field-errors.js';
import type { KubeObject } from '../../store/object-store.js';
import { asStored } from '../../store/kube-object.js';
import { type Quantity, canonicalQuantity, formatQuantity, quantityOf } from '../../admission/resource-quantities.js';
import { defineKind } from '../define-kind.js';
import { qualifiedNameErrors } from '../object-meta.js';
import { nameColumn } from '../table-format.js';
import { validateResourceListNames } from './resource-names.js';

const isObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);

/** SetDefaults_LimitRangeItem: for Containers, default ← max, defaultRequest ← default, then ← min. */
export function defaultLimitRangeItem(item: LimitRangeItem): void {
  if (item.type !== 'Container') return;
  const fill = (target: 'default' | 'defaultRequest', from: Record<string, string> | undefined): void => {
    for (const [k, v] of Object.entries(from ?? {})) {
      const filled = (item[target] ??= {});
      if (!(k in filled)) filled[k] = v;
    }
  };
  fill('default', item.max);
  fill('defaultRequest', item.default);
  fill('defaultRequest', item.min);
}

function defaultLimitRange(o: KubeObject): void {
  const spec = asStored<LimitRange>(o).spec;
  const items: Array<LimitRangeItem | null> = Array.isArray(spec?.limits) ? spec.limits : [];
  for (const item of items) if (isObject(item)) defaultLimitRangeItem(item);
}

const quantityValue = (q: Quantity): string => q.text;

/** ValidateLimitRange (1.32 pkg/apis/core/validation). */
export function validateLimitRange(o: KubeObject): FieldError[] {
  const errs: FieldError[] = [];
  const spec = asStored<LimitRange>(o).spec;
  const limits: unknown[] = Array.isArray(spec?.limits) ? spec.limits : [];
  const seenTypes = new Set<string>();
  limits.forEach((limit, i) => {
    const path = `spec.limits[${i}]`;
    if (!isObject(limit)) return;
    const type = String(limit.type ?? '');
    errs.push(...limitTypeErrors(type, `${path}.type`));
    if (seenTypes.has(type)) errs.push({ type: 'FieldValueDuplicate', field: `${path}.type`, value: type });
    seenTypes.add(type);
    const maps: Record<string, Record<string, Quantity>> = { min: {}, max: {}, default: {}, defaultRequest: {}, maxLimitRequestRatio: {} };
    const keys = new Set<string>();
    for (const field of Object.keys(maps)) {
      const list = isObject(limit[field]) ? limit[field] : {};
      errs.push(...validateResourceListNames(list, `${path}.${field}`));
      for (const [k, v] of Object.entries(list)) {
        const q = quantityOf(v);
        if (!q) continue;
        maps[field]![k] = q;
        if (field !== 'maxLimitRequestRatio') keys.add(k);
      }
    }
    if (type === 'Pod') {
      if (Object.keys(maps.default!).length) errs.push(forbidden(`${path}.default`, "may not be specified when `type` is 'Pod'"));
      if (Object.keys(maps.defaultRequest!).length) errs.push(forbidden(`${path}.defaultRequest`, "may not be specified when `type` is 'Pod'"));
    }
    if (type === 'PersistentVolumeClaim' && !maps.min!.storage && !maps.max!.storage) {
      errs.push(required(`${path}.limits`, 'either minimum or maximum storage value is required, but neither was provided'));
    }
    for (const k of [...keys].sort()) {
      const min = maps.min![k];
      const max = maps.max![k];
      const def = maps.default![k];
      const defReq = maps.defaultRequest![k];
      const at = `${path}[${k}]`;
      if (min && max && min.compare(max) > 0) errs.push(invalid(at, quantityValue(min), `min value ${formatQuantity(min)} is greater than max value ${formatQuantity(max)}`));
      if (defReq && min && min.compare(defReq) > 0) errs.push(invalid(at, quantityValue(defReq), `min value ${formatQuantity(min)} is greater than default request value ${formatQuantity(defReq)}`));
      if (defReq && max && defReq.compare(max) > 0) errs.push(invalid(at, quantityValue(defReq), `default request value ${formatQuantity(defReq)} is greater than max value ${formatQuantity(max)}`));
      if (defReq && def && defReq.compare(def) > 0) errs.push(invalid(at, quantityValue(defReq), `default request value ${formatQuantity(defReq)} is greater than default limit value ${formatQuantity(def)}`));
      if (def && min && min.compare(def) > 0) errs.push(invalid(at, quantityValue(min), `min value ${formatQuantity(min)} is greater than default value ${formatQuantity(def)}`));
      if (def && max && def.compare(max) > 0) errs.push(invalid(at, quantityValue(max), `default value ${formatQuantity(def)} is greater than max value ${formatQuantity(max)}`));
    }
    for (const [k, ratio] of Object.entries(maps.maxLimitRequestRatio!)) {
      const at = `${path}[${k}]`;
      if (ratio.compare(quantityOf('1')!) < 0) errs.push(invalid(at, quantityValue(ratio), `ratio ${formatQuantity(ratio)} is less than 1`));
      const min = maps.min![k];
      const max = maps.max![k];
      if (min && max && Number(formatPlain(min)) > 0) {
        const limit = Number(formatPlain(max)) / Number(formatPlain(min));
        if (Number(formatPlain(ratio)) > limit) errs.push(invalid(at, quantityValue(ratio), `ratio ${formatQuantity(ratio)} is greater than max/min = ${limit.toFixed(6)}`));
      }
    }
  });
  return errs;
}

/** validateLimitRangeTypeName: a qualified name, and a standard type when it has no prefix. */
function limitTypeErrors(type: string, path: string): FieldError[] {
  const qualified = qualifiedNameErrors(type).map((m) => invalid(path, type, m));
  if (qualified.length) return qualified;
  if (!type.includes('/') && !['Pod', 'Container', 'PersistentVolumeClaim'].includes(type)) return [invalid(path, type, 'must be a standard limit type or fully qualified')];
  return [];
}

/** A quantity as a plain decimal number text (for the ratio arithmetic). */
function formatPlain(q: Quantity): string {
  return q.exp >= 0 ? `${q.num * 10n ** BigInt(q.exp)}` : `${Number(q.num) / 10 ** -q.exp}`;
}

/** Quantities are stored in their canonical form, as the API server serializes them. */
function canonicalLimits(o: KubeObject): void {
  const spec = asStored<LimitRange>(o).spec;
  for (const item of Array.isArray(spec?.limits) ? spec.limits : []) {
    if (!isObject(item)) continue;
    for (const field of ['min', 'max', 'default', 'defaultRequest', 'maxLimitRequestRatio']) {
      if (!isObject(item[field])) continue;
      for (const k of Object.keys(item[field])) item[field][k] = canonicalQuantity(item[field][k]);
    }
  }
}

export const limitRanges = defineKind({
  resource: 'limitranges',
  kind: 'LimitRange',
  namespaced: true,
  shortNames: ['limits'],
  fields: ['spec'],
  table: {
    columns: [nameColumn, { name: 'Created At', type: 'date', format: '', description: 'CreationTimestamp is a timestamp representing the server time when this object was created.', priority: 0 }],
    cells: (o) => [o.metadata.name, o.metadata.creationTimestamp],
  },
  strategy: {
    prepareForCreate(o) {
      defaultLimitRange(o);
      canonicalLimits(o);
    },
    prepareForUpdate(o) {
      defaultLimitRange(o);
      canonicalLimits(o);
    },
    validateCreate: validateLimitRange,
    validateUpdate: validateLimitRange,
  },
});
