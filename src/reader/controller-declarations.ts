/**
 * The controllers' part of the API model: `+kubebuilder:rbac`, `+kubebuilder:webhook` and
 * `+kubebuilder:webhookconfiguration` markers, found file-wide in the controller sources (file-markers.ts), become
 * the model's RBAC rule and webhook declarations (src/model), so the RBAC and webhook generators see only the
 * model. Here the markers' argument syntax is read — the catalogue's Service defaults and the label-selector
 * syntax — and a selector that does not parse is an error at the marker.
 */
import { findMarker } from '../markers/catalogue.js';
import { parseLabelSelector } from '../markers/label-selector.js';
import type { Diagnostic, Marker, MarkerValue } from '../markers/types.js';
import type {
  ControllerDeclarations,
  LabelSelector,
  RbacRuleDeclaration,
  WebhookConfigurationDeclaration,
  WebhookDeclaration,
} from '../model/index.js';
import { scanFileMarkers } from './file-markers.js';

export const RBAC_MARKER = 'kubebuilder:rbac';
export const WEBHOOK_MARKER = 'kubebuilder:webhook';
export const WEBHOOK_CONFIGURATION_MARKER = 'kubebuilder:webhookconfiguration';

export interface ControllerReading {
  declarations: ControllerDeclarations;
  diagnostics: Diagnostic[];
}

/** Scans every file (root-relative paths; `readText` gives its text) and declares what its markers say. */
export function readControllerDeclarations(files: readonly string[], readText: (file: string) => string): ControllerReading {
  const markers: Marker[] = [];
  const diagnostics: Diagnostic[] = [];
  for (const file of files) {
    const scanned = scanFileMarkers(file, readText(file));
    markers.push(...scanned.markers);
    diagnostics.push(...scanned.diagnostics);
  }
  const declared = controllerDeclarationsOf(markers);
  return { declarations: declared.declarations, diagnostics: [...diagnostics, ...declared.diagnostics] };
}

/** The declarations of the RBAC and webhook markers among `markers` (other markers are left out). */
export function controllerDeclarationsOf(markers: readonly Marker[]): ControllerReading {
  const diagnostics: Diagnostic[] = [];
  const declarations: ControllerDeclarations = { rbacRules: [], webhooks: [], webhookConfigurations: [] };
  for (const marker of markers) {
    if (marker.name === RBAC_MARKER) declarations.rbacRules.push(rbacRuleOf(marker));
    else if (marker.name === WEBHOOK_MARKER) declarations.webhooks.push(webhookOf(marker, diagnostics));
    else if (marker.name === WEBHOOK_CONFIGURATION_MARKER) declarations.webhookConfigurations.push(webhookConfigurationOf(marker));
  }
  return { declarations, diagnostics };
}

function rbacRuleOf(marker: Marker): RbacRuleDeclaration {
  const { args } = marker;
  return {
    groups: list(args.groups),
    resources: list(args.resources),
    resourceNames: list(args.resourceNames),
    urls: list(args.urls),
    verbs: list(args.verbs),
    namespace: text(args.namespace) ?? '',
    roleName: text(args.roleName) ?? '',
    position: marker.position,
  };
}

function webhookOf(marker: Marker, diagnostics: Diagnostic[]): WebhookDeclaration {
  const { args } = marker;
  const declaration: WebhookDeclaration = {
    source: marker.text,
    position: marker.position,
    mutating: args.mutating === true,
    groups: list(args.groups),
    resources: list(args.resources),
    verbs: list(args.verbs),
    versions: list(args.versions),
    admissionReviewVersions: list(args.admissionReviewVersions),
    webhookVersions: list(args.webhookVersions),
    service: { name: text(args.serviceName) ?? catalogueDefault('serviceName'), namespace: text(args.serviceNamespace) ?? catalogueDefault('serviceNamespace') },
  };
  if (typeof args.servicePort === 'number') declaration.service.port = args.servicePort;
  if (typeof args.timeoutSeconds === 'number') declaration.timeoutSeconds = args.timeoutSeconds;
  for (const key of ['name', 'path', 'url', 'failurePolicy', 'matchPolicy', 'sideEffects', 'reinvocationPolicy'] as const) {
    const value = text(args[key]);
    if (value !== undefined) declaration[key] = value;
  }
  for (const key of ['namespaceSelector', 'objectSelector'] as const) {
    const selector = selectorOf(marker, key, diagnostics);
    if (selector) declaration[key] = selector;
  }
  return declaration;
}

function webhookConfigurationOf(marker: Marker): WebhookConfigurationDeclaration {
  const declaration: WebhookConfigurationDeclaration = { mutating: marker.args.mutating === true, position: marker.position };
  const name = text(marker.args.name);
  if (name !== undefined) declaration.name = name;
  return declaration;
}

function selectorOf(marker: Marker, argument: 'namespaceSelector' | 'objectSelector', diagnostics: Diagnostic[]): LabelSelector | undefined {
  try {
    return parseLabelSelector(text(marker.args[argument]) ?? '');
  } catch (err) {
    diagnostics.push({ position: marker.position, message: `marker ${JSON.stringify(marker.text)}: invalid ${argument}: ${(err as Error).message}` });
    return undefined;
  }
}

/** The default the catalogue gives a webhook marker's argument (the Service's name and namespace). */
function catalogueDefault(argument: string): string {
  const definition = findMarker(WEBHOOK_MARKER, 'package');
  return String(definition?.args.find((a) => a.name === argument)?.default ?? '');
}

function text(value: MarkerValue | undefined): string | undefined {
  return typeof value === 'string' ? value : undefined;
}

function list(value: MarkerValue | undefined): string[] {
  if (value === undefined || value === null) return [];
  return (Array.isArray(value) ? value : [value]).map((v) => String(v));
}
