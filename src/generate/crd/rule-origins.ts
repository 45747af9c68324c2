/**
 * Where each generated `x-kubernetes-validations` rule came from: the marker that made it
 * (`+kubebuilder:validation:XValidation`, `+k8s:immutable`, `+kubebuilder:validation:ExactlyOneOf` …), so a
 * rule the API server would refuse (cel-check.ts) is reported at that marker's file:line:col. Rules are
 * keyed by object identity: the schema builder shares rule objects between copies of a node, never clones them.
 */
import type { Marker, SourcePosition } from '../../markers/types.js';

export interface RuleOrigin {
  position: SourcePosition;
  /** The marker's name with its `+`, as the user wrote it (`+kubebuilder:validation:XValidation`). */
  marker: string;
}

const origins = new WeakMap<object, RuleOrigin>();

/** The marker's name as written: `items:` markers reach the schema builder under the name of the marker they apply. */
function writtenName(marker: Marker): string {
  if (marker.text.startsWith(`+${marker.name}`)) return `+${marker.name}`;
  const items = `+kubebuilder:validation:items:${marker.name.split(':').pop()}`;
  return marker.text.startsWith(items) ? items : `+${marker.name}`;
}

/** Notes that `rule` was made by `marker`; returns the rule. */
export function withRuleOrigin<T extends object>(rule: T, marker: Marker): T {
  origins.set(rule, { position: marker.position, marker: writtenName(marker) });
  return rule;
}

/** The marker that made `rule` (undefined for rules of the Kubernetes type catalogue). */
export function ruleOrigin(rule: object): RuleOrigin | undefined {
  return origins.get(rule);
}
