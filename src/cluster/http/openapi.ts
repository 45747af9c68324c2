/**
 * OpenAPI documents: the `/openapi/v3` root listing every served group-version (CRDs included) with
 * content hashes, one OpenAPI 3.0 document per group-version (PATCH operations tagged with their GVK
 * and the `fieldValidation` parameter; kind schemas and every definition they reach, from the Kubernetes
 * v1.32 schema catalogue for built-in kinds, for `kubectl explain` at any depth), and the empty protobuf
 * `/openapi/v2` kubectl needs for client-side apply (embedded-apiserver.md §2.3).
 */
import { createHash } from 'node:crypto';
import type { ResourceCatalog } from '../registry/resource-catalog.js';
import { type ResourceType, patchTypesOf } from '../registry/resource-type.js';
import { builtinDefinition, definitionName, objectMetaDefinition, reachableDefinitions } from '../schemas/builtin-schemas.js';

/**
 * The dotted form; echoing kubectl's `@` form back breaks its MIME parser.
 *
 * Why `/openapi/v2` stays an empty document although the v3 documents now carry the full schemas:
 * kubectl 1.32 reads v2 in only three places, none of which needs its content here.
 *  - Field validation (`--validate`, create/apply/replace): every served group-version is in the v3 root
 *    with `fieldValidation` on its PATCH operations, so kubectl asks the server (`fieldValidation=Strict`)
 *    and never validates against v2 (embedded-apiserver.md §2.3).
 *  - Client-side `kubectl apply`: the strategic merge patch comes from v3 when the PATCH operation lists
 *    the strategic media type — built-in kinds do, and their v3 schemas carry the v1.32 patch strategies
 *    and merge keys; CRDs do not list it and get a JSON merge patch either way.
 *  - `kubectl explain --output=plaintext-openapiv2` only (plain `explain` uses v3).
 * It still answers 200 (empty): kubectl's fallbacks fetch it, and a failed fetch fails the command (§2.3).
 */
export const openAPIV2ContentType = 'application/com.github.proto-openapi.spec.v2.v1.0+protobuf';

/** The schema name kube-apiserver uses: io.k8s.api.<group>.<version>.<Kind> or the reversed CRD group. */
export function schemaName(rt: ResourceType): string {
  if (rt.custom) return `${rt.group.split('.').reverse().join('.')}.${rt.version}.${rt.kind}`;
  return definitionName(rt.group, rt.version, rt.kind);
}

function itemPath(rt: ResourceType): string {
  const prefix = rt.group ? `/apis/${rt.group}/${rt.version}` : `/api/${rt.version}`;
  return rt.namespaced ? `${prefix}/namespaces/{namespace}/${rt.resource}/{name}` : `${prefix}/${rt.resource}/{name}`;
}

const queryParam = (name: string, description: string, type = 'string'): Record<string, unknown> => ({ name, in: 'query', description, schema: { type, uniqueItems: true } });

function patchOperation(rt: ResourceType): Record<string, unknown> {
  const gvk = { group: rt.group, version: rt.version, kind: rt.kind };
  const ref = { $ref: `#/components/schemas/${schemaName(rt)}` };
  // As kube-apiserver: built-in kinds list strategic merge patch (kubectl then reads the schemas' patch
  // strategies and merge keys for client-side apply), custom resources do not.
  const media = patchTypesOf(rt);
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
  const schemas: Record<string, unknown> = {};
  const referenced = new Set<string>([objectMetaDefinition]);
  for (const rt of types) {
    const getOp = {
      description: `read the specified ${rt.kind}`,
      operationId: `read${rt.kind}`,
      responses: { '200': { description: 'OK', content: { 'application/json': { schema: { $ref: `#/components/schemas/${schemaName(rt)}` } } } } },
      'x-kubernetes-action': 'get',
      'x-kubernetes-group-version-kind': { group: rt.group, version: rt.version, kind: rt.kind },
    };
    paths[itemPath(rt)] = { get: getOp, patch: patchOperation(rt), parameters: [{ name: 'name', in: 'path', required: true, schema: { type: 'string' } }] };
    const schema = rt.openAPISchema();
    schemas[schemaName(rt)] = { ...schema, 'x-kubernetes-group-version-kind': [{ group: rt.group, kind: rt.kind, version: rt.version }] };
    reachableDefinitions(schema, referenced);
  }
  // Every definition the kinds reach (Kubernetes v1.32 schemas), so `kubectl explain` resolves any depth.
  reachableDefinitions(builtinDefinition(objectMetaDefinition)!, referenced);
  for (const name of [...referenced].sort()) schemas[name] ??= builtinDefinition(name);
  return { openapi: '3.0.0', info: { title: 'Kubernetes', version: 'v1.32.4' }, paths, components: { schemas } };
}

function gvPath(group: string, version: string): string {
  return group ? `apis/${group}/${version}` : `api/${version}`;
}

/** A built document and the types it was built from (the same objects build the same document). */
interface BuiltDocument {
  types: ResourceType[];
  body: string;
  hash: string;
}

const sameTypes = (a: ResourceType[], b: ResourceType[]): boolean => a.length === b.length && a.every((t, i) => t === b[i]);

/**
 * Caches documents per catalog version and hands out their hashes. A catalog change (a CRD established,
 * changed or removed) rebuilds only the group-versions whose types changed: the others keep their bytes.
 */
export class OpenAPIDocuments {
  private cachedAt = -1;
  private docs = new Map<string, BuiltDocument>();

  constructor(private readonly catalog: ResourceCatalog) {}

  private refresh(): void {
    if (this.cachedAt === this.catalog.version) return;
    const previous = this.docs;
    this.docs = new Map();
    for (const g of this.catalog.groups()) {
      for (const v of g.versions) {
        const path = gvPath(g.group, v);
        const types = this.catalog.inGroupVersion(g.group, v);
        const kept = previous.get(path);
        if (kept && sameTypes(kept.types, types)) {
          this.docs.set(path, kept);
          continue;
        }
        const body = JSON.stringify(groupVersionDocument(this.catalog, g.group, v));
        const hash = createHash('sha512').update(body).digest('hex').toUpperCase();
        this.docs.set(path, { types, body, hash });
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
