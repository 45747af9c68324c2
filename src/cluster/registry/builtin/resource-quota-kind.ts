/**
 * core/v1 ResourceQuota: hard limits per namespace (spec.hard, scopes, scopeSelector) with the 1.32
 * validation; status (hard, used) is written by the resource quota controller and by the ResourceQuota
 * admission plugin as objects are created (src/cluster/admission/plugins/resource-quota-admission.ts).
 */
import type { ResourceQuota, ScopeSelector, ScopedResourceSelectorRequirement } from 'kubernetes-types/core/v1.js';
import { type FieldError, GoSyntaxValue, goQuote, invalid, notSupported, required } from '../../errors/field-errors.js';
import type { KubeObject } from '../../store/object-store.js';
import { asStored } from '../../store/kube-object.js';
import { canonicalQuantity, formatQuantity, quantityOf } from '../../admission/resource-quantities.js';
import { containerConstrainedResources } from '../../admission/quota-usage.js';
import { defineKind } from '../define-kind.js';
import { age, ageColumn, column, nameColumn } from '../table-format.js';
import { standardQuotaResources, validateResourceListNames } from './resource-names.js';

const isObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);

export const quotaScopes = ['Terminating', 'NotTerminating', 'BestEffort', 'NotBestEffort', 'PriorityClass', 'CrossNamespacePodAffinity'];

const integerResources = ['pods', 'services', 'replicationcontrollers', 'resourcequotas', 'secrets', 'configmaps', 'persistentvolumeclaims', 'services.nodeports', 'services.loadbalancers'];
const isIntegerResource = (name: string): boolean => integerResources.includes(name) || name.startsWith('count/');

/** The resources a scope may limit (helper.IsResourceQuotaScopeValidForResource). */
function scopeValidFor(scope: string, resource: string): boolean {
  const podCounts = ['pods', 'count/pods'];
  const compute = containerConstrainedResources;
  if (scope === 'BestEffort') return podCounts.includes(resource);
  return podCounts.includes(resource) || compute.includes(resource);
}

function validateQuantities(list: Record<string, unknown>, path: string): FieldError[] {
  const errs: FieldError[] = [...validateResourceListNames(list, path, true)];
  for (const [k, v] of Object.entries(list)) {
    const q = quantityOf(v);
    if (!q) continue;
    const text = formatQuantity(q);
    if (q.num < 0n) errs.push(invalid(`${path}[${k}]`, text, 'must be greater than or equal to 0'));
    if (isIntegerResource(k) && !q.isInteger()) errs.push(invalid(`${path}[${k}]`, text, 'must be an integer'));
  }
  return errs;
}

function validateScopes(spec: Record<string, unknown>): FieldError[] {
  const errs: FieldError[] = [];
  const scopes: string[] = Array.isArray(spec.scopes) ? spec.scopes : [];
  if (scopes.length === 0) return errs;
  const hard = Object.keys(isObject(spec.hard) ? spec.hard : {}).sort();
  // the server prints the Go value of the list: []core.ResourceQuotaScope{"BestEffort"}
  const value = new GoSyntaxValue(`[]core.ResourceQuotaScope{${scopes.map((s) => goQuote(String(s))).join(', ')}}`);
  for (const scope of scopes) {
    if (!quotaScopes.includes(scope)) errs.push(invalid('spec.scopes', value, 'unsupported scope'));
    for (const k of hard) {
      if (standardQuotaResources.includes(k) && !scopeValidFor(scope, k)) errs.push(invalid('spec.scopes', value, 'unsupported scope applied to resource'));
    }
  }
  for (const [a, b] of [['BestEffort', 'NotBestEffort'], ['Terminating', 'NotTerminating']] as const) {
    if (scopes.includes(a) && scopes.includes(b)) errs.push(invalid('spec.scopes', value, 'conflicting scopes'));
  }
  return errs;
}

function validateScopeSelector(spec: Record<string, unknown>): FieldError[] {
  const errs: FieldError[] = [];
  const selector = spec.scopeSelector as ScopeSelector | undefined;
  const expressions: Array<ScopedResourceSelectorRequirement | undefined> = Array.isArray(selector?.matchExpressions) ? selector.matchExpressions : [];
  expressions.forEach((e, i) => {
    const path = `spec.scopeSelector.matchExpressions[${i}]`;
    if (!quotaScopes.includes(e?.scopeName as string)) errs.push(invalid(`${path}.scopeName`, e?.scopeName ?? '', 'unsupported scope'));
    const values: unknown[] = Array.isArray(e?.values) ? e.values : [];
    switch (e?.operator) {
      case 'In':
      case 'NotIn':
        if (values.length === 0) errs.push(required(`${path}.values`, "must be at least one value when `operator` is 'In' or 'NotIn' for scope selector"));
        break;
      case 'Exists':
      case 'DoesNotExist':
        if (values.length > 0) errs.push(invalid(`${path}.values`, values, "must be no value when `operator` is 'Exist' or 'DoesNotExist' for scope selector"));
        break;
      default:
        errs.push(invalid(`${path}.operator`, e?.operator ?? '', 'not a valid selector operator'));
    }
    if (['Terminating', 'NotTerminating', 'BestEffort', 'NotBestEffort'].includes(e?.scopeName as string) && e?.operator !== 'Exists') {
      errs.push(invalid(`${path}.operator`, e?.operator ?? '', 'must be \'Exist\' when scope is any of ResourceQuotaScopeTerminating, ResourceQuotaScopeNotTerminating, ResourceQuotaScopeBestEffort or ResourceQuotaScopeNotBestEffort'));
    }
  });
  return errs;
}

export function validateResourceQuota(o: KubeObject): FieldError[] {
  const spec = isObject(o.spec) ? o.spec : {};
  const errs = [...validateQuantities(isObject(spec.hard) ? spec.hard : {}, 'spec.hard'), ...validateScopes(spec), ...validateScopeSelector(spec)];
  if (isObject(o.status)) {
    errs.push(...validateQuantities(isObject(o.status.hard) ? o.status.hard : {}, 'status.hard'));
    errs.push(...validateQuantities(isObject(o.status.used) ? o.status.used : {}, 'status.used'));
  }
  for (const s of Array.isArray(spec.scopes) ? spec.scopes : []) if (typeof s !== 'string') errs.push(notSupported('spec.scopes', s, quotaScopes));
  return errs;
}

/** Quantities are stored canonical (`1000m` → `1`), as the API server serializes them. */
function canonical(list: unknown): void {
  if (!isObject(list)) return;
  for (const k of Object.keys(list)) list[k] = canonicalQuantity(list[k]);
}

function canonicalQuota(o: KubeObject): void {
  const quota = asStored<ResourceQuota>(o);
  canonical(quota.spec?.hard);
  canonical(quota.status?.hard);
  canonical(quota.status?.used);
}

/** `requests.cpu: 500m/1, pods: 1/2` (Request) and `limits.cpu: 1/2` (Limit), as the 1.32 printer writes them. */
function quotaColumns(o: KubeObject): [string, string] {
  const status = asStored<ResourceQuota>(o).status;
  const hard: Record<string, string> = status?.hard ?? {};
  const used: Record<string, string> = status?.used ?? {};
  const request: string[] = [];
  const limit: string[] = [];
  for (const k of Object.keys(hard).sort()) {
    const cell = `${k}: ${used[k] ?? '0'}/${hard[k]}`;
    const pieces = k.split('.');
    (pieces.length > 1 && pieces[0] === 'limits' ? limit : request).push(cell);
  }
  return [request.join(', '), limit.join(', ')];
}

export const resourceQuotas = defineKind({
  resource: 'resourcequotas',
  kind: 'ResourceQuota',
  namespaced: true,
  shortNames: ['quota'],
  statusSubresource: true,
  fields: ['spec', 'status'],
  table: {
    columns: [
      nameColumn,
      ageColumn,
      column('Request', 'string', 'Request represents a minimum amount of cpu/memory that a container may consume.'),
      column('Limit', 'string', 'Limits control the maximum amount of cpu/memory that a container may use independent of contention on the node.'),
    ],
    cells: (o, now) => [o.metadata.name, age(o.metadata.creationTimestamp, now), ...quotaColumns(o)],
  },
  strategy: {
    prepareForCreate(o) {
      delete o.status;
      canonicalQuota(o);
    },
    prepareForUpdate(o) {
      canonicalQuota(o);
    },
    validateCreate: validateResourceQuota,
    validateUpdate: validateResourceQuota,
  },
});
