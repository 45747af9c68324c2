/** kubectl's protobuf request bodies: imperative create of configmap, secret, namespace, serviceaccount, role, rolebinding. */
import { useClusterSuite } from './cluster-suite.js';

const suite = useClusterSuite();
const kubectl = suite.kubectl;

test('kubectl create configmap --from-literal decodes the protobuf body', async () => {
  expect(await kubectl.ok(['create', 'configmap', 'pb', '--from-literal=a=1', '--from-literal=b=two'])).toContain('configmap/pb created');
  const cm = await suite.getJson(['get', 'cm', 'pb']);
  expect(cm.data).toEqual({ a: '1', b: 'two' });
});

test('kubectl create secret generic, namespace, serviceaccount', async () => {
  await kubectl.ok(['create', 'secret', 'generic', 'sec', '--from-literal=k=v']);
  expect((await suite.getJson(['get', 'secret', 'sec'])).data).toEqual({ k: Buffer.from('v').toString('base64') });
  await kubectl.ok(['create', 'namespace', 'team-a']);
  expect(await kubectl.ok(['get', 'ns', 'team-a', '-o', 'jsonpath={.status.phase}'])).toBe('Active');
  await kubectl.ok(['create', 'serviceaccount', 'robot', '-n', 'team-a']);
  expect(await kubectl.ok(['get', 'sa', 'robot', '-n', 'team-a', '-o', 'name'])).toBe('serviceaccount/robot\n');
});

test('kubectl create role and rolebinding', async () => {
  await kubectl.ok(['create', 'role', 'reader', '--verb=get,list', '--resource=configmaps']);
  const role = await suite.getJson(['get', 'role', 'reader']);
  expect(role.rules).toEqual([{ verbs: ['get', 'list'], apiGroups: [''], resources: ['configmaps'] }]);
  await kubectl.ok(['create', 'rolebinding', 'reader-bob', '--role=reader', '--user=bob']);
  const rb = await suite.getJson(['get', 'rolebinding', 'reader-bob']);
  expect(rb.roleRef).toEqual({ apiGroup: 'rbac.authorization.k8s.io', kind: 'Role', name: 'reader' });
  expect(rb.subjects).toEqual([{ kind: 'User', apiGroup: 'rbac.authorization.k8s.io', name: 'bob' }]);
  await kubectl.ok(['create', 'clusterrole', 'ns-reader', '--verb=get', '--resource=namespaces']);
  await kubectl.ok(['create', 'clusterrolebinding', 'ns-reader-bob', '--clusterrole=ns-reader', '--user=bob']);
  const crb = await suite.getJson(['get', 'clusterrolebinding', 'ns-reader-bob']);
  expect(crb.roleRef).toEqual({ apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'ns-reader' });
});

test('kubectl auth can-i and auth whoami (protobuf reviews) follow RBAC', async () => {
  expect((await kubectl.ok(['auth', 'can-i', 'delete', 'pods'])).trim()).toBe('yes');
  const bob = suite.kubectlAs('bob');
  expect((await bob.run(['auth', 'can-i', 'list', 'configmaps'])).stdout.trim()).toBe('yes');
  expect((await bob.run(['auth', 'can-i', 'delete', 'configmaps'])).stdout.trim()).toBe('no');
  expect((await bob.run(['auth', 'can-i', 'list', 'configmaps', '-n', 'team-a'])).stdout.trim()).toBe('no');
  expect(await bob.ok(['auth', 'whoami', '-o', 'jsonpath={.status.userInfo.username}'])).toBe('bob');
  expect(await bob.ok(['get', 'cm', 'pb', '-o', 'name'])).toBe('configmap/pb\n');
  expect((await bob.run(['get', 'secrets'])).stderr).toContain('secrets is forbidden: User "bob" cannot list resource "secrets"');
  const report = suite.cluster.leastPrivilegeReport({ user: 'bob' });
  expect(report.used).toContain('get configmaps');
  expect(report.used).toContain('create authorization.k8s.io/selfsubjectaccessreviews');
  expect(report.denied).toEqual(['list secrets']);
  expect(report.unusedGrants).toEqual([
    { verbs: ['get'], apiGroups: [''], resources: ['namespaces'] },
    { verbs: ['list'], apiGroups: [''], resources: ['configmaps'] },
  ]);
});

test('kubectl create token issues a ServiceAccount token that authenticates as the ServiceAccount', async () => {
  const token = (await kubectl.ok(['create', 'token', 'robot', '-n', 'team-a'])).trim();
  expect(token).toMatch(/^eyJ[\w-]+\.[\w-]+\.[\w-]+$/); // a signed JWT (see server-endpoints.test.ts)
  const review = JSON.parse(
    await kubectl.ok(['create', '-o', 'json', '-f', '-'], JSON.stringify({ apiVersion: 'authentication.k8s.io/v1', kind: 'TokenReview', spec: { token } })),
  );
  expect(review.status).toMatchObject({
    authenticated: true,
    user: { username: 'system:serviceaccount:team-a:robot', groups: ['system:serviceaccounts', 'system:serviceaccounts:team-a', 'system:authenticated'] },
  });
  const short = await kubectl.run(['create', 'token', 'robot', '-n', 'team-a', '--duration=1m']);
  expect(short.stderr).toContain('may not specify a duration less than 10 minutes');
});

test('kubectl create job and cronjob (protobuf with a pod template)', async () => {
  await kubectl.ok(['create', 'job', 'once', '--image=busybox', '--', 'sh', '-c', 'sleep 1']);
  const job = await suite.getJson(['get', 'job', 'once']);
  expect(job.spec.template.spec.containers[0]).toMatchObject({ name: 'once', image: 'busybox', command: ['sh', '-c', 'sleep 1'] });
  expect(job.spec.template.spec.restartPolicy).toBe('Never');
  await kubectl.ok(['create', 'cronjob', 'hello', '--image=busybox', '--schedule=*/1 * * * *', '--', 'echo', 'hi']);
  const cj = await suite.getJson(['get', 'cronjob', 'hello']);
  expect(cj.spec).toMatchObject({ schedule: '*/1 * * * *', concurrencyPolicy: 'Allow', successfulJobsHistoryLimit: 3 });
  expect(cj.spec.jobTemplate.spec.template.spec.containers[0].command).toEqual(['echo', 'hi']);
});

test('kubectl create deployment (protobuf) is stored with its selector and template', async () => {
  await kubectl.ok(['create', 'deployment', 'web', '--image=nginx', '--replicas=2']);
  const d = await suite.getJson(['get', 'deployment', 'web']);
  expect(d.spec).toMatchObject({ replicas: 2, selector: { matchLabels: { app: 'web' } }, template: { metadata: { labels: { app: 'web' } } } });
  expect(d.spec.template.spec.containers[0]).toMatchObject({ name: 'nginx', image: 'nginx' });
});

test('kubectl --as impersonates users and service accounts when allowed', async () => {
  expect((await kubectl.run(['auth', 'can-i', 'list', 'configmaps', '--as=bob'])).stdout.trim()).toBe('yes');
  expect((await kubectl.run(['auth', 'can-i', 'list', 'secrets', '--as=bob'])).stdout.trim()).toBe('no');
  expect((await kubectl.run(['get', 'cm', '-n', 'team-a', '--as=system:serviceaccount:team-a:robot'])).stderr).toContain(
    'User "system:serviceaccount:team-a:robot" cannot list resource "configmaps" in API group "" in the namespace "team-a"',
  );
  const bob = suite.kubectlAs('bob');
  const r = await bob.run(['get', 'cm', '--as=alice']);
  // kubectl fails already at discovery and prints only "Error from server (Forbidden)"
  expect(r.stderr).toContain('Error from server (Forbidden)');
  expect(suite.cluster.requestLog().some((e) => e.user === 'bob' && e.code === 403 && e.path === '/api')).toBe(true);
});
