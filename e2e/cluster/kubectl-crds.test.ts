/** Real kubectl with CustomResourceDefinitions: accept/reject, serving, validation, printer columns, scale, SSA, deletion. */
import { stringify } from 'yaml';
import { useClusterSuite } from './cluster-suite.js';

const suite = useClusterSuite();
const kubectl = suite.kubectl;

const widgetCrd = {
  apiVersion: 'apiextensions.k8s.io/v1',
  kind: 'CustomResourceDefinition',
  metadata: { name: 'widgets.example.com' },
  spec: {
    group: 'example.com',
    scope: 'Namespaced',
    names: { plural: 'widgets', singular: 'widget', kind: 'Widget', shortNames: ['wd'] },
    versions: [
      {
        name: 'v1',
        served: true,
        storage: true,
        subresources: { status: {}, scale: { specReplicasPath: '.spec.replicas', statusReplicasPath: '.status.replicas' } },
        additionalPrinterColumns: [
          { name: 'Color', type: 'string', jsonPath: '.spec.color' },
          { name: 'Replicas', type: 'integer', jsonPath: '.spec.replicas' },
        ],
        schema: {
          openAPIV3Schema: {
            type: 'object',
            properties: {
              spec: {
                type: 'object',
                required: ['color'],
                properties: {
                  color: { type: 'string', enum: ['red', 'green'] },
                  replicas: { type: 'integer', minimum: 1, maximum: 10, default: 1 },
                  name: { type: 'string', maxLength: 5 },
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

const widget = (name: string, spec: Record<string, unknown>): Record<string, unknown> => ({ apiVersion: 'example.com/v1', kind: 'Widget', metadata: { name }, spec });

const asYaml = (...docs: unknown[]): string => docs.map((d) => stringify(d)).join('---\n');

test('apply of a CRD and its CR in one file fails the CR first, succeeds on the second run', async () => {
  const file = asYaml(widgetCrd, widget('w1', { color: 'red' }));
  const first = await kubectl.run(['apply', '-f', '-'], file);
  expect(first.stdout).toContain('customresourcedefinition.apiextensions.k8s.io/widgets.example.com created');
  expect(first.stderr).toContain('no matches for kind "Widget" in version "example.com/v1"');
  await suite.cluster.settle();
  const second = await kubectl.run(['apply', '-f', '-'], file);
  expect(second.stderr).toBe('');
  expect(second.stdout).toContain('widget.example.com/w1 created');
});

test('the CRD reports NamesAccepted and Established', async () => {
  await kubectl.ok(['wait', '--for=condition=Established', 'crd/widgets.example.com', '--timeout=10s']);
  const crd = JSON.parse(await kubectl.ok(['get', 'crd', 'widgets.example.com', '-o', 'json']));
  const conds = Object.fromEntries(crd.status.conditions.map((c: { type: string; reason: string }) => [c.type, c.reason]));
  expect(conds).toEqual({ NamesAccepted: 'NoConflicts', Established: 'InitialNamesAccepted' });
  expect(crd.status.acceptedNames.kind).toBe('Widget');
});

test('custom resources are defaulted and shown with their printer columns (no implicit Age)', async () => {
  const out = await kubectl.ok(['get', 'widgets']);
  expect(out.split('\n')[0]).toMatch(/^NAME\s+COLOR\s+REPLICAS$/);
  expect(out).toMatch(/^w1\s+red\s+1$/m);
  expect(await kubectl.ok(['get', 'wd', 'w1', '-o', 'jsonpath={.metadata.generation}'])).toBe('1');
});

test('invalid custom resources get the real Invalid errors', async () => {
  const r = await kubectl.run(['create', '-f', '-'], JSON.stringify(widget('w2', { color: 'blue', replicas: 0, name: 'toolong' })));
  expect(r.code).toBe(1);
  expect(r.stderr).toContain('The Widget "w2" is invalid:');
  expect(r.stderr).toContain('spec.color: Unsupported value: "blue": supported values: "red", "green"');
  expect(r.stderr).toContain('spec.replicas: Invalid value: 0: spec.replicas in body should be greater than or equal to 1');
  expect(r.stderr).toContain('spec.name: Too long: may not be more than 5 bytes');
  const missing = await kubectl.run(['create', '-f', '-'], JSON.stringify(widget('w3', {})));
  expect(missing.stderr).toContain('spec.color: Required value');
});

test('unknown fields are rejected by strict field validation', async () => {
  const r = await kubectl.run(['create', '-f', '-'], JSON.stringify(widget('w4', { color: 'red', extra: 1 })));
  expect(r.stderr).toContain('strict decoding error: unknown field "spec.extra"');
});

test('with --validate=warn unknown fields are dropped and reported as warnings', async () => {
  const r = await kubectl.run(['create', '--validate=warn', '-f', '-'], JSON.stringify(widget('w6', { color: 'red', extra: 1 })));
  expect(r.code).toBe(0);
  expect(r.stderr).toContain('Warning: unknown field "spec.extra"');
  expect(JSON.parse(await kubectl.ok(['get', 'widget', 'w6', '-o', 'json'])).spec).toEqual({ color: 'red', replicas: 1 });
});

test('strategic merge patch on a custom resource is 415', async () => {
  const r = await kubectl.run(['patch', 'widget', 'w1', '--type=strategic', '-p', '{"spec":{"color":"green"}}']);
  expect(r.code).toBe(1);
  expect(r.stderr).toContain(
    'is not supported by example.com/v1, Kind=Widget: the body of the request was in an unknown format - accepted media types include: application/json-patch+json, application/merge-patch+json, application/apply-patch+yaml',
  );
});

test('status subresource and scale', async () => {
  await kubectl.ok(['patch', 'widget', 'w1', '--subresource=status', '--type=merge', '-p', '{"status":{"replicas":2}}']);
  expect(await kubectl.ok(['scale', 'widget', 'w1', '--replicas=3'])).toContain('widget.example.com/w1 scaled');
  const w = JSON.parse(await kubectl.ok(['get', 'widget', 'w1', '-o', 'json']));
  expect(w.spec.replicas).toBe(3);
  expect(w.status.replicas).toBe(2);
  expect(w.metadata.generation).toBe(2);
});

test('server-side apply twice, then a conflict with another manager', async () => {
  const doc = JSON.stringify(widget('w5', { color: 'red', replicas: 2 }));
  expect(await kubectl.ok(['apply', '--server-side', '-f', '-'], doc)).toContain('widget.example.com/w5 serverside-applied');
  expect(await kubectl.ok(['apply', '--server-side', '-f', '-'], doc)).toContain('serverside-applied');
  const r = await kubectl.run(['apply', '--server-side', '--field-manager=other', '-f', '-'], JSON.stringify(widget('w5', { color: 'green' })));
  expect(r.code).toBe(1);
  expect(r.stderr).toContain('Apply failed with 1 conflict: conflict with "kubectl": .spec.color');
  await kubectl.ok(['apply', '--server-side', '--force-conflicts', '--field-manager=other', '-f', '-'], JSON.stringify(widget('w5', { color: 'green' })));
  expect(await kubectl.ok(['get', 'widget', 'w5', '-o', 'jsonpath={.spec.color}'])).toBe('green');
});

test('several served versions: objects are read through any version with only apiVersion rewritten', async () => {
  const schema = { openAPIV3Schema: { type: 'object', properties: { spec: { type: 'object', properties: { size: { type: 'integer' } } } } } };
  const crd = {
    apiVersion: 'apiextensions.k8s.io/v1', kind: 'CustomResourceDefinition', metadata: { name: 'gizmos.example.com' },
    spec: {
      group: 'example.com', scope: 'Namespaced', names: { plural: 'gizmos', kind: 'Gizmo' },
      versions: [{ name: 'v1', served: true, storage: true, schema }, { name: 'v2beta1', served: true, storage: false, schema }],
    },
  };
  await kubectl.ok(['apply', '--server-side', '-f', '-'], JSON.stringify(crd));
  await suite.cluster.settle();
  await kubectl.ok(['create', '-f', '-'], JSON.stringify({ apiVersion: 'example.com/v2beta1', kind: 'Gizmo', metadata: { name: 'g1' }, spec: { size: 3 } }));
  const v1 = JSON.parse(await kubectl.ok(['get', 'gizmos.v1.example.com', 'g1', '-o', 'json']));
  const v2 = JSON.parse(await kubectl.ok(['get', 'gizmos.v2beta1.example.com', 'g1', '-o', 'json']));
  expect(v1.apiVersion).toBe('example.com/v1');
  expect(v2.apiVersion).toBe('example.com/v2beta1');
  expect(v1.spec).toEqual({ size: 3 });
  expect(v2.metadata.uid).toBe(v1.metadata.uid);
  const versions = JSON.parse(await kubectl.ok(['get', '--raw', '/apis/example.com'])).versions.map((v: { version: string }) => v.version);
  expect(versions).toEqual(['v1', 'v2beta1']);
});

test('a non-structural CRD is rejected with the real messages', async () => {
  const bad = structuredClone(widgetCrd) as any;
  bad.metadata.name = 'gadgets.example.com';
  bad.spec.names = { plural: 'gadgets', kind: 'Gadget' };
  bad.spec.versions[0].schema.openAPIV3Schema.properties.spec.properties.untyped = { description: 'no type' };
  const r = await kubectl.run(['create', '-f', '-'], JSON.stringify(bad));
  expect(r.code).toBe(1);
  expect(r.stderr).toContain('The CustomResourceDefinition "gadgets.example.com" is invalid');
  expect(r.stderr).toContain('spec.validation.openAPIV3Schema.properties[spec].properties[untyped].type: Required value: must not be empty for specified object fields');
});

test('api-resources and explain include the CRD', async () => {
  const res = await kubectl.ok(['api-resources', '--api-group=example.com']);
  expect(res).toMatch(/widgets\s+wd\s+example.com\/v1\s+true\s+Widget/);
  const explain = await kubectl.ok(['explain', 'widgets.spec']);
  expect(explain).toContain('color');
  expect(explain).toContain('-required-');
});

test('deleting the CRD removes its objects and its endpoints', async () => {
  await kubectl.ok(['delete', 'crd', 'widgets.example.com']);
  await suite.cluster.settle();
  const r = await kubectl.run(['get', 'crd', 'widgets.example.com']);
  expect(r.stderr).toContain('NotFound');
  expect(suite.cluster.internals.store.list('widgets.example.com')).toEqual([]);
});
