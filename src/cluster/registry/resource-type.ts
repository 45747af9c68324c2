/**
 * What the local cluster knows about one served resource (built-in or CRD-defined): its names and
 * scope for routing and discovery, and its strategy (defaulting, validation, status handling,
 * table columns, field selectors) for the write path every client and controller goes through.
 */
import type { FieldError } from '../errors/field-errors.js';
import type { KubeObject } from '../store/object-store.js';
import type { Schema } from '../schemas/builtin-schemas.js';
import type { NameRule } from './object-meta.js';

export interface TableColumn {
  name: string;
  type: string;
  format: string;
  description: string;
  priority: number;
}

export interface TableSpec {
  columns: TableColumn[];
  /** One cell per column, computed at `now` (virtual clock) for ages. */
  cells(object: KubeObject, now: number): unknown[];
}

export interface ScaleSubresource {
  specReplicasPath: string;
  statusReplicasPath: string;
  labelSelectorPath?: string;
  /** The selector is a plain label map (ReplicationController), not a LabelSelector. */
  selectorIsMap?: boolean;
}

/** What a write operation tells the strategy. */
export interface WriteContext {
  now: number;
  /** Allocates uids/names deterministically from the cluster's seed. */
  uid(): string;
  /** The stored objects of a bucket, read-only (cluster-wide allocations: Service IPs and node ports). */
  stored?(bucket: string): readonly KubeObject[];
}

export interface ResourceStrategy {
  /** Defaults and initial status on create (after system metadata is set). */
  prepareForCreate?(object: KubeObject, ctx: WriteContext): void;
  /** Defaults on update; `old` is the stored object. */
  prepareForUpdate?(object: KubeObject, old: KubeObject, ctx: WriteContext): void;
  /** Kind-specific validation of a new object. */
  validateCreate?(object: KubeObject): FieldError[];
  /** Kind-specific validation of an update (immutability etc.). */
  validateUpdate?(object: KubeObject, old: KubeObject): FieldError[];
  /** Removes fields the kind does not declare and returns their paths (`spec.foo`). */
  dropUnknownFields?(object: KubeObject): string[];
  /** Rewrites a stored object for reading through this resource (other version, read-time defaults). */
  fromStorage?(object: KubeObject): KubeObject;
  /** Rewrites an object written through this resource into the storage form. */
  toStorage?(object: KubeObject): KubeObject;
  /** Field-selector values this kind supports besides metadata.name/namespace (undefined = not supported). */
  fieldLabels?(object: KubeObject): Record<string, string>;
  /** Finalizers the server adds when a delete starts (CRD cleanup). */
  finalizersOnDelete?: string[];
  /** Warning headers for a delete without an explicit propagation policy. */
  deleteWarning?: string;
}

export interface ResourceType {
  group: string;
  version: string;
  /** Plural resource name, e.g. `configmaps`. */
  resource: string;
  kind: string;
  listKind: string;
  singular: string;
  namespaced: boolean;
  shortNames: string[];
  categories: string[];
  verbs: string[];
  /** Storage bucket shared by every version (and by core/v1 and events.k8s.io/v1 Events). */
  bucket: string;
  nameRule: NameRule;
  /** Has a `status` subresource (writes to the main resource keep the stored status). */
  statusSubresource: boolean;
  scale?: ScaleSubresource;
  /** Extra subresources served by handlers (finalize, token, …). */
  otherSubresources: string[];
  /** Whether metadata.generation is tracked. */
  hasGeneration: boolean;
  /** DELETE that removes at once answers with the object (true) or a Success Status (false). */
  returnsDeletedObject: boolean;
  /** Propagation policy of a DELETE that names none. */
  defaultPropagation: 'Background' | 'Orphan';
  /** Custom resources: no strategic merge patch. */
  custom: boolean;
  table: TableSpec;
  strategy: ResourceStrategy;
  /** OpenAPI v3 schema of the kind (for /openapi/v3 and explain). */
  openAPISchema(): Schema;
  /** True while the CRD serving it is being deleted (creates are refused). */
  terminating?: boolean;
  /**
   * The CRD converts through a webhook: the HTTP layer converts requests; what the store holds in another
   * version is never relabelled by an in-process write (those change metadata only).
   */
  conversionWebhook?: boolean;
}

export const allVerbs = ['create', 'delete', 'deletecollection', 'get', 'list', 'patch', 'update', 'watch'];

export function groupVersion(rt: Pick<ResourceType, 'group' | 'version'>): string {
  return rt.group ? `${rt.group}/${rt.version}` : rt.version;
}

export function patchTypesOf(rt: ResourceType): string[] {
  return rt.custom
    ? ['application/json-patch+json', 'application/merge-patch+json', 'application/apply-patch+yaml']
    : ['application/json-patch+json', 'application/merge-patch+json', 'application/strategic-merge-patch+json', 'application/apply-patch+yaml'];
}
