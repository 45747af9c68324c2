/**
 * ClusterRole aggregation (the clusterrole-aggregation controller): a ClusterRole with an
 * `aggregationRule` gets the union of the rules of every other ClusterRole its selectors match,
 * kept current as those roles are created, changed or deleted.
 */
import type { ClusterRole, PolicyRule } from 'kubernetes-types/rbac/v1.js';
import { labelSelectorToString, matchesLabels, parseLabelSelector } from '../selectors/label-selector.js';
import type { KubeObject, Stored, StoreEvent } from '../store/object-store.js';
import type { ControllerClient } from '../controllers/controller-client.js';
import type { BuiltinController } from '../controllers/controller-scheduler.js';
import { copyObject } from '../store/copy-object.js';

export const clusterRolesBucket = 'clusterroles.rbac.authorization.k8s.io';

/** The rules an aggregated role should hold, given every ClusterRole (sorted by name, duplicates dropped). */
export function aggregatedRules(role: KubeObject, allRoles: KubeObject[]): unknown[] {
  const aggregated: Stored<ClusterRole> = role;
  const selectors = (aggregated.aggregationRule?.clusterRoleSelectors ?? []).map((s) => parseLabelSelector(labelSelectorToString(s)));
  const seen = new Set<string>();
  const rules: PolicyRule[] = [];
  const sources: Array<Stored<ClusterRole>> = allRoles.filter((r) => r.metadata.name !== role.metadata.name).sort((a, b) => (a.metadata.name < b.metadata.name ? -1 : 1));
  for (const source of sources) {
    if (!selectors.some((s) => s.length > 0 && matchesLabels(s, source.metadata.labels))) continue;
    for (const r of source.rules ?? []) {
      const key = JSON.stringify(r);
      if (seen.has(key)) continue;
      seen.add(key);
      rules.push(r);
    }
  }
  return rules;
}

export class ClusterRoleAggregationController implements BuiltinController {
  readonly name = 'clusterrole-aggregation-controller';

  constructor(private readonly client: ControllerClient) {}

  /** Read-only scan of the stored roles (every ClusterRole change asks again: no copies of all of them). */
  private aggregatedNames(): string[] {
    return this.client.listShared('rbac.authorization.k8s.io/clusterroles').filter((r) => r.aggregationRule).map((r) => r.metadata.name);
  }

  initialKeys(): string[] {
    return this.aggregatedNames();
  }

  keysFor(event: StoreEvent): string[] {
    return event.bucket === clusterRolesBucket ? this.aggregatedNames() : [];
  }

  reconcile(name: string): void {
    const role = this.client.get('rbac.authorization.k8s.io/clusterroles', undefined, name);
    if (!role?.aggregationRule) return;
    // the stored roles read in place; the rules taken from them are copied into the write
    const rules = copyObject(aggregatedRules(role, [...this.client.listShared('rbac.authorization.k8s.io/clusterroles')]));
    if (JSON.stringify(rules) === JSON.stringify(role.rules ?? [])) return;
    this.client.update('rbac.authorization.k8s.io/clusterroles', { ...role, rules });
  }
}
