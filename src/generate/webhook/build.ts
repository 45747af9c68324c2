/**
 * The webhook generator (controller-gen §15): `+kubebuilder:webhook` markers → one
 * MutatingWebhookConfiguration and one ValidatingWebhookConfiguration (each only when it has
 * webhooks), with controller-gen's normalisation (Fail/Ignore, CREATE/UPDATE…, core → ""), its checks
 * (path xor url, sideEffects for v1, timeout 1–30 s) and webhooks sorted by name.
 * `+kubebuilder:webhookconfiguration` renames the configurations.
 */
import { findMarker } from '../../markers/catalogue.js';
import type { Diagnostic, Marker, MarkerValue } from '../../markers/types.js';
import { toYaml } from '../yaml/index.js';
import { parseLabelSelector, type LabelSelector } from './label-selector.js';

export const WEBHOOK_MARKER = 'kubebuilder:webhook';
export const WEBHOOK_CONFIGURATION_MARKER = 'kubebuilder:webhookconfiguration';

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

/** Builds the webhook configurations from every webhook marker in `markers` (others are ignored). */
export function buildWebhooks(markers: Marker[]): WebhookManifests {
  const diagnostics: Diagnostic[] = [];
  const mutating: Webhook[] = [];
  const validating: Webhook[] = [];
  for (const marker of markers.filter((m) => m.name === WEBHOOK_MARKER)) {
    const errors: string[] = [];
    const webhook = webhookFrom(marker, errors);
    diagnostics.push(...errors.map((message) => ({ position: marker.position, message: `marker ${JSON.stringify(marker.text)}: ${message}` })));
    if (errors.length === 0) (marker.args.mutating === true ? mutating : validating).push(webhook);
  }
  const names = configurationNames(markers, diagnostics);
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

function webhookFrom(marker: Marker, errors: string[]): Webhook {
  const args = marker.args;
  const mutating = args.mutating === true;
  const kind = mutating ? 'MutatingWebhookConfiguration' : 'ValidatingWebhookConfiguration';
  for (const version of list(args.webhookVersions)) if (version !== 'v1') errors.push(`unsupported webhook version: ${version}`);
  const path = text(args.path);
  const url = text(args.url);
  if ((path === undefined) === (url === undefined)) errors.push('`url` or `path` markers are required and mutually exclusive');
  const sideEffects = SIDE_EFFECTS[(text(args.sideEffects) ?? '').toLowerCase()];
  if (sideEffects === undefined) errors.push(`SideEffects is required for creating v1 ${kind}`);
  else if (sideEffects === 'Some' || sideEffects === 'Unknown') errors.push(`SideEffects should not be set to \`Some\` or \`Unknown\` for v1 ${kind}`);
  const timeoutSeconds = typeof args.timeoutSeconds === 'number' ? args.timeoutSeconds : undefined;
  if (timeoutSeconds !== undefined && (timeoutSeconds < 1 || timeoutSeconds > 30)) errors.push('TimeoutSeconds must be between 1 and 30 seconds');
  const matchPolicy = normalised(args.matchPolicy, MATCH_POLICIES, 'matchPolicy', errors);
  const reinvocationPolicy = mutating ? normalised(args.reinvocationPolicy, REINVOCATION_POLICIES, 'reinvocationPolicy', errors) : undefined;
  const failurePolicy = text(args.failurePolicy) ?? '';

  const webhook: Webhook = {
    admissionReviewVersions: list(args.admissionReviewVersions),
    clientConfig: url !== undefined ? { url } : { service: serviceReference(args, path ?? '') },
    failurePolicy: FAILURE_POLICIES[failurePolicy.toLowerCase()] ?? failurePolicy,
    name: text(args.name) ?? '',
    rules: [
      {
        apiGroups: list(args.groups).map((g) => (g === 'core' ? '' : g)),
        apiVersions: list(args.versions),
        operations: list(args.verbs).map((v) => OPERATIONS[v.toLowerCase()] ?? v),
        resources: list(args.resources),
      },
    ],
    sideEffects: sideEffects ?? '',
  };
  if (matchPolicy) webhook.matchPolicy = matchPolicy;
  if (reinvocationPolicy) webhook.reinvocationPolicy = reinvocationPolicy;
  if (timeoutSeconds !== undefined) webhook.timeoutSeconds = timeoutSeconds;
  for (const field of ['namespaceSelector', 'objectSelector'] as const) {
    try {
      const selector = parseLabelSelector(text(args[field]) ?? '');
      if (selector) webhook[field] = selector;
    } catch (err) {
      errors.push(`invalid ${field}: ${(err as Error).message}`);
    }
  }
  return webhook;
}

/** The Service the API server calls; name and namespace default from the catalogue (webhook-service / system). */
function serviceReference(args: Record<string, MarkerValue>, path: string): { name: string; namespace: string; path: string; port?: number } {
  const definition = findMarker(WEBHOOK_MARKER, 'package');
  const defaultOf = (name: string) => String(definition?.args.find((a) => a.name === name)?.default ?? '');
  const service: { name: string; namespace: string; path: string; port?: number } = {
    name: text(args.serviceName) ?? defaultOf('serviceName'),
    namespace: text(args.serviceNamespace) ?? defaultOf('serviceNamespace'),
    path,
  };
  if (typeof args.servicePort === 'number') service.port = args.servicePort;
  return service;
}

function configurationNames(markers: Marker[], diagnostics: Diagnostic[]): { mutating: string; validating: string } {
  const names = { mutating: 'mutating-webhook-configuration', validating: 'validating-webhook-configuration' };
  const seen = new Set<string>();
  for (const marker of markers.filter((m) => m.name === WEBHOOK_CONFIGURATION_MARKER)) {
    const which = marker.args.mutating === true ? 'mutating' : 'validating';
    const name = text(marker.args.name);
    if (seen.has(which)) {
      diagnostics.push({ position: marker.position, message: `duplicate ${which} kubebuilder:webhookconfiguration with name ${name ?? names[which]}` });
      continue;
    }
    seen.add(which);
    if (name) names[which] = name;
  }
  return names;
}

function normalised(value: MarkerValue | undefined, allowed: Record<string, string>, argument: string, errors: string[]): string | undefined {
  const raw = text(value);
  if (raw === undefined || raw === '') return undefined;
  const result = allowed[raw.toLowerCase()];
  if (result === undefined) errors.push(`unknown value ${JSON.stringify(raw)} for ${argument}`);
  return result;
}

function text(value: MarkerValue | undefined): string | undefined {
  return typeof value === 'string' ? value : undefined;
}

function list(value: MarkerValue | undefined): string[] {
  if (value === undefined || value === null) return [];
  return (Array.isArray(value) ? value : [value]).map((v) => String(v));
}
