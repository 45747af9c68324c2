/**
 * OpenAPI documents: the `/openapi/v3` root listing every served group-version (CRDs included) with
 * content hashes, one OpenAPI 3.0 document per group-version (PATCH operations tagged with their GVK
 * and the `fieldValidation` parameter, kind schemas for `kubectl explain`), and the empty protobuf
 * `/openapi/v2` kubectl needs for client-side apply (embedded-apiserver.md §2.3).
 */
import { createHash } from 'node:crypto';
import type { ResourceCatalog } from '../registry/resource-catalog.js';
import { type ResourceType, patchTypesOf } from '../registry/resource-type.js';

/** The dotted form; echoing kubectl's `@` form back breaks its MIME parser. */
export const openAPIV2ContentType = 'application/com.github.proto-openapi.spec.v2.v1.0+protobuf';

const objectMetaSchema: Record<string, any> = {
  description: 'ObjectMeta is metadata that all persisted resources must have, which includes all objects users must create.',
  type: 'object',
  properties: {
    annotations: { type: 'object', additionalProperties: { type: 'string', default: '' }, description: 'Annotations is an unstructured key value map stored with a resource that may be set by external tools to store and retrieve arbitrary metadata.' },
    creationTimestamp: { type: 'string', format: 'date-time', description: 'CreationTimestamp is a timestamp representing the server time when this object was created.' },
    deletionGracePeriodSeconds: { type: 'integer', format: 'int64', description: 'Number of seconds allowed for this object to gracefully terminate before it will be removed from the system.' },
    deletionTimestamp: { type: 'string', format: 'date-time', description: 'DeletionTimestamp is RFC 3339 date and time at which this resource will be deleted.' },
    finalizers: { type: 'array', items: { type: 'string', default: '' }, 'x-kubernetes-list-type': 'set', 'x-kubernetes-patch-strategy': 'merge', description: 'Must be empty before the object is deleted from the registry.' },
    generateName: { type: 'string', description: 'GenerateName is an optional prefix, used by the server, to generate a unique name ONLY IF the Name field has not been provided.' },
    generation: { type: 'integer', format: 'int64', description: 'A sequence number representing a specific generation of the desired state.' },
    labels: { type: 'object', additionalProperties: { type: 'string', default: '' }, description: 'Map of string keys and values that can be used to organize and categorize (scope and select) objects.' },
    managedFields: { type: 'array', items: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true }, description: 'ManagedFields maps workflow-id and version to the set of fields that are managed by that workflow.' },
    name: { type: 'string', description: 'Name must be unique within a namespace.' },
    namespace: { type: 'string', description: 'Namespace defines the space within which each name must be unique.' },
    ownerReferences: {
      type: 'array',
      items: {
        type: 'object',
        required: ['apiVersion', 'kind', 'name', 'uid'],
        properties: {
          apiVersion: { type: 'string', default: '' }, blockOwnerDeletion: { type: 'boolean' }, controller: { type: 'boolean' },
          kind: { type: 'string', default: '' }, name: { type: 'string', default: '' }, uid: { type: 'string', default: '' },
        },
      },
      'x-kubernetes-list-map-keys': ['uid'],
      'x-kubernetes-list-type': 'map',
      'x-kubernetes-patch-merge-key': 'uid',
      'x-kubernetes-patch-strategy': 'merge',
      description: 'List of objects depended by this object.',
    },
    resourceVersion: { type: 'string', description: 'An opaque value that represents the internal version of this object.' },
    selfLink: { type: 'string', description: 'Deprecated: selfLink is a legacy read-only field that is no longer populated by the system.' },
    uid: { type: 'string', description: 'UID is the unique in time and space value for this object.' },
  },
};

/** The schema name kube-apiserver uses: io.k8s.api.<group>.<version>.<Kind> or the reversed CRD group. */
export function schemaName(rt: ResourceType): string {
  if (rt.custom) return `${rt.group.split('.').reverse().join('.')}.${rt.version}.${rt.kind}`;
  if (rt.group === 'apiextensions.k8s.io') return `io.k8s.apiextensions-apiserver.pkg.apis.apiextensions.${rt.version}.${rt.kind}`;
  const short = rt.group === '' ? 'core' : rt.group.replace(/\.k8s\.io$/, '').replace(/\.authorization$/, '');
  return `io.k8s.api.${short}.${rt.version}.${rt.kind}`;
}

function itemPath(rt: ResourceType): string {
  const prefix = rt.group ? `/apis/${rt.group}/${rt.version}` : `/api/${rt.version}`;
  return rt.namespaced ? `${prefix}/namespaces/{namespace}/${rt.resource}/{name}` : `${prefix}/${rt.resource}/{name}`;
}

const queryParam = (name: string, description: string, type = 'string'): Record<string, unknown> => ({ name, in: 'query', description, schema: { type, uniqueItems: true } });

function patchOperation(rt: ResourceType): Record<string, unknown> {
  const gvk = { group: rt.group, version: rt.version, kind: rt.kind };
  const ref = { $ref: `#/components/schemas/${schemaName(rt)}` };
  // Strategic merge patch is left out on purpose: kubectl then computes it from its compiled-in types.
  const media = patchTypesOf(rt).filter((t) => t !== 'application/strategic-merge-patch+json');
  return {
    tags: [`${rt.group || 'core'}_${rt.version}`],
    description: `partially update the specified ${rt.kind}`,
    operationId: `patch${rt.kind}`,
    parameters: [
      queryParam('dryRun', 'When present, indicates that modifications should not be persisted.'),
      queryParam('fieldManager', 'fieldManager is a name associated with the actor or entity that is making these changes.'),
      queryParam('fieldValidation', 'fieldValidation instructs the server on how to handle objects in the request containing unknown or duplicate fields.'),
      queryParam('force', 'Force is going to "force" Apply requests.', 'boolean'),
    ],
    requestBody: { content: Object.fromEntries(media.map((m) => [m, { schema: { type: 'object' } }])), required: true },
    responses: { '200': { description: 'OK', content: { 'application/json': { schema: ref } } }, '201': { description: 'Created', content: { 'application/json': { schema: ref } } } },
    'x-kubernetes-action': 'patch',
    'x-kubernetes-group-version-kind': gvk,
  };
}

export function groupVersionDocument(catalog: ResourceCatalog, group: string, version: string): Record<string, unknown> {
  const types = catalog.inGroupVersion(group, version);
  const paths: Record<string, unknown> = {};
  const schemas: Record<string, unknown> = { 'io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta': objectMetaSchema };
  for (const rt of types) {
    const getOp = {
      description: `read the specified ${rt.kind}`,
      operationId: `read${rt.kind}`,
      responses: { '200': { description: 'OK', content: { 'application/json': { schema: { $ref: `#/components/schemas/${schemaName(rt)}` } } } } },
      'x-kubernetes-action': 'get',
      'x-kubernetes-group-version-kind': { group: rt.group, version: rt.version, kind: rt.kind },
    };
    paths[itemPath(rt)] = { get: getOp, patch: patchOperation(rt), parameters: [{ name: 'name', in: 'path', required: true, schema: { type: 'string' } }] };
    schemas[schemaName(rt)] = { ...rt.openAPISchema(), 'x-kubernetes-group-version-kind': [{ group: rt.group, kind: rt.kind, version: rt.version }] };
  }
  return { openapi: '3.0.0', info: { title: 'Kubernetes', version: 'v1.32.4' }, paths, components: { schemas } };
}

function gvPath(group: string, version: string): string {
  return group ? `apis/${group}/${version}` : `api/${version}`;
}

/** Caches documents per catalog version and hands out their hashes. */
export class OpenAPIDocuments {
  private cachedAt = -1;
  private docs = new Map<string, { body: string; hash: string }>();

  constructor(private readonly catalog: ResourceCatalog) {}

  private refresh(): void {
    if (this.cachedAt === this.catalog.version) return;
    this.docs = new Map();
    for (const g of this.catalog.groups()) {
      for (const v of g.versions) {
        const body = JSON.stringify(groupVersionDocument(this.catalog, g.group, v));
        const hash = createHash('sha512').update(body).digest('hex').toUpperCase();
        this.docs.set(gvPath(g.group, v), { body, hash });
      }
    }
    this.cachedAt = this.catalog.version;
  }

  root(): Record<string, unknown> {
    this.refresh();
    const paths: Record<string, unknown> = {};
    for (const [p, d] of [...this.docs.entries()].sort(([a], [b]) => (a < b ? -1 : 1))) paths[p] = { serverRelativeURL: `/openapi/v3/${p}?hash=${d.hash}` };
    return { paths };
  }

  /** The document for `api/v1` or `apis/<g>/<v>`; undefined when not served. */
  document(path: string): { body: string; hash: string } | undefined {
    this.refresh();
    return this.docs.get(path);
  }
}
