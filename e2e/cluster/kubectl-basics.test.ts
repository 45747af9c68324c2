/** Real kubectl 1.32 against the local cluster: version, get (table, yaml), create, apply, replace, delete. */
import { useClusterSuite } from './cluster-suite.js';

const suite = useClusterSuite();
const kubectl = suite.kubectl;

const cm = (data: Record<string, string>): string =>
  JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'cm1', namespace: 'default' }, data });

test('kubectl version reports server 1.32', async () => {
  const out = await kubectl.ok(['version', '-o', 'json']);
  expect(JSON.parse(out).serverVersion).toMatchObject({ major: '1', minor: '32' });
});

test('kubectl get namespaces prints the bootstrap namespaces as a table', async () => {
  const out = await kubectl.ok(['get', 'namespaces']);
  expect(out.split('\n')[0]).toMatch(/^NAME\s+STATUS\s+AGE$/);
  for (const ns of ['default', 'kube-node-lease', 'kube-public', 'kube-system']) expect(out).toMatch(new RegExp(`^${ns}\\s+Active\\s+\\d+s$`, 'm'));
});

test('kubectl apply creates, then patches, then reports unchanged', async () => {
  expect(await kubectl.ok(['apply', '-f', '-'], cm({ a: '1' }))).toContain('configmap/cm1 created');
  expect(await kubectl.ok(['apply', '-f', '-'], cm({ a: '2' }))).toContain('configmap/cm1 configured');
  expect(await kubectl.ok(['apply', '-f', '-'], cm({ a: '2' }))).toContain('configmap/cm1 unchanged');
  const got = JSON.parse(await kubectl.ok(['get', 'configmap', 'cm1', '-o', 'json']));
  expect(got.data).toEqual({ a: '2' });
  expect(got.metadata.annotations['kubectl.kubernetes.io/last-applied-configuration']).toContain('"a":"2"');
  expect(got.metadata.creationTimestamp).toBe('2026-11-22T10:00:00Z');
});

test('kubectl create of an existing object fails with AlreadyExists', async () => {
  const r = await kubectl.run(['create', '-f', '-'], cm({ a: '1' }));
  expect(r.code).toBe(1);
  expect(r.stderr).toContain('Error from server (AlreadyExists): error when creating "STDIN": configmaps "cm1" already exists');
});

test('kubectl get -o yaml and a missing object', async () => {
  const out = await kubectl.ok(['get', 'cm', 'cm1', '-o', 'yaml']);
  expect(out).toContain('kind: ConfigMap');
  const r = await kubectl.run(['get', 'cm', 'nope']);
  expect(r.stderr).toContain('Error from server (NotFound): configmaps "nope" not found');
});

test('kubectl replace with a stale resourceVersion gets the real 409', async () => {
  const got = JSON.parse(await kubectl.ok(['get', 'configmap', 'cm1', '-o', 'json']));
  got.data = { a: '3' };
  expect(await kubectl.ok(['replace', '-f', '-'], JSON.stringify(got))).toContain('configmap/cm1 replaced');
  got.data = { a: '4' };
  const r = await kubectl.run(['replace', '-f', '-'], JSON.stringify(got));
  expect(r.stderr).toContain(
    'Operation cannot be fulfilled on configmaps "cm1": the object has been modified; please apply your changes to the latest version and try again',
  );
});

test('kubectl label, annotate and patch of each type', async () => {
  await kubectl.ok(['label', 'cm', 'cm1', 'app=web']);
  await kubectl.ok(['annotate', 'cm', 'cm1', 'note=hi']);
  await kubectl.ok(['patch', 'cm', 'cm1', '-p', '{"data":{"b":"x"}}']);
  await kubectl.ok(['patch', 'cm', 'cm1', '--type=merge', '-p', '{"data":{"c":"y"}}']);
  await kubectl.ok(['patch', 'cm', 'cm1', '--type=json', '-p', '[{"op":"add","path":"/data/d","value":"z"}]']);
  const got = JSON.parse(await kubectl.ok(['get', 'configmap', 'cm1', '-o', 'json']));
  expect(got.metadata.labels).toEqual({ app: 'web' });
  expect(got.metadata.annotations.note).toBe('hi');
  expect(got.data).toMatchObject({ a: '3', b: 'x', c: 'y', d: 'z' });
  expect(await kubectl.ok(['get', 'cm', '-l', 'app=web', '-o', 'name'])).toBe('configmap/cm1\n');
});

test('kubectl delete removes the object', async () => {
  expect(await kubectl.ok(['delete', 'cm', 'cm1'])).toContain('configmap "cm1" deleted');
  const r = await kubectl.run(['get', 'cm', 'cm1']);
  expect(r.code).toBe(1);
});

test('kubectl apply --server-side on a built-in kind: create, re-apply, conflict, force', async () => {
  const doc = (data: Record<string, string>): string => JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'ssa' }, data });
  expect(await kubectl.ok(['apply', '--server-side', '-f', '-'], doc({ a: '1', b: '1' }))).toContain('configmap/ssa serverside-applied');
  await kubectl.ok(['apply', '--server-side', '-f', '-'], doc({ a: '1' }));
  const afterDrop = JSON.parse(await kubectl.ok(['get', 'cm', 'ssa', '-o', 'json', '--show-managed-fields']));
  expect(afterDrop.data).toEqual({ a: '1' });
  expect(afterDrop.metadata.managedFields).toEqual([
    expect.objectContaining({ manager: 'kubectl', operation: 'Apply', apiVersion: 'v1', fieldsType: 'FieldsV1', fieldsV1: { 'f:data': { 'f:a': {} } } }),
  ]);
  await kubectl.ok(['patch', 'cm', 'ssa', '--type=merge', '-p', '{"data":{"a":"2"}}']);
  const r = await kubectl.run(['apply', '--server-side', '-f', '-'], doc({ a: '3' }));
  expect(r.stderr).toMatch(/Apply failed with 1 conflict: conflict with "kubectl-patch" using v1 at \S+: \.data\.a/);
  await kubectl.ok(['apply', '--server-side', '--force-conflicts', '-f', '-'], doc({ a: '3' }));
  expect(await kubectl.ok(['get', 'cm', 'ssa', '-o', 'jsonpath={.data.a}'])).toBe('3');
});
