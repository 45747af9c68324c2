/** The /openapi/v3 documents: self-contained per group-version, full built-in schemas, hashed root. */
import { customResourceDefinitions } from '../crd/crd-kind.js';
import { admissionKinds } from '../registry/builtin/admission-kinds.js';
import { batchKinds } from '../registry/builtin/batch-kinds.js';
import { coreKinds } from '../registry/builtin/core-kinds.js';
import { coreEvents, newEvents } from '../registry/builtin/event-kinds.js';
import { otherKinds } from '../registry/builtin/other-kinds.js';
import { ResourceCatalog } from '../registry/resource-catalog.js';
import { reviewKinds } from './review-apis.js';
import { OpenAPIDocuments, groupVersionDocument } from './openapi.js';

const catalog = new ResourceCatalog([...coreKinds, coreEvents, ...batchKinds, newEvents, ...otherKinds, ...admissionKinds, ...reviewKinds, customResourceDefinitions]);

function refsOf(node: unknown, into: string[] = []): string[] {
  if (Array.isArray(node)) node.forEach((n) => refsOf(n, into));
  else if (node && typeof node === 'object') {
    for (const [k, v] of Object.entries(node)) {
      if (k === '$ref' && typeof v === 'string') into.push(v.replace('#/components/schemas/', ''));
      else refsOf(v, into);
    }
  }
  return into;
}

test('every group-version document is self-contained: each $ref names a schema of the same document', () => {
  for (const g of catalog.groups()) {
    for (const v of g.versions) {
      const doc = groupVersionDocument(catalog, g.group, v) as { components: { schemas: Record<string, unknown> } };
      const missing = refsOf(doc).filter((r) => !(r in doc.components.schemas));
      expect([`${g.group}/${v}`, missing]).toEqual([`${g.group}/${v}`, []]);
    }
  }
});

test('batch/v1 carries the full Job tree down to container ports, tagged with its GVK', () => {
  const schemas = (groupVersionDocument(catalog, 'batch', 'v1') as { components: { schemas: Record<string, any> } }).components.schemas;
  expect(schemas['io.k8s.api.batch.v1.Job']['x-kubernetes-group-version-kind']).toEqual([{ group: 'batch', kind: 'Job', version: 'v1' }]);
  expect(schemas['io.k8s.api.batch.v1.JobSpec'].properties.template).toEqual(expect.objectContaining({ allOf: [{ $ref: '#/components/schemas/io.k8s.api.core.v1.PodTemplateSpec' }] }));
  expect(schemas['io.k8s.api.core.v1.ContainerPort'].properties.containerPort).toMatchObject({ type: 'integer', format: 'int32' });
  expect(schemas['io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta'].properties.ownerReferences.items).toEqual({ $ref: '#/components/schemas/io.k8s.apimachinery.pkg.apis.meta.v1.OwnerReference' });
  // documents hold only what their kinds reach: no RBAC or CRD definitions in batch/v1
  expect(Object.keys(schemas).some((n) => n.includes('.rbac.') || n.includes('apiextensions'))).toBe(false);
});

test('the root lists each group-version with a content hash', () => {
  const docs = new OpenAPIDocuments(catalog);
  const root = docs.root() as { paths: Record<string, { serverRelativeURL: string }> };
  const batch = docs.document('apis/batch/v1')!;
  expect(root.paths['apis/batch/v1']!.serverRelativeURL).toBe(`/openapi/v3/apis/batch/v1?hash=${batch.hash}`);
  expect(Object.keys(root.paths)).toEqual(expect.arrayContaining(['api/v1', 'apis/apps/v1', 'apis/rbac.authorization.k8s.io/v1', 'apis/apiextensions.k8s.io/v1']));
});
