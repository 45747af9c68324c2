/**
 * policy/v1 PodDisruptionBudgets: defaulting, the 1.32 validation (minAvailable and maxUnavailable
 * mutually exclusive, non-negative integers or percentages up to 100%, selector), an empty status at
 * creation (the disruption controller fills it) and the `kubectl get pdb` columns.
 */
import type { LabelSelector, LabelSelectorRequirement } from 'kubernetes-types/meta/v1.js';
import { type FieldError, GoSyntaxValue, goQuote, invalid, notSupported } from '../../errors/field-errors.js';
import type { PodDisruptionBudget, PodDisruptionBudgetSpec } from 'kubernetes-types/policy/v1.js';
import type { KubeObject } from '../../store/object-store.js';
import { asStored } from '../../store/kube-object.js';
import { defineKind } from '../define-kind.js';
import { age, ageColumn, column, nameColumn } from '../table-format.js';

const percentMessage = "a valid percent string must be a numeric string followed by an ending '%' (e.g. '1%',  or '93%', regex used for validation is '[0-9]+%')";
const evictionPolicies = ['AlwaysAllow', 'IfHealthyBudget'];
const selectorOperators = ['DoesNotExist', 'Exists', 'In', 'NotIn'];

/** An int-or-string as apimachinery renders it in field errors (Go %#v of intstr.IntOrString). */
function intOrStringValue(v: unknown): GoSyntaxValue {
  return typeof v === 'number'
    ? new GoSyntaxValue(`intstr.IntOrString{Type:0, IntVal:${v}, StrVal:""}`)
    : new GoSyntaxValue(`intstr.IntOrString{Type:1, IntVal:0, StrVal:${goQuote(String(v))}}`);
}

function validateIntOrPercent(v: unknown, path: string): FieldError[] {
  if (typeof v === 'number') return v < 0 ? [invalid(path, v, 'must be greater than or equal to 0')] : [];
  if (typeof v !== 'string') return [invalid(path, intOrStringValue(String(v)), "must be an integer or percentage (e.g '5%')")];
  if (!/^[0-9]+%$/.test(v)) return [invalid(path, intOrStringValue(v), percentMessage)];
  return parseInt(v, 10) > 100 ? [invalid(path, intOrStringValue(v), 'must not be greater than 100%')] : [];
}

/** Go's %#v of the spec struct: pointers print as addresses, which differ on every real server too. */
function specValue(spec: PodDisruptionBudgetSpec): GoSyntaxValue {
  const pointer = (set: unknown, type: string, address: string): string => (set === undefined || set === null ? `(${type})(nil)` : `(${type})(${address})`);
  return new GoSyntaxValue(
    `policy.PodDisruptionBudgetSpec{MinAvailable:${pointer(spec.minAvailable, '*intstr.IntOrString', '0xc000a1e0a0')}, Selector:${pointer(spec.selector, '*v1.LabelSelector', '0xc000b2c1e0')}, MaxUnavailable:${pointer(spec.maxUnavailable, '*intstr.IntOrString', '0xc000a1e0c0')}, UnhealthyPodEvictionPolicy:${pointer(spec.unhealthyPodEvictionPolicy, '*policy.UnhealthyPodEvictionPolicyType', '0xc000c3d2f0')}}`,
  );
}

function validateSelector(selector: LabelSelector | undefined, path: string): FieldError[] {
  const errs: FieldError[] = [];
  (selector?.matchExpressions ?? []).forEach((e: LabelSelectorRequirement | undefined, i: number) => {
    const p = `${path}.matchExpressions[${i}]`;
    const operator = e?.operator;
    const values = e?.values ?? [];
    if (!selectorOperators.includes(operator as string)) errs.push(invalid(`${p}.operator`, operator ?? '', 'not a valid selector operator'));
    else if ((operator === 'In' || operator === 'NotIn') && !values.length) errs.push({ type: 'FieldValueRequired', field: `${p}.values`, detail: 'must be specified when `operator` is \'In\' or \'NotIn\'' });
    else if ((operator === 'Exists' || operator === 'DoesNotExist') && values.length) errs.push({ type: 'FieldValueForbidden', field: `${p}.values`, detail: 'may not be specified when `operator` is \'Exists\' or \'DoesNotExist\'' });
  });
  return errs;
}

function validateBudget(o: KubeObject): FieldError[] {
  const spec: PodDisruptionBudgetSpec = asStored<PodDisruptionBudget>(o).spec ?? {};
  const errs: FieldError[] = [];
  const has = (v: unknown): boolean => v !== undefined && v !== null;
  if (has(spec.minAvailable) && has(spec.maxUnavailable)) errs.push(invalid('spec', specValue(spec), 'minAvailable and maxUnavailable cannot be both set'));
  if (has(spec.minAvailable)) errs.push(...validateIntOrPercent(spec.minAvailable, 'spec.minAvailable'));
  if (has(spec.maxUnavailable)) errs.push(...validateIntOrPercent(spec.maxUnavailable, 'spec.maxUnavailable'));
  if (spec.selector) errs.push(...validateSelector(spec.selector, 'spec.selector'));
  if (has(spec.unhealthyPodEvictionPolicy) && !evictionPolicies.includes(spec.unhealthyPodEvictionPolicy!)) {
    errs.push(notSupported('spec.unhealthyPodEvictionPolicy', spec.unhealthyPodEvictionPolicy, evictionPolicies));
  }
  return errs;
}

const budgetValue = (v: unknown): string => (v === undefined || v === null ? 'N/A' : String(v));

export const podDisruptionBudgets = defineKind({
  group: 'policy',
  resource: 'poddisruptionbudgets',
  kind: 'PodDisruptionBudget',
  namespaced: true,
  shortNames: ['pdb'],
  statusSubresource: true,
  hasGeneration: true,
  fields: ['spec', 'status'],
  table: {
    columns: [
      nameColumn,
      column('Min Available', 'string', 'The minimum number of pods that must be available.'),
      column('Max Unavailable', 'string', 'The maximum number of pods that may be unavailable.'),
      column('Allowed Disruptions', 'integer', 'Calculated number of pods that may be disrupted at this time.'),
      ageColumn,
    ],
    cells: (o, now) => {
      const budget = asStored<PodDisruptionBudget>(o);
      return [o.metadata.name, budgetValue(budget.spec?.minAvailable), budgetValue(budget.spec?.maxUnavailable), budget.status?.disruptionsAllowed ?? 0, age(o.metadata.creationTimestamp, now)];
    },
  },
  strategy: {
    prepareForCreate(o) {
      o.spec ??= {};
      o.status = { disruptionsAllowed: 0, currentHealthy: 0, desiredHealthy: 0, expectedPods: 0 };
    },
    validateCreate: validateBudget,
    validateUpdate: (o) => validateBudget(o),
  },
});
