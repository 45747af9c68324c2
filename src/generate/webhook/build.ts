/**
 * The webhook generator (controller-gen §15): the model's webhook declarations (the controllers'
 * `+kubebuilder:webhook` markers, read by src/reader/controller-declarations.ts) → one
 * MutatingWebhookConfiguration and one ValidatingWebhookConfiguration (each only when it has
 * webhooks), with controller-gen's normalisation (Fail/Ignore, CREATE/UPDATE…, core → ""), its checks
 * (path xor url, sideEffects for v1, timeout 1–30 s) and webhooks sorted by name.
 * `+kubebuilder:webhookconfiguration` declarations rename the configurations.
 */
import type { Diagnostic } from '../../markers/types.js';
import type { LabelSelector, WebhookConfigurationDeclaration, WebhookDeclaration } from '../../model/index.js';
import { toYaml } from '../yaml/index.js';

export interface Webhook {
  admissionReviewVersions: string[];
  clientConfig: { url: string } | { service: { name: string; namespace: string; path: string; port?: number } };
  failurePolicy: string;
  matchPolicy?: string;
  name: string;
  namespaceSelector?: LabelSelector;
  objectSelector?: LabelSelector;
  reinvocationPolicy?: string;
  rules: { apiGroups: string[]; apiVersions: string[]; operations: string[]; resources: string[] }[];
  sideEffects: string;
  timeoutSeconds?: number;
}

export interface WebhookConfiguration {
  apiVersion: 'admissionregistration.k8s.io/v1';
  kind: 'MutatingWebhookConfiguration' | 'ValidatingWebhookConfiguration';
  metadata: { name: string };
  webhooks: Webhook[];
}

export interface WebhookManifests {
  /** Mutating first, then validating; each only when it has webhooks. */
  configurations: WebhookConfiguration[];
  diagnostics: Diagnostic[];
}

const OPERATIONS: Record<string, string> = { create: 'CREATE', update: 'UPDATE', delete: 'DELETE', connect: 'CONNECT', '*': '*' };
const FAILURE_POLICIES: Record<string, string> = { fail: 'Fail', ignore: 'Ignore' };
const MATCH_POLICIES: Record<string, string> = { exact: 'Exact', equivalent: 'Equivalent' };
const SIDE_EFFECTS: Record<string, string> = { none: 'None', noneondryrun: 'NoneOnDryRun', some: 'Some', unknown: 'Unknown' };
const REINVOCATION_POLICIES: Record<string, string> = { never: 'Never', ifneeded: 'IfNeeded' };

/** Builds the webhook configurations from the model's declarations (`model.controllers.webhooks` and `.webhookConfigurations`). */
export function buildWebhooks(
  declarations: readonly WebhookDeclaration[],
  configurationDeclarations: readonly WebhookConfigurationDeclaration[] = [],
): WebhookManifests {
  const diagnostics: Diagnostic[] = [];
  const mutating: Webhook[] = [];
  const validating: Webhook[] = [];
  for (const declaration of declarations) {
    const errors: string[] = [];
    const webhook = webhookFrom(declaration, errors);
    diagnostics.push(...errors.map((message) => ({ position: declaration.position, message: `marker ${JSON.stringify(declaration.source)}: ${message}` })));
    if (errors.length === 0) (declaration.mutating ? mutating : validating).push(webhook);
  }
  const names = configurationNames(configurationDeclarations, diagnostics);
  const configurations: WebhookConfiguration[] = [];
  const byName = (a: Webhook, b: Webhook) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0);
  if (mutating.length > 0) configurations.push(configuration('MutatingWebhookConfiguration', names.mutating, mutating.sort(byName)));
  if (validating.length > 0) configurations.push(configuration('ValidatingWebhookConfiguration', names.validating, validating.sort(byName)));
  return { configurations, diagnostics };
}

/** The text of config/webhook/manifests.yaml: each configuration as a `---` document ('' for none). */
export function emitWebhookManifestsYaml(configurations: WebhookConfiguration[], header = ''): string {
  if (configurations.length === 0) return '';
  return header + configurations.map((c) => `---\n${toYaml(c)}`).join('');
}

function configuration(kind: WebhookConfiguration['kind'], name: string, webhooks: Webhook[]): WebhookConfiguration {
  return { apiVersion: 'admissionregistration.k8s.io/v1', kind, metadata: { name }, webhooks };
}

function webhookFrom(declaration: WebhookDeclaration, errors: string[]): Webhook {
  const { mutating, path, url } = declaration;
  const kind = mutating ? 'MutatingWebhookConfiguration' : 'ValidatingWebhookConfiguration';
  for (const version of declaration.webhookVersions) if (version !== 'v1') errors.push(`unsupported webhook version: ${version}`);
  if ((path === undefined) === (url === undefined)) errors.push('`url` or `path` markers are required and mutually exclusive');
  const sideEffects = SIDE_EFFECTS[(declaration.sideEffects ?? '').toLowerCase()];
  if (sideEffects === undefined) errors.push(`SideEffects is required for creating v1 ${kind}`);
  else if (sideEffects === 'Some' || sideEffects === 'Unknown') errors.push(`SideEffects should not be set to \`Some\` or \`Unknown\` for v1 ${kind}`);
  const timeoutSeconds = declaration.timeoutSeconds;
  if (timeoutSeconds !== undefined && (timeoutSeconds < 1 || timeoutSeconds > 30)) errors.push('TimeoutSeconds must be between 1 and 30 seconds');
  const matchPolicy = normalised(declaration.matchPolicy, MATCH_POLICIES, 'matchPolicy', errors);
  const reinvocationPolicy = mutating ? normalised(declaration.reinvocationPolicy, REINVOCATION_POLICIES, 'reinvocationPolicy', errors) : undefined;
  const failurePolicy = declaration.failurePolicy ?? '';

  const webhook: Webhook = {
    admissionReviewVersions: [...declaration.admissionReviewVersions],
    clientConfig: url !== undefined ? { url } : { service: serviceReference(declaration, path ?? '') },
    failurePolicy: FAILURE_POLICIES[failurePolicy.toLowerCase()] ?? failurePolicy,
    name: declaration.name ?? '',
    rules: [
      {
        apiGroups: declaration.groups.map((g) => (g === 'core' ? '' : g)),
        apiVersions: [...declaration.versions],
        operations: declaration.verbs.map((v) => OPERATIONS[v.toLowerCase()] ?? v),
        resources: [...declaration.resources],
      },
    ],
    sideEffects: sideEffects ?? '',
  };
  if (matchPolicy) webhook.matchPolicy = matchPolicy;
  if (reinvocationPolicy) webhook.reinvocationPolicy = reinvocationPolicy;
  if (timeoutSeconds !== undefined) webhook.timeoutSeconds = timeoutSeconds;
  if (declaration.namespaceSelector) webhook.namespaceSelector = declaration.namespaceSelector;
  if (declaration.objectSelector) webhook.objectSelector = declaration.objectSelector;
  return webhook;
}

/** The Service the API server calls (the reader has applied the catalogue's webhook-service / system defaults). */
function serviceReference(declaration: WebhookDeclaration, path: string): { name: string; namespace: string; path: string; port?: number } {
  const { name, namespace, port } = declaration.service;
  const service: { name: string; namespace: string; path: string; port?: number } = { name, namespace, path };
  if (port !== undefined) service.port = port;
  return service;
}

function configurationNames(declarations: readonly WebhookConfigurationDeclaration[], diagnostics: Diagnostic[]): { mutating: string; validating: string } {
  const names = { mutating: 'mutating-webhook-configuration', validating: 'validating-webhook-configuration' };
  const seen = new Set<string>();
  for (const declaration of declarations) {
    const which = declaration.mutating ? 'mutating' : 'validating';
    const name = declaration.name;
    if (seen.has(which)) {
      diagnostics.push({ position: declaration.position, message: `duplicate ${which} kubebuilder:webhookconfiguration with name ${name ?? names[which]}` });
      continue;
    }
    seen.add(which);
    if (name) names[which] = name;
  }
  return names;
}

function normalised(raw: string | undefined, allowed: Record<string, string>, argument: string, errors: string[]): string | undefined {
  if (raw === undefined || raw === '') return undefined;
  const result = allowed[raw.toLowerCase()];
  if (result === undefined) errors.push(`unknown value ${JSON.stringify(raw)} for ${argument}`);
  return result;
}
