/**
 * The registry of kinds the runtime can talk about: group, version, kind, plural, namespaced, and an
 * optional generated deep-copy function. Generated code registers its API types with `defineKind`;
 * the built-in kinds operators lean on are registered here.
 */
import type { ConfigMap, Event as CoreEvent, Namespace, Pod, Secret, ServiceAccount } from 'kubernetes-types/core/v1.js';
import type { CronJob, Job } from 'kubernetes-types/batch/v1.js';
import type { Lease } from 'kubernetes-types/coordination/v1.js';
import type { Deployment } from 'kubernetes-types/apps/v1.js';
import type { KubeObject } from './object.js';
import { splitApiVersion } from './object.js';

export interface KindInfo<T extends KubeObject = KubeObject> {
  group: string;
  version: string;
  kind: string;
  plural: string;
  namespaced: boolean;
  /** Generated deep copy; the cache falls back to a JSON-value clone without it. */
  deepCopy?(obj: T): T;
  /**
   * Read and watch only metadata (controller-runtime's OnlyMetadata): set by `metadataOnly(kind)`; the
   * server answers PartialObjectMetadata and caches hold apiVersion, kind and metadata only.
   */
  metadataOnly?: boolean;
  /** Phantom field carrying the object type for inference; never set. */
  readonly __type?: T;
}

/** A kind named by its apiVersion and kind (looked up in the registry), or the KindInfo itself. */
export type KindRef<T extends KubeObject = KubeObject> = KindInfo<T> | { apiVersion: string; kind: string };

export function apiVersionOf(info: { group: string; version: string }): string {
  return info.group ? `${info.group}/${info.version}` : info.version;
}

/** `kind.group` (controller-runtime's GroupKind string), e.g. `CronJob.batch`, `Pod`. */
export function groupKindOf(info: { group: string; kind: string }): string {
  return info.group ? `${info.kind}.${info.group}` : info.kind;
}

export class KindRegistry {
  private readonly byGvk = new Map<string, KindInfo>();

  /** Registers (or replaces) a kind; returns it for `export const CronJobKind = registry.define(...)`. */
  register<T extends KubeObject>(info: KindInfo<T>): KindInfo<T> {
    this.byGvk.set(`${apiVersionOf(info)}|${info.kind}`, info as KindInfo);
    return info;
  }

  lookup(apiVersion: string, kind: string): KindInfo | undefined {
    return this.byGvk.get(`${apiVersion}|${kind}`);
  }

  /** Whether `kind` of `group` is namespaced (any registered version); undefined when none is registered. */
  namespacedOf(group: string, kind: string): boolean | undefined {
    for (const info of this.byGvk.values()) if (info.group === group && info.kind === kind) return info.namespaced;
    return undefined;
  }

  /** Resolves a KindRef or an object's apiVersion/kind; throws a clear error for unknown kinds. */
  resolve<T extends KubeObject>(ref: KindRef<T> | KubeObject): KindInfo<T> {
    if ('plural' in ref && typeof ref.plural === 'string') return ref as KindInfo<T>;
    const { apiVersion, kind } = ref as { apiVersion?: string; kind?: string };
    if (!apiVersion || !kind) throw new Error('object has no apiVersion/kind: cannot tell which resource it belongs to');
    const found = this.lookup(apiVersion, kind);
    if (!found) {
      throw new Error(`no kind registered for apiVersion "${apiVersion}" kind "${kind}": register it with defineKind() (generated code does this for your API types)`);
    }
    return found as KindInfo<T>;
  }

  all(): KindInfo[] {
    return [...this.byGvk.values()];
  }
}

/** The process-wide registry generated code fills; managers use it unless given their own. */
export const defaultKindRegistry = new KindRegistry();

/** Declares a kind in the default registry (what generated `groupversion_info.ts` calls). */
export function defineKind<T extends KubeObject>(info: KindInfo<T>): KindInfo<T> {
  return defaultKindRegistry.register(info);
}

function builtin<T extends KubeObject = KubeObject>(apiVersion: string, kind: string, plural: string, namespaced: boolean): KindInfo<T> {
  return defineKind<T>({ ...splitApiVersion(apiVersion), kind, plural, namespaced });
}

/** Built-in kinds, registered on import. */
export const BuiltinKinds = {
  Namespace: builtin<Namespace>('v1', 'Namespace', 'namespaces', false),
  Pod: builtin<Pod>('v1', 'Pod', 'pods', true),
  ConfigMap: builtin<ConfigMap>('v1', 'ConfigMap', 'configmaps', true),
  Secret: builtin<Secret>('v1', 'Secret', 'secrets', true),
  Service: builtin('v1', 'Service', 'services', true),
  ServiceAccount: builtin<ServiceAccount>('v1', 'ServiceAccount', 'serviceaccounts', true),
  Event: builtin<CoreEvent>('v1', 'Event', 'events', true),
  Node: builtin('v1', 'Node', 'nodes', false),
  EventsV1Event: builtin('events.k8s.io/v1', 'Event', 'events', true),
  Job: builtin<Job>('batch/v1', 'Job', 'jobs', true),
  CronJob: builtin<CronJob>('batch/v1', 'CronJob', 'cronjobs', true),
  Deployment: builtin<Deployment>('apps/v1', 'Deployment', 'deployments', true),
  Lease: builtin<Lease>('coordination.k8s.io/v1', 'Lease', 'leases', true),
  CustomResourceDefinition: builtin('apiextensions.k8s.io/v1', 'CustomResourceDefinition', 'customresourcedefinitions', false),
  Role: builtin('rbac.authorization.k8s.io/v1', 'Role', 'roles', true),
  RoleBinding: builtin('rbac.authorization.k8s.io/v1', 'RoleBinding', 'rolebindings', true),
  ClusterRole: builtin('rbac.authorization.k8s.io/v1', 'ClusterRole', 'clusterroles', false),
  ClusterRoleBinding: builtin('rbac.authorization.k8s.io/v1', 'ClusterRoleBinding', 'clusterrolebindings', false),
  MutatingWebhookConfiguration: builtin('admissionregistration.k8s.io/v1', 'MutatingWebhookConfiguration', 'mutatingwebhookconfigurations', false),
  ValidatingWebhookConfiguration: builtin('admissionregistration.k8s.io/v1', 'ValidatingWebhookConfiguration', 'validatingwebhookconfigurations', false),
} as const;
