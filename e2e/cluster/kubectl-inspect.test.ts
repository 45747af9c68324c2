/** Real kubectl: api-resources, explain, describe with events, diff, wide/-L/-A tables, pagination, Jobs. */
import { useClusterSuite } from './cluster-suite.js';

const suite = useClusterSuite();
const kubectl = suite.kubectl;

test('api-resources lists the built-in kinds with short names and scope', async () => {
  const out = await kubectl.ok(['api-resources']);
  expect(out).toMatch(/^configmaps\s+cm\s+v1\s+true\s+ConfigMap$/m);
  expect(out).toMatch(/^namespaces\s+ns\s+v1\s+false\s+Namespace$/m);
  expect(out).toMatch(/^cronjobs\s+cj\s+batch\/v1\s+true\s+CronJob$/m);
  expect(out).toMatch(/^leases\s+coordination.k8s.io\/v1\s+true\s+Lease$/m);
  expect(out).toMatch(/^customresourcedefinitions\s+crd,crds\s+apiextensions.k8s.io\/v1\s+false\s+CustomResourceDefinition$/m);
});

test('explain reads the OpenAPI v3 documents', async () => {
  const out = await kubectl.ok(['explain', 'configmaps']);
  expect(out).toContain('KIND:       ConfigMap');
  expect(out).toContain('data\t<map[string]string>');
});

test('a Job is defaulted, gets a generated selector and labels, and prints its columns', async () => {
  const job = { apiVersion: 'batch/v1', kind: 'Job', metadata: { name: 'pi' }, spec: { template: { spec: { restartPolicy: 'Never', containers: [{ name: 'pi', image: 'perl:5.34' }] } } } };
  await kubectl.ok(['apply', '-f', '-'], JSON.stringify(job));
  const got = await suite.getJson(['get', 'job', 'pi']);
  expect(got.spec).toMatchObject({ completions: 1, parallelism: 1, backoffLimit: 6, completionMode: 'NonIndexed', suspend: false });
  expect(got.spec.selector.matchLabels['batch.kubernetes.io/controller-uid']).toBe(got.metadata.uid);
  expect(got.spec.template.metadata.labels['job-name']).toBe('pi');
  expect(got.spec.template.spec.containers[0].imagePullPolicy).toBe('IfNotPresent');
  expect(got.metadata.generation).toBe(1);
  const table = await kubectl.ok(['get', 'jobs']);
  expect(table.split('\n')[0]).toMatch(/^NAME\s+STATUS\s+COMPLETIONS\s+DURATION\s+AGE$/);
  const bad = await kubectl.run(['apply', '-f', '-'], JSON.stringify({ ...job, metadata: { name: 'bad' }, spec: { template: { spec: { restartPolicy: 'Always', containers: [{ name: 'c', image: 'x' }] } } } }));
  expect(bad.stderr).toContain('spec.template.spec.restartPolicy: Unsupported value: "Always": supported values: "OnFailure", "Never"');
  const immutable = await kubectl.run(['patch', 'job', 'pi', '--type=merge', '-p', '{"spec":{"template":{"spec":{"containers":[{"name":"pi","image":"perl:5.36"}]}}}}']);
  expect(immutable.stderr).toContain('spec.template: Invalid value');
  expect(immutable.stderr).toContain('field is immutable');
});

test('describe shows the events of the object', async () => {
  await kubectl.ok(['create', '-f', '-'], JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'described' } }));
  const uid = await kubectl.ok(['get', 'cm', 'described', '-o', 'jsonpath={.metadata.uid}']);
  await kubectl.ok(['create', '-f', '-'], JSON.stringify({
    apiVersion: 'v1', kind: 'Event', metadata: { name: 'described.1' }, type: 'Normal', reason: 'Checked', message: 'all good',
    involvedObject: { apiVersion: 'v1', kind: 'ConfigMap', name: 'described', namespace: 'default', uid }, source: { component: 'tester' }, count: 1,
    firstTimestamp: '2026-11-22T10:00:00Z', lastTimestamp: '2026-11-22T10:00:00Z',
  }));
  const out = await kubectl.ok(['describe', 'cm', 'described']);
  expect(out).toContain('Name:         described');
  expect(out).toMatch(/Normal\s+Checked\s+.*tester\s+all good/);
});

test('diff shows a pending change without applying it', async () => {
  await kubectl.ok(['apply', '-f', '-'], JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'diffed' }, data: { a: '1' } }));
  const r = await kubectl.run(['diff', '-f', '-'], JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'diffed' }, data: { a: '2' } }));
  expect(r.code).toBe(1);
  expect(r.stdout).toContain('-  a: "1"');
  expect(r.stdout).toContain('+  a: "2"');
  expect(await kubectl.ok(['get', 'cm', 'diffed', '-o', 'jsonpath={.data.a}'])).toBe('1');
});

test('-A, -L and -o wide tables', async () => {
  await kubectl.ok(['create', 'namespace', 'other']);
  await kubectl.ok(['create', '-n', 'other', '-f', '-'], JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'lab', labels: { tier: 'gold' } } }));
  const all = await kubectl.ok(['get', 'cm', '-A', '-L', 'tier']);
  expect(all.split('\n')[0]).toMatch(/^NAMESPACE\s+NAME\s+DATA\s+AGE\s+TIER$/);
  expect(all).toMatch(/^other\s+lab\s+0\s+\d+s\s+gold$/m);
  const wide = await kubectl.ok(['get', 'jobs', '-o', 'wide']);
  expect(wide.split('\n')[0]).toMatch(/CONTAINERS\s+IMAGES\s+SELECTOR$/);
});

test('lists paginate with continue tokens (kubectl --chunk-size)', async () => {
  for (let i = 0; i < 7; i++) await kubectl.ok(['create', '-n', 'other', '-f', '-'], JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: `page-${i}` } }));
  const out = await kubectl.ok(['get', 'cm', '-n', 'other', '--chunk-size=3', '-o', 'name']);
  const names = out.trim().split('\n').filter((n) => n !== 'configmap/kube-root-ca.crt');
  expect(names).toEqual(['configmap/lab', ...Array.from({ length: 7 }, (_, i) => `configmap/page-${i}`)]);
  const log = suite.cluster.requestLog().filter((e) => e.resource === 'configmaps' && e.namespace === 'other' && e.verb === 'list');
  expect(log.length).toBeGreaterThanOrEqual(3);
});

test('make deploy style output applies: Deployment and Service are stored (not run)', async () => {
  const docs = [
    { apiVersion: 'v1', kind: 'Service', metadata: { name: 'metrics', labels: { 'control-plane': 'controller-manager' } }, spec: { ports: [{ name: 'https', port: 8443, targetPort: 8443 }], selector: { 'control-plane': 'controller-manager' } } },
    {
      apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'controller-manager' },
      spec: { selector: { matchLabels: { app: 'm' } }, template: { metadata: { labels: { app: 'm' } }, spec: { containers: [{ name: 'manager', image: 'controller:latest' }] } } },
    },
  ];
  const out = await kubectl.ok(['apply', '--server-side', '-f', '-'], docs.map((d) => JSON.stringify(d)).join('\n'));
  expect(out).toContain('service/metrics serverside-applied');
  expect(out).toContain('deployment.apps/controller-manager serverside-applied');
  const svc = await suite.getJson(['get', 'svc', 'metrics']);
  expect(svc.spec).toMatchObject({ type: 'ClusterIP', sessionAffinity: 'None', ports: [{ name: 'https', port: 8443, targetPort: 8443, protocol: 'TCP' }] });
  expect(svc.spec.clusterIP).toMatch(/^10\.96\.\d+\.\d+$/);
  const deploy = await suite.getJson(['get', 'deploy', 'controller-manager']);
  expect(deploy.spec).toMatchObject({ replicas: 1, revisionHistoryLimit: 10 });
  expect(deploy.metadata.generation).toBe(1);
});
