/**
 * Server-side apply of atomic maps and structs (`x-kubernetes-map-type: atomic`, a Service's
 * selector) through real kubectl: owned and replaced as a whole, conflicting on the whole map; a custom
 * resource's keyed list whose key has a schema default (an item without it is keyed by the default); and
 * apply on the /scale subresource (PATCH application/apply-patch+yaml with a Scale), which owns the
 * parent's replicas field under subresource "scale".
 */
import { stringify } from 'yaml';
import { useClusterSuite } from './cluster-suite.js';

const suite = useClusterSuite();
const kubectl = suite.kubectl;

const gadgetCrd = {
  apiVersion: 'apiextensions.k8s.io/v1',
  kind: 'CustomResourceDefinition',
  metadata: { name: 'gadgets.example.com' },
  spec: {
    group: 'example.com',
    scope: 'Namespaced',
    names: { plural: 'gadgets', singular: 'gadget', kind: 'Gadget' },
    versions: [
      {
        name: 'v1',
        served: true,
        storage: true,
        subresources: { status: {}, scale: { specReplicasPath: '.spec.replicas', statusReplicasPath: '.status.replicas' } },
        schema: {
          openAPIV3Schema: {
            type: 'object',
            properties: {
              spec: {
                type: 'object',
                properties: {
                  replicas: { type: 'integer' },
                  selector: { type: 'object', additionalProperties: { type: 'string' }, 'x-kubernetes-map-type': 'atomic' },
                  labels: { type: 'object', additionalProperties: { type: 'string' } },
                  endpoint: { type: 'object', 'x-kubernetes-map-type': 'atomic', properties: { host: { type: 'string' }, port: { type: 'integer' } } },
                  ports: {
                    type: 'array',
                    'x-kubernetes-list-type': 'map',
                    'x-kubernetes-list-map-keys': ['containerPort', 'protocol'],
                    items: { type: 'object', required: ['containerPort'], properties: { containerPort: { type: 'integer' }, protocol: { type: 'string', default: 'TCP' }, name: { type: 'string' } } },
                  },
                },
              },
              status: { type: 'object', properties: { replicas: { type: 'integer' } } },
            },
          },
        },
      },
    ],
  },
};

const gadget = (name: string, spec: Record<string, unknown>): string => stringify({ apiVersion: 'example.com/v1', kind: 'Gadget', metadata: { name }, spec });
const apply = (manager: string, yaml: string, extra: string[] = []) => kubectl.run(['apply', '--server-side', `--field-manager=${manager}`, ...extra, '-f', '-'], yaml);
// state the tests check, read in-process (no kubectl start: kubectl's own output is checked where it is the point)
const getJson = (args: string[]): Promise<any> => suite.getJson(args, true);
const entry = (o: any, manager: string): any => o.metadata.managedFields.find((e: any) => e.manager === manager);

beforeAll(async () => {
  await kubectl.ok(['apply', '-f', '-'], stringify(gadgetCrd));
  await suite.cluster.settle();
});

test('an atomic map is one field: a second manager applying part of it conflicts on the whole map', async () => {
  expect((await apply('alpha', gadget('g1', { selector: { app: 'a', tier: 'web' }, labels: { app: 'a', tier: 'web' } }))).code).toBe(0);
  const g1 = await getJson(['get', 'gadget', 'g1']);
  expect(entry(g1, 'alpha').fieldsV1).toEqual({ 'f:spec': { 'f:selector': {}, 'f:labels': { 'f:app': {}, 'f:tier': {} } } });

  // the same key with the same value: fine in a granular map (shared ownership), a conflict in an atomic one
  expect((await apply('beta', gadget('g1', { labels: { app: 'a' } }))).code).toBe(0);
  const refused = await apply('beta', gadget('g1', { selector: { app: 'a' } }));
  expect(refused.code).not.toBe(0);
  expect(refused.stderr).toContain('Apply failed with 1 conflict: conflict with "alpha": .spec.selector');
});

test('apply replaces an atomic map as a whole; a granular map keeps keys others set', async () => {
  await kubectl.ok(['patch', 'gadget', 'g1', '--type=merge', '--field-manager=editor', '-p', '{"spec":{"selector":{"extra":"x"},"labels":{"extra":"x"}}}']);
  let g1 = await getJson(['get', 'gadget', 'g1']);
  expect(g1.spec.selector).toEqual({ app: 'a', tier: 'web', extra: 'x' });
  // the editor changed one key of the atomic map and so took the whole map from alpha
  expect(entry(g1, 'editor').fieldsV1).toEqual({ 'f:spec': { 'f:selector': {}, 'f:labels': { 'f:extra': {} } } });
  expect(entry(g1, 'alpha').fieldsV1).toEqual({ 'f:spec': { 'f:labels': { 'f:app': {}, 'f:tier': {} } } });

  const conflict = await apply('alpha', gadget('g1', { selector: { app: 'a', tier: 'web' }, labels: { app: 'a', tier: 'web' } }));
  expect(conflict.stderr).toMatch(/Apply failed with 1 conflict: conflict with "editor" using example.com\/v1 at [0-9TZ:-]+: \.spec\.selector/);
  expect((await apply('alpha', gadget('g1', { selector: { app: 'a', tier: 'web' }, labels: { app: 'a', tier: 'web' } }), ['--force-conflicts'])).code).toBe(0);
  g1 = await getJson(['get', 'gadget', 'g1']);
  expect(g1.spec.selector).toEqual({ app: 'a', tier: 'web' });
  expect(g1.spec.labels).toEqual({ app: 'a', tier: 'web', extra: 'x' });
});

test('an atomic struct is owned whole, and dropping it from the applied configuration removes it', async () => {
  expect((await apply('alpha', gadget('g2', { endpoint: { host: 'h', port: 80 } }))).code).toBe(0);
  const r = await apply('beta', gadget('g2', { endpoint: { host: 'h', port: 81 } }));
  expect(r.stderr).toContain('conflict with "alpha": .spec.endpoint');
  expect((await apply('alpha', gadget('g2', { replicas: 1 }))).code).toBe(0);
  const g2 = await getJson(['get', 'gadget', 'g2']);
  expect(g2.spec.endpoint).toBeUndefined();
  expect(g2.spec.replicas).toBe(1);
});

test("a built-in atomic map: a Service's selector", async () => {
  const service = (selector: Record<string, string>): string =>
    stringify({ apiVersion: 'v1', kind: 'Service', metadata: { name: 's1' }, spec: { selector, ports: [{ port: 80, protocol: 'TCP' }] } });
  expect((await apply('alpha', service({ app: 'a', tier: 'web' }))).code).toBe(0);
  const refused = await apply('beta', service({ app: 'a' }));
  expect(refused.stderr).toContain('conflict with "alpha": .spec.selector');
  const s1 = await getJson(['get', 'service', 's1']);
  expect(entry(s1, 'alpha').fieldsV1['f:spec']['f:selector']).toEqual({});
});

async function patchScale(path: string, body: string, query: string): Promise<{ code: number; body: any }> {
  const reply = await suite.call('PATCH', `${path}?${query}`, body, { 'Content-Type': 'application/apply-patch+yaml' });
  return { code: reply.code, body: JSON.parse(reply.text) };
}

test('apply on /scale owns the replicas field under subresource "scale" and conflicts with its other owners', async () => {
  expect((await apply('alpha', gadget('g3', { replicas: 2 }))).code).toBe(0);
  const scalePath = '/apis/example.com/v1/namespaces/default/gadgets/g3/scale';
  const scale = (replicas: number): string => stringify({ apiVersion: 'autoscaling/v1', kind: 'Scale', metadata: { name: 'g3' }, spec: { replicas } });

  const conflict = await patchScale(scalePath, scale(5), 'fieldManager=autoscaler');
  expect(conflict.code).toBe(409);
  expect(conflict.body.message).toBe('Apply failed with 1 conflict: conflict with "alpha": .spec.replicas');

  const forced = await patchScale(scalePath, scale(5), 'fieldManager=autoscaler&force=true');
  expect(forced.code).toBe(200);
  expect(forced.body).toMatchObject({ kind: 'Scale', apiVersion: 'autoscaling/v1', spec: { replicas: 5 } });
  const g3 = await getJson(['get', 'gadget', 'g3']);
  expect(g3.spec.replicas).toBe(5);
  expect(entry(g3, 'autoscaler')).toMatchObject({ operation: 'Apply', subresource: 'scale', apiVersion: 'example.com/v1', fieldsV1: { 'f:spec': { 'f:replicas': {} } } });
  expect(entry(g3, 'alpha')).toBeUndefined(); // replicas was all alpha owned

  // the main-resource applier now conflicts with the scale owner, named with its subresource
  const back = await apply('alpha', gadget('g3', { replicas: 2 }));
  expect(back.stderr).toContain('conflict with "autoscaler" with subresource "scale": .spec.replicas');

  // the same applier again on /scale: no conflict with itself
  expect((await patchScale(scalePath, scale(6), 'fieldManager=autoscaler')).code).toBe(200);
  // apply needs a field manager, and takes only a Scale
  expect((await patchScale(scalePath, scale(7), '')).code).toBe(422);
  const wrongKind = await patchScale(scalePath, stringify({ apiVersion: 'example.com/v1', kind: 'Gadget', spec: { replicas: 1 } }), 'fieldManager=x');
  expect(wrongKind.code).toBe(400);
});

test('kubectl scale (an update of /scale) is recorded with subresource "scale"', async () => {
  await kubectl.ok(['scale', 'gadget', 'g2', '--replicas=4']);
  const g2 = await getJson(['get', 'gadget', 'g2']);
  // kubectl's default field manager is its binary name (the runner may call kubectl.1.32 directly)
  const updates = g2.metadata.managedFields.filter((e: any) => e.manager.startsWith('kubectl') && e.operation === 'Update');
  expect(updates).toEqual([expect.objectContaining({ subresource: 'scale', fieldsV1: { 'f:spec': { 'f:replicas': {} } } })]);
  // replicas changed hands: alpha, which applied it, no longer owns it
  expect(entry(g2, 'alpha')).toBeUndefined();
});

test("a CRD keyed list whose key has a default: an item without the key is the same item as one with the default", async () => {
  expect((await apply('alpha', gadget('g-ports', { ports: [{ containerPort: 80 }] }))).code).toBe(0);
  let live = await getJson(['get', 'gadget', 'g-ports']);
  expect(live.spec.ports).toEqual([{ containerPort: 80, protocol: 'TCP' }]);
  expect(Object.keys(entry(live, 'alpha').fieldsV1['f:spec']['f:ports'])).toEqual(['k:{"containerPort":80,"protocol":"TCP"}']);

  const beta = await apply('beta', gadget('g-ports', { ports: [{ containerPort: 80, protocol: 'TCP', name: 'http' }] }));
  expect([beta.code, beta.stderr]).toEqual([0, '']);
  const again = await apply('alpha', gadget('g-ports', { ports: [{ containerPort: 80 }] }));
  expect([again.code, again.stderr]).toEqual([0, '']);
  live = await getJson(['get', 'gadget', 'g-ports']);
  expect(live.spec.ports).toEqual([{ containerPort: 80, protocol: 'TCP', name: 'http' }]);
  expect(Object.keys(entry(live, 'beta').fieldsV1['f:spec']['f:ports'])).toEqual(['k:{"containerPort":80,"protocol":"TCP"}']);
});
