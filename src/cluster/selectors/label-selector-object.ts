/**
 * metav1.LabelSelector objects (`matchLabels` + `matchExpressions`) and the map selectors of
 * ReplicationControllers, turned into label requirements and matched against labels, as
 * apimachinery's LabelSelectorAsSelector and labels.SelectorFromSet do.
 */
import { type LabelSelector, matchesLabels } from './label-selector.js';

export interface LabelSelectorObject {
  matchLabels?: Record<string, string>;
  matchExpressions?: Array<{ key: string; operator: string; values?: string[] }>;
}

const operators: Record<string, LabelSelector[number]['op']> = { In: 'in', NotIn: 'notin', Exists: 'exists', DoesNotExist: '!' };

/** The requirements of a LabelSelector object; an unknown operator matches nothing. */
export function requirementsOf(selector: LabelSelectorObject | undefined): LabelSelector | undefined {
  const requirements: LabelSelector = Object.entries(selector?.matchLabels ?? {}).map(([key, value]) => ({ key, op: '=', values: [value] }));
  for (const e of selector?.matchExpressions ?? []) {
    const op = operators[e.operator];
    if (!op) return undefined;
    requirements.push({ key: e.key, op, values: e.values ?? [] });
  }
  return requirements;
}

/** True when `labels` match `selector`; an empty selector matches everything (callers reject it first). */
export function selectorMatches(selector: LabelSelectorObject | undefined, labels: Record<string, string> | undefined): boolean {
  const requirements = requirementsOf(selector);
  return requirements !== undefined && matchesLabels(requirements, labels);
}

/** A map selector (ReplicationController's `spec.selector`) as a LabelSelector object. */
export const fromSelectorMap = (selector: Record<string, string> | undefined): LabelSelectorObject => ({ matchLabels: { ...(selector ?? {}) } });

export const isEmptySelector = (selector: LabelSelectorObject | undefined): boolean =>
  Object.keys(selector?.matchLabels ?? {}).length + (selector?.matchExpressions ?? []).length === 0;
