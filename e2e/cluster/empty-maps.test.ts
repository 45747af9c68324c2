/**
 * Empty maps on built-in kinds vanish as they do on a real server (Go's omitempty and the protobuf
 * round trip through storage): `labels: {}`, `annotations: {}`, ConfigMap `data: {}`, a Service's
 * `selector: {}` are never stored, so a patch that only adds one changes nothing — kubectl says
 * "patched (no change)" and the resourceVersion stays. A custom resource is unstructured: `{}` in its
 * body stays, but its metadata goes through ObjectMeta and loses empty maps and lists like a built-in's.
 */
import { stringify } from 'yaml';
import { useClusterSuite } from './cluster-suite.js';

const suite = useClusterSuite();
const kubectl = suite.kubectl;

// stored state the tests check, read in-process (no kubectl start: kubectl's own messages are checked where they are the point)
const getJson = (...args: string[]): Promise<any> => suite.getJson(['get', ...args]);

test('kubectl patch adding empty labels or annotations reports "(no change)" and bumps no resourceVersion', async () => {
  await kubectl.ok(['create', 'configmap', 'plain', '--from-literal=a=b']);
  const before = await getJson('configmap', 'plain');
  expect(await kubectl.ok(['patch', 'configmap', 'plain', '-p', '{"metadata":{"labels":{}}}'])).toBe('configmap/plain patched (no change)\n');
  expect(await kubectl.ok(['patch', 'configmap', 'plain', '--type=merge', '-p', '{"metadata":{"annotations":{}},"data":{}}'])).toBe('configmap/plain patched (no change)\n');
  const after = await getJson('configmap', 'plain');
  expect(after.metadata.resourceVersion).toBe(before.metadata.resourceVersion);
  expect(after.metadata.labels).toBeUndefined();
  expect(after.metadata.annotations).toBeUndefined();
  expect(after.metadata.managedFields).toEqual(before.metadata.managedFields);
});

test('empty maps in a created built-in object are not stored', async () => {
  const cm = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'empty', labels: {}, annotations: {}, finalizers: [] }, data: {}, binaryData: {} };
  const r = await suite.call('POST', '/api/v1/namespaces/default/configmaps', cm);
  expect(r.code).toBe(201);
  const created = JSON.parse(r.text);
  expect(Object.keys(created).sort()).toEqual(['apiVersion', 'kind', 'metadata']);
  expect(created.metadata.labels).toBeUndefined();
  expect(created.metadata.finalizers).toBeUndefined();
  const service = { apiVersion: 'v1', kind: 'Service', metadata: { name: 'no-selector' }, spec: { selector: {}, ports: [{ port: 80 }] } };
  await kubectl.ok(['create', '-f', '-'], stringify(service));
  expect((await getJson('service', 'no-selector')).spec.selector).toBeUndefined();
});

test('removing the last label leaves no labels map behind', async () => {
  await kubectl.ok(['create', 'configmap', 'labelled']);
  await kubectl.ok(['label', 'configmap', 'labelled', 'team=a']);
  await kubectl.ok(['label', 'configmap', 'labelled', 'team-']);
  expect((await getJson('configmap', 'labelled')).metadata.labels).toBeUndefined();
});

describe('custom resources', () => {
  const crd = {
    apiVersion: 'apiextensions.k8s.io/v1',
    kind: 'CustomResourceDefinition',
    metadata: { name: 'boxes.example.com' },
    spec: {
      group: 'example.com',
      scope: 'Namespaced',
      names: { plural: 'boxes', singular: 'box', kind: 'Box' },
      versions: [{
        name: 'v1', served: true, storage: true,
        schema: { openAPIV3Schema: { type: 'object', properties: { spec: { type: 'object', properties: { settings: { type: 'object', additionalProperties: { type: 'string' } }, free: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true } } } } } },
      }],
    },
  };

  beforeAll(async () => {
    await kubectl.ok(['create', '-f', '-'], stringify(crd));
    await suite.cluster.settle();
  });

  test('keep {} in their body but not in their metadata', async () => {
    const box = { apiVersion: 'example.com/v1', kind: 'Box', metadata: { name: 'b1', labels: {}, annotations: {} }, spec: { settings: {}, free: {} } };
    await kubectl.ok(['create', '-f', '-'], stringify(box));
    const stored = await getJson('box', 'b1');
    expect(stored.spec).toEqual({ settings: {}, free: {} });
    expect(stored.metadata.labels).toBeUndefined();
    expect(stored.metadata.annotations).toBeUndefined();
    expect(await kubectl.ok(['patch', 'box', 'b1', '--type=merge', '-p', '{"metadata":{"labels":{}}}'])).toBe('box.example.com/b1 patched (no change)\n');
    expect((await getJson('box', 'b1')).metadata.resourceVersion).toBe(stored.metadata.resourceVersion);
  });
});
