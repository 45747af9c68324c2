/**
 * Which admission webhooks apply to a request: the rules (operations, API groups, versions,
 * resources with subresources, scope), the namespace and object label selectors, of every stored
 * Mutating- or ValidatingWebhookConfiguration, in name order.
 */
import type { LabelSelector } from 'kubernetes-types/meta/v1.js';
import type { MutatingWebhook, RuleWithOperations } from 'kubernetes-types/admissionregistration/v1.js';
import type { KubeObject, ObjectStore } from '../store/object-store.js';
import { labelSelectorToString, matchesLabels, parseLabelSelector } from '../selectors/label-selector.js';
import { copyObject } from '../store/copy-object.js';

export type AdmissionOperation = 'CREATE' | 'UPDATE' | 'DELETE';

export interface AdmissionAttributes {
  operation: AdmissionOperation;
  group: string;
  version: string;
  resource: string;
  subresource?: string;
  namespace?: string;
  namespaced: boolean;
  /** Labels of the object (new for create/update, old for delete). */
  objectLabels?: Record<string, string>;
  oldObjectLabels?: Record<string, string>;
}

export interface MatchedWebhook {
  configuration: string;
  /** The webhook as configured (a validating webhook has no reinvocationPolicy). */
  webhook: MutatingWebhook;
  /**
   * The other version of the same resource the webhook's rules name (matchPolicy Equivalent): the
   * webhook then receives the object converted to it, and its kind and resource in it.
   */
  equivalentVersion?: string;
}

const buckets = {
  mutating: 'mutatingwebhookconfigurations.admissionregistration.k8s.io',
  validating: 'validatingwebhookconfigurations.admissionregistration.k8s.io',
};

/** A webhook rule: kubernetes-types' RuleWithOperations leaves out the fields of the Rule it embeds in Go. */
export type WebhookRule = RuleWithOperations & { resources?: string[]; scope?: string };

const listMatches = (list: string[] | undefined, value: string): boolean => (list ?? []).some((v) => v === '*' || v === value);

function ruleMatches(rule: WebhookRule, a: AdmissionAttributes): boolean {
  if (!listMatches(rule.operations, a.operation)) return false;
  if (!listMatches(rule.apiGroups, a.group) || !listMatches(rule.apiVersions, a.version)) return false;
  const target = a.subresource ? `${a.resource}/${a.subresource}` : a.resource;
  const resources: string[] = rule.resources ?? [];
  const resourceOk = resources.some((r) => r === '*/*' || r === target || (r === '*' && !a.subresource) || (a.subresource && r === `*/${a.subresource}`) || (r === `${a.resource}/*` && a.subresource));
  if (!resourceOk) return false;
  const scope = rule.scope ?? '*';
  return scope === '*' || (scope === 'Namespaced' ? a.namespaced : !a.namespaced);
}

function selectorMatches(selector: LabelSelector | undefined, labels: Record<string, string> | undefined): boolean {
  if (!selector || Object.keys(selector).length === 0) return true;
  return matchesLabels(parseLabelSelector(labelSelectorToString(selector as never)), labels ?? {});
}

/** Whether the webhook's rules name the request, or else (matchPolicy Equivalent, the default) which other version they name. */
function matchedVersion(webhook: MutatingWebhook, a: AdmissionAttributes, equivalentVersions: string[]): { matched: boolean; version?: string } {
  const rules: WebhookRule[] = webhook.rules ?? [];
  if (rules.some((r) => ruleMatches(r, a))) return { matched: true };
  if ((webhook.matchPolicy ?? 'Equivalent') !== 'Equivalent') return { matched: false };
  const version = equivalentVersions.find((v) => v !== a.version && rules.some((r) => ruleMatches(r, { ...a, version: v })));
  return version ? { matched: true, version } : { matched: false };
}

/** Whether any Mutating- or ValidatingWebhookConfiguration is stored (none: no webhook can apply to anything). */
export function anyWebhookConfigured(store: ObjectStore): boolean {
  return store.peekAny(buckets.mutating) || store.peekAny(buckets.validating);
}

/** `equivalentVersions`: the other served versions of the same resource (a CRD's versions), in order. */
export function matchingWebhooks(store: ObjectStore, kind: 'mutating' | 'validating', a: AdmissionAttributes, equivalentVersions: string[] = []): MatchedWebhook[] {
  const out: MatchedWebhook[] = [];
  const namespace: KubeObject | undefined = a.namespace ? (store.peek('namespaces', undefined, a.namespace) as KubeObject | undefined) : undefined;
  // the stored configurations read in place (every write asks); a matched webhook is handed out as a copy
  for (const config of store.listShared(buckets[kind])) {
    for (const webhook of (config.webhooks ?? []) as MutatingWebhook[]) {
      const match = matchedVersion(webhook, a, equivalentVersions);
      if (!match.matched) continue;
      if (a.namespaced && a.namespace && !selectorMatches(webhook.namespaceSelector, namespace?.metadata.labels)) continue;
      const objectOk = selectorMatches(webhook.objectSelector, a.objectLabels) || selectorMatches(webhook.objectSelector, a.oldObjectLabels);
      if (!objectOk) continue;
      out.push({ configuration: config.metadata.name, webhook: copyObject(webhook), ...(match.version ? { equivalentVersion: match.version } : {}) });
    }
  }
  return out;
}
