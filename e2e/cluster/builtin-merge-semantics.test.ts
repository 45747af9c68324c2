/**
 * The built-in kinds' list types, map keys and patch strategies (from their v1.32 schemas) through real
 * kubectl: server-side apply of Deployments, Jobs and Pods keyed by container name, port and env name;
 * strategic merge patch by merge key with `$patch` directives; client-side apply reading the strategies
 * from /openapi/v3; `kubectl explain`; and the 500 a real server answers to an applied undeclared field.
 */
import { stringify } from 'yaml';
import { useClusterSuite } from './cluster-suite.js';

const suite = useClusterSuite();
const kubectl = suite.kubectl;

const podSpec = (webImage: string) => ({
  containers: [
    { name: 'web', image: webImage, ports: [{ containerPort: 80 }, { containerPort: 53, protocol: 'UDP' }], env: [{ name: 'A', value: '1' }, { name: 'B', value: '2' }] },
    { name: 'sidecar', image: 'busybox:1.36', env: [{ name: 'S', value: 's' }] },
  ],
});
const deployment = (name: string, webImage = 'nginx:1.27') => ({
  apiVersion: 'apps/v1',
  kind: 'Deployment',
  metadata: { name, namespace: 'default' },
  spec: { replicas: 1, selector: { matchLabels: { app: name } }, template: { metadata: { labels: { app: name } }, spec: podSpec(webImage) } },
});
const apply = (manager: string, object: unknown, extra: string[] = []) => kubectl.run(['apply', '--server-side', `--field-manager=${manager}`, ...extra, '-f', '-'], stringify(object));
// state the tests check, read in-process (no kubectl start: kubectl's own output is checked where it is the point)
const getJson = (args: string[]): Promise<any> => suite.getJson(args, true);
const containersOf = (o: any): any[] => o.spec.template?.spec.containers ?? o.spec.containers;

test('a Deployment applied twice unchanged: no conflict, no new revision; items owned by name, port+protocol and env name', async () => {
  expect((await apply('alpha', deployment('d1'))).code).toBe(0);
  const first = await getJson(['get', 'deployment', 'd1']);
  const again = await apply('alpha', deployment('d1'));
  expect([again.code, again.stderr]).toEqual([0, '']);
  const second = await getJson(['get', 'deployment', 'd1']);
  expect(second.metadata.resourceVersion).toBe(first.metadata.resourceVersion);
  const fields = second.metadata.managedFields.find((e: any) => e.manager === 'alpha').fieldsV1;
  const web = fields['f:spec']['f:template']['f:spec']['f:containers']['k:{"name":"web"}'];
  // the port without a protocol is keyed with the schema default, and the applier does not own the defaulted field
  expect(Object.keys(web['f:ports']).sort()).toEqual(['k:{"containerPort":53,"protocol":"UDP"}', 'k:{"containerPort":80,"protocol":"TCP"}']);
  expect(web['f:ports']['k:{"containerPort":80,"protocol":"TCP"}']).toEqual({ '.': {}, 'f:containerPort': {} });
  expect(Object.keys(web['f:env'])).toEqual(['k:{"name":"A"}', 'k:{"name":"B"}']);
  expect(containersOf(second)[0].ports[0]).toEqual({ containerPort: 80, protocol: 'TCP' });
});

test("a second manager changing one container's image conflicts on that field only; forced, it takes only that", async () => {
  await kubectl.ok(['apply', '--server-side', '--field-manager=alpha', '-f', '-'], stringify(deployment('d2')));
  const changed = { ...deployment('d2'), spec: { ...deployment('d2').spec, template: { ...deployment('d2').spec.template, spec: { containers: [{ name: 'web', image: 'nginx:1.28' }] } } } };
  const conflict = await apply('beta', changed);
  expect(conflict.code).not.toBe(0);
  expect(conflict.stderr).toContain('Apply failed with 1 conflict: conflict with "alpha": .spec.template.spec.containers[name="web"].image');
  expect((await apply('beta', changed, ['--force-conflicts'])).code).toBe(0);
  const after = await getJson(['get', 'deployment', 'd2']);
  expect(containersOf(after).map((c: any) => [c.name, c.image])).toEqual([['web', 'nginx:1.28'], ['sidecar', 'busybox:1.36']]);
  const alpha = after.metadata.managedFields.find((e: any) => e.manager === 'alpha').fieldsV1;
  const alphaWeb = alpha['f:spec']['f:template']['f:spec']['f:containers']['k:{"name":"web"}'];
  expect(alphaWeb['f:image']).toBeUndefined();
  expect(alphaWeb['f:env']).toBeDefined();
  // alpha re-applying without the web image leaves beta's image in place
  expect((await apply('alpha', deployment('d2'), ['--force-conflicts'])).code).toBe(0);
});

test('a Job and a Pod applied twice with lists of containers, ports and env: no conflicts', async () => {
  const job = { apiVersion: 'batch/v1', kind: 'Job', metadata: { name: 'j1', namespace: 'default' }, spec: { template: { spec: { ...podSpec('busybox:1.36'), restartPolicy: 'Never' } } } };
  const pod = { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p1', namespace: 'default' }, spec: podSpec('nginx:1.27') };
  for (const object of [job, pod, job, pod]) {
    const r = await apply('alpha', object);
    expect([r.code, r.stderr]).toEqual([0, '']);
  }
  // a pod's containers take no new env (pod updates are limited), as on a real server
  const addEnv = { ...pod, spec: { containers: [{ name: 'web', image: 'nginx:1.27', env: [{ name: 'C', value: '3' }] }] } };
  expect((await apply('beta', addEnv)).stderr).toContain('pod updates may not change fields other than');
});

test("a second manager adding an env var to one of a Deployment's containers merges into the list by name, without conflict", async () => {
  await kubectl.ok(['apply', '--server-side', '--field-manager=alpha', '-f', '-'], stringify(deployment('d6')));
  const addEnv = deployment('d6') as any;
  addEnv.spec.template.spec = { containers: [{ name: 'web', image: 'nginx:1.27', env: [{ name: 'C', value: '3' }] }] };
  const r = await apply('beta', addEnv);
  expect([r.code, r.stderr]).toEqual([0, '']);
  const live = await getJson(['get', 'deployment', 'd6']);
  expect(containersOf(live).map((c: any) => [c.name, (c.env ?? []).map((e: any) => e.name)])).toEqual([['web', ['A', 'B', 'C']], ['sidecar', ['S']]]);
});

test('strategic merge patch merges containers and env by name; $patch delete and replace', async () => {
  await kubectl.ok(['apply', '--server-side', '--field-manager=alpha', '-f', '-'], stringify(deployment('d3')));
  const patch = (p: unknown) => kubectl.ok(['patch', 'deployment', 'd3', '--type=strategic', '-p', JSON.stringify(p)]);
  await patch({ spec: { template: { spec: { containers: [{ name: 'web', env: [{ name: 'B', value: 'two' }, { name: 'C', value: '3' }] }] } } } });
  let live = await getJson(['get', 'deployment', 'd3']);
  expect(containersOf(live).map((c: any) => c.name)).toEqual(['web', 'sidecar']);
  expect(containersOf(live)[0].image).toBe('nginx:1.27');
  expect(containersOf(live)[0].env).toEqual([{ name: 'A', value: '1' }, { name: 'B', value: 'two' }, { name: 'C', value: '3' }]);
  await patch({ spec: { template: { spec: { containers: [{ name: 'sidecar', $patch: 'delete' }] } } } });
  await patch({ spec: { template: { spec: { containers: [{ name: 'web', env: [{ $patch: 'replace' }, { name: 'Z', value: 'z' }] }] } } } });
  live = await getJson(['get', 'deployment', 'd3']);
  expect(containersOf(live).map((c: any) => c.name)).toEqual(['web']);
  expect(containersOf(live)[0].env).toEqual([{ name: 'Z', value: 'z' }]);
  // tolerations have no patch strategy: replaced whole
  await patch({ spec: { template: { spec: { tolerations: [{ key: 'a', operator: 'Exists' }] } } } });
  await patch({ spec: { template: { spec: { tolerations: [{ key: 'b', operator: 'Exists' }] } } } });
  live = await getJson(['get', 'deployment', 'd3']);
  expect(live.spec.template.spec.tolerations).toEqual([{ key: 'b', operator: 'Exists' }]);
});

test("a Service's ports merge by port (not containerPort) under strategic merge patch", async () => {
  const svc = { apiVersion: 'v1', kind: 'Service', metadata: { name: 's1', namespace: 'default' }, spec: { selector: { app: 'x' }, ports: [{ name: 'http', port: 80 }] } };
  await kubectl.ok(['apply', '-f', '-'], stringify(svc));
  await kubectl.ok(['patch', 'service', 's1', '--type=strategic', '-p', JSON.stringify({ spec: { ports: [{ name: 'https', port: 443 }] } })]);
  const live = await getJson(['get', 'service', 's1']);
  expect(live.spec.ports.map((p: any) => [p.name, p.port, p.protocol])).toEqual([['http', 80, 'TCP'], ['https', 443, 'TCP']]);
});

test('client-side kubectl apply reads the merge keys from /openapi/v3: a container dropped from the file is removed, the rest kept', async () => {
  const two = deployment('d4');
  expect((await kubectl.run(['apply', '-f', '-'], stringify(two))).code).toBe(0);
  const one = { ...two, spec: { ...two.spec, template: { ...two.spec.template, spec: { containers: [two.spec.template.spec.containers[1]] } } } };
  const r = await kubectl.run(['apply', '-f', '-'], stringify(one));
  expect([r.code, r.stderr]).toEqual([0, '']);
  expect(r.stdout).toContain('deployment.apps/d4 configured');
  const live = await getJson(['get', 'deployment', 'd4']);
  expect(containersOf(live).map((c: any) => c.name)).toEqual(['sidecar']);
});

test("client-side apply switching a Deployment's strategy to Recreate drops rollingUpdate", async () => {
  const rolling = deployment('d7') as any;
  rolling.spec.strategy = { type: 'RollingUpdate', rollingUpdate: { maxSurge: 1, maxUnavailable: 0 } };
  await kubectl.ok(['apply', '-f', '-'], stringify(rolling));
  const recreate = deployment('d7') as any;
  recreate.spec.strategy = { type: 'Recreate' };
  const r = await kubectl.run(['apply', '-f', '-'], stringify(recreate));
  expect([r.code, r.stderr]).toEqual([0, '']);
  expect((await getJson(['get', 'deployment', 'd7'])).spec.strategy).toEqual({ type: 'Recreate' });
});

test('the v3 documents carry the extensions, and list strategic merge patch for built-in kinds only', async () => {
  const apps = JSON.parse((await suite.call('GET', '/openapi/v3/apis/apps/v1')).text);
  const podSpecSchema = apps.components.schemas['io.k8s.api.core.v1.PodSpec'];
  expect(podSpecSchema.properties.containers).toMatchObject({
    'x-kubernetes-list-type': 'map', 'x-kubernetes-list-map-keys': ['name'], 'x-kubernetes-patch-merge-key': 'name', 'x-kubernetes-patch-strategy': 'merge',
  });
  expect(apps.components.schemas['io.k8s.api.core.v1.ContainerPort'].properties.protocol.default).toBe('TCP');
  expect(apps.components.schemas['io.k8s.apimachinery.pkg.apis.meta.v1.LabelSelector']['x-kubernetes-map-type']).toBe('atomic');
  const patchOp = apps.paths['/apis/apps/v1/namespaces/{namespace}/deployments/{name}'].patch;
  expect(Object.keys(patchOp.requestBody.content)).toContain('application/strategic-merge-patch+json');
  const crds = JSON.parse((await suite.call('GET', '/openapi/v3/apis/apiextensions.k8s.io/v1')).text);
  expect(crds.components.schemas['io.k8s.apiextensions-apiserver.pkg.apis.apiextensions.v1.CustomResourceDefinition']['x-kubernetes-group-version-kind'])
    .toEqual([{ group: 'apiextensions.k8s.io', kind: 'CustomResourceDefinition', version: 'v1' }]);
});

test('kubectl explain reads the extended schemas', async () => {
  const out = await kubectl.ok(['explain', 'deployment.spec.template.spec.containers.ports']);
  expect(out).toContain('FIELD: ports <[]ContainerPort>');
  expect(out).toMatch(/protocol\s+<string>/);
  const recursive = await kubectl.ok(['explain', 'pods.spec', '--recursive']);
  expect(recursive).toMatch(/containers\s+<\[\]Container> -required-/);
});

test('server-side apply of an undeclared field: the 500 a v1.32 server answers', async () => {
  const bad = deployment('d5') as any;
  bad.spec.foo = 'bar';
  const r = await apply('alpha', bad);
  expect(r.code).not.toBe(0);
  expect(r.stderr).toContain('failed to create typed patch object (default/d5; apps/v1, Kind=Deployment): .spec.foo: field not declared in schema');
  const nested = deployment('d5') as any;
  nested.spec.template.spec.containers[1].colour = 'red';
  const raw = await suite.call('PATCH', '/apis/apps/v1/namespaces/default/deployments/d5?fieldManager=alpha', JSON.stringify(nested), { 'Content-Type': 'application/apply-patch+yaml' });
  expect(raw.code).toBe(500);
  const status = JSON.parse(raw.text);
  expect(status).toEqual({
    kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', code: 500,
    message: 'failed to create typed patch object (default/d5; apps/v1, Kind=Deployment): .spec.template.spec.containers[name="sidecar"].colour: field not declared in schema',
  });
  const core = await suite.call('PATCH', '/api/v1/namespaces/default/configmaps/c1?fieldManager=alpha', JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'c1' }, spec: {} }), { 'Content-Type': 'application/apply-patch+yaml' });
  expect([core.code, JSON.parse(core.text).message]).toEqual([500, 'failed to create typed patch object (/c1; /v1, Kind=ConfigMap): .spec: field not declared in schema']);
});

test('server-side apply of a field a custom resource schema lacks: 500 too; preserved and embedded fields pass', async () => {
  const crd = {
    apiVersion: 'apiextensions.k8s.io/v1',
    kind: 'CustomResourceDefinition',
    metadata: { name: 'gizmos.example.com' },
    spec: {
      group: 'example.com', scope: 'Namespaced', names: { plural: 'gizmos', singular: 'gizmo', kind: 'Gizmo' },
      versions: [{
        name: 'v1', served: true, storage: true,
        schema: { openAPIV3Schema: { type: 'object', properties: { spec: { type: 'object', properties: {
          size: { type: 'integer' },
          extra: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true },
          template: { type: 'object', 'x-kubernetes-embedded-resource': true, properties: { data: { type: 'object', additionalProperties: { type: 'string' } } } },
        } } } } },
      }],
    },
  };
  await kubectl.ok(['apply', '-f', '-'], stringify(crd));
  await suite.cluster.settle();
  const gizmo = (spec: Record<string, unknown>) => ({ apiVersion: 'example.com/v1', kind: 'Gizmo', metadata: { name: 'g1', namespace: 'default' }, spec });
  const fine = await apply('alpha', gizmo({ size: 1, extra: { any: { thing: true } }, template: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'x' }, data: { a: 'b' } } }));
  expect([fine.code, fine.stderr]).toEqual([0, '']);
  const bad = await apply('alpha', gizmo({ size: 2, bogus: true }));
  expect(bad.code).not.toBe(0);
  expect(bad.stderr).toContain('failed to create typed patch object (default/g1; example.com/v1, Kind=Gizmo): .spec.bogus: field not declared in schema');
  const nested = await apply('alpha', gizmo({ template: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'x', nope: 1 } } }));
  expect(nested.stderr).toContain('.spec.template.metadata.nope: field not declared in schema');
});
