/**
 * The built-in admission plugins a default 1.32 kube-apiserver runs, in its order, as one data table:
 * mutating plugins change the object before it is validated and stored, validating plugins accept,
 * warn about or refuse the final object. The write path (ObjectOperations) runs the chain on every
 * create and update — HTTP requests and built-in controllers alike; the admission webhooks, which are
 * asynchronous, run around it (webhook-admission.ts) at their places in the order:
 *
 *   mutating:   NamespaceLifecycle (in the write path) · LimitRanger · ServiceAccount · Priority · … · MutatingAdmissionWebhook
 *   validating: ServiceAccount · PodSecurity · Priority · ValidatingAdmissionPolicy · ValidatingAdmissionWebhook · ResourceQuota
 *
 * A new plugin is one entry in `builtinAdmissionPlugins` (e.g. DefaultTolerationSeconds after Priority,
 * DefaultStorageClass after it); `startLocalCluster({ disabledAdmissionPlugins })` switches plugins off by name, as
 * kube-apiserver's `--disable-admission-plugins`, and `enabledAdmissionPlugins` switches on the ones that are off
 * by default (OwnerReferencesPermissionEnforcement), as `--enable-admission-plugins`.
 */
import type { ClusterClock } from '../clock/virtual-clock.js';
import type { UserInfo } from '../http/authentication.js';
import type { ResourceCatalog } from '../registry/resource-catalog.js';
import type { ResourceType } from '../registry/resource-type.js';
import type { SeededRandom } from '../registry/system-metadata.js';
import type { KubeObject, ObjectStore } from '../store/object-store.js';
import type { AuthorizeFunction } from './authorizer-library.js';
import type { RequestInfo } from '../http/request-info.js';
import { LimitRanger } from './plugins/limit-ranger.js';
import { OwnerReferencesPermissionEnforcement } from './plugins/owner-references-permission.js';
import { PodSecurityAdmission } from './plugins/pod-security-admission.js';
import { PriorityAdmission } from './plugins/priority-admission.js';
import { ResourceQuotaAdmission } from './plugins/resource-quota-admission.js';
import { ServiceAccountAdmission } from './plugins/service-account-admission.js';
import { ValidatingAdmissionPolicyPlugin } from './plugins/validating-admission-policy.js';

export type AdmissionVerb = 'CREATE' | 'UPDATE' | 'DELETE';

/** What a plugin is told about one request (Kubernetes' admission.Attributes). */
export interface AdmissionRequest {
  operation: AdmissionVerb;
  rt: ResourceType;
  namespace: string | undefined;
  name: string;
  subresource: string | undefined;
  /** The object to be stored (mutating plugins change it in place); undefined for DELETE. */
  object: KubeObject | undefined;
  oldObject: KubeObject | undefined;
  /** The requesting user; undefined for writes made without one (bootstrap). */
  user: UserInfo | undefined;
  dryRun: boolean;
}

/** What plugins may read and write: the store (quota status), the served kinds, the cluster's clock, its authorizer. */
export interface AdmissionServices {
  store: ObjectStore;
  catalog: ResourceCatalog;
  clock: ClusterClock;
  /** Whether a user may do something (ValidatingAdmissionPolicy's `authorizer`); absent: everything is allowed. */
  authorize?: AuthorizeFunction;
  /** Random names plugins generate (ServiceAccount's kube-api-access-<5 chars> volume); absent: a fixed seed. */
  random?: SeededRandom;
  /** Told of each allowed check a plugin makes that a grant exists for (the least-privilege report's uses). */
  noteAuthorizationUse?: (user: UserInfo, info: RequestInfo) => void;
}

export interface AdmissionPlugin {
  /** Mutating step: may change `request.object`; returns warnings. Throws an ApiError to refuse. */
  admit?(request: AdmissionRequest): string[] | void;
  /** Validating step: returns warnings. Throws an ApiError to refuse. */
  validate?(request: AdmissionRequest): string[] | void;
}

export interface AdmissionPluginDefinition {
  /** kube-apiserver's plugin name. */
  name: string;
  /** Off unless enabled by name (kube-apiserver's plugins outside its default set). */
  offByDefault?: boolean;
  create(services: AdmissionServices): AdmissionPlugin;
}

/** The built-in plugins in kube-apiserver 1.32's order (pkg/kubeapiserver/options/plugins.go). */
export const builtinAdmissionPlugins: AdmissionPluginDefinition[] = [
  { name: 'LimitRanger', create: (s) => new LimitRanger(s) },
  { name: 'ServiceAccount', create: (s) => new ServiceAccountAdmission(s) },
  { name: 'PodSecurity', create: (s) => new PodSecurityAdmission(s) },
  { name: 'Priority', create: (s) => new PriorityAdmission(s) },
  { name: 'OwnerReferencesPermissionEnforcement', offByDefault: true, create: (s) => new OwnerReferencesPermissionEnforcement(s) },
  { name: 'ValidatingAdmissionPolicy', create: (s) => new ValidatingAdmissionPolicyPlugin(s) },
  { name: 'ResourceQuota', create: (s) => new ResourceQuotaAdmission(s) },
];

/** The plugins of one cluster, instantiated in order; `admit` then `validate` on each write. */
export class AdmissionChain {
  private readonly plugins: Array<{ name: string; plugin: AdmissionPlugin }>;

  constructor(services: AdmissionServices, switches: { disabled?: string[]; enabled?: string[] } = {}, definitions: AdmissionPluginDefinition[] = builtinAdmissionPlugins) {
    const { disabled = [], enabled = [] } = switches;
    const unknown = [...disabled, ...enabled].filter((name) => !definitions.some((d) => d.name === name));
    if (unknown.length > 0) throw new Error(`admission plugins: unknown plugin name(s) ${unknown.map((n) => `"${n}"`).join(', ')} (known: ${definitions.map((d) => d.name).join(', ')})`);
    const on = (d: AdmissionPluginDefinition): boolean => !disabled.includes(d.name) && (!d.offByDefault || enabled.includes(d.name));
    this.plugins = definitions.filter(on).map((d) => ({ name: d.name, plugin: d.create(services) }));
  }

  /** Names of the enabled plugins, in order. */
  names(): string[] {
    return this.plugins.map((p) => p.name);
  }

  admit(request: AdmissionRequest): string[] {
    const warnings: string[] = [];
    for (const { plugin } of this.plugins) warnings.push(...(plugin.admit?.(request) ?? []));
    return warnings;
  }

  validate(request: AdmissionRequest): string[] {
    const warnings: string[] = [];
    for (const { plugin } of this.plugins) warnings.push(...(plugin.validate?.(request) ?? []));
    return warnings;
  }
}
