/** The /openapi/v3 documents: self-contained per group-version, full built-in schemas, hashed root. */
import { customResourceDefinitions } from '../crd/crd-kind.js';
import { customResourceType } from '../crd/custom-resource-type.js';
import { admissionKinds } from '../registry/builtin/admission-kinds.js';
import { batchKinds } from '../registry/builtin/batch-kinds.js';
import { coreKinds } from '../registry/builtin/core-kinds.js';
import { coreEvents, newEvents } from '../registry/builtin/event-kinds.js';
import { otherKinds } from '../registry/builtin/other-kinds.js';
import { ResourceCatalog } from '../registry/resource-catalog.js';
import type { ResourceType } from '../registry/resource-type.js';
import type { KubeObject } from '../store/object-store.js';
import type { CustomResourceDefinitionVersion } from 'kubernetes-types/apiextensions/v1.js';
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

test('a CRD change rebuilds only its group-version: the others keep their bytes and hash', () => {
  const ownCatalog = new ResourceCatalog([...coreKinds, ...batchKinds]);
  const docs = new OpenAPIDocuments(ownCatalog);
  const widgetCrd = (sizeType: string): KubeObject => ({
    apiVersion: 'apiextensions.k8s.io/v1',
    kind: 'CustomResourceDefinition',
    metadata: { name: 'widgets.example.com' },
    spec: {
      group: 'example.com',
      scope: 'Namespaced',
      names: { plural: 'widgets', singular: 'widget', kind: 'Widget', listKind: 'WidgetList' },
      versions: [{ name: 'v1', served: true, storage: true, schema: { openAPIV3Schema: { type: 'object', properties: { spec: { type: 'object', properties: { size: { type: sizeType } } } } } } }],
    },
  });
  const widgets = (sizeType: string): ResourceType[] => {
    const crd = widgetCrd(sizeType);
    return [customResourceType(crd, (crd.spec as { versions: CustomResourceDefinitionVersion[] }).versions[0]!, false)];
  };
  const batch = docs.document('apis/batch/v1')!;
  expect(docs.document('apis/example.com/v1')).toBeUndefined();

  ownCatalog.replace('example.com', 'widgets', widgets('integer'));
  const first = docs.document('apis/example.com/v1')!;
  expect(JSON.parse(first.body).components.schemas['com.example.v1.Widget'].properties.spec.properties.size).toEqual({ type: 'integer' });
  expect(docs.document('apis/batch/v1')).toBe(batch);

  ownCatalog.replace('example.com', 'widgets', widgets('string'));
  const changed = docs.document('apis/example.com/v1')!;
  expect(changed.hash).not.toBe(first.hash);
  expect(JSON.parse(changed.body).components.schemas['com.example.v1.Widget'].properties.spec.properties.size).toEqual({ type: 'string' });
  expect(docs.document('apis/batch/v1')).toBe(batch);
  expect((docs.root() as { paths: Record<string, { serverRelativeURL: string }> }).paths['apis/example.com/v1']!.serverRelativeURL).toBe(`/openapi/v3/apis/example.com/v1?hash=${changed.hash}`);

  ownCatalog.replace('example.com', 'widgets', []);
  expect(docs.document('apis/example.com/v1')).toBeUndefined();
  expect(docs.document('apis/batch/v1')).toBe(batch);
});
