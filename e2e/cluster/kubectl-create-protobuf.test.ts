/**
 * Every kubectl 1.32 `create` subcommand (protobuf request bodies) against the local cluster: the object
 * stored holds what `--dry-run=client -o json` says the command builds. Kinds the cluster does not serve
 * (asked of its discovery, through kubectl, before the tests are collected) are skipped, so these run as
 * soon as a kind is served.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { generateServingCertificates } from '../../src/cluster/tls/certificates.js';
import { startLocalCluster } from '../../src/cluster/index.js';
import { useClusterSuite } from './cluster-suite.js';
import { Kubectl } from './kubectl-runner.js';

/** `kubectl api-resources -o name` of a fresh cluster: plural or plural.group names. */
async function servedResources(): Promise<Set<string>> {
  const probe = await startLocalCluster({});
  const kubectl = new Kubectl(probe.kubeconfigPath);
  try {
    return new Set((await kubectl.ok(['api-resources', '-o', 'name'])).split('\n').filter(Boolean));
  } finally {
    await kubectl.cleanup();
    await probe.stop();
  }
}

const served = await servedResources();
const suite = useClusterSuite();
const kubectl = suite.kubectl;

/** The object without nulls (Go's unset pointers) and without creationTimestamp/status, for toMatchObject. */
function requested(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(requested);
  if (value === null || typeof value !== 'object') return value;
  const entries = Object.entries(value).filter(([k, v]) => v !== null && k !== 'status' && k !== 'creationTimestamp');
  return Object.fromEntries(entries.map(([k, v]) => [k, requested(v)]));
}

/** Creates with kubectl (protobuf body) and checks the stored object against the client-side JSON. */
async function createAndCompare(resource: string, name: string, args: string[]): Promise<Record<string, any>> {
  const client = JSON.parse(await kubectl.ok(['create', '--dry-run=client', '-o', 'json', ...args]));
  expect(await kubectl.ok(['create', ...args])).toContain(' created');
  const stored = JSON.parse(await kubectl.ok(['get', resource, name, '-o', 'json']));
  expect(stored).toMatchObject(requested(client) as object);
  return stored;
}

const when = (resource: string) => (served.has(resource) ? test : test.skip);

when('deployments.apps')('create deployment', async () => {
  const d = await createAndCompare('deployment', 'web', ['deployment', 'web', '--image=nginx', '--replicas=2', '--port=80']);
  expect(d.spec.template.spec.containers[0].ports).toEqual([{ containerPort: 80, protocol: 'TCP' }]);
});

when('jobs.batch')('create job, cronjob and job --from=cronjob', async () => {
  await createAndCompare('job', 'once', ['job', 'once', '--image=busybox', '--', 'sh', '-c', 'sleep 1']);
  await createAndCompare('cronjob', 'hello', ['cronjob', 'hello', '--image=busybox', '--schedule=*/5 * * * *', '--restart=OnFailure', '--', 'echo', 'hi']);
  const manual = await createAndCompare('job', 'hello-manual', ['job', 'hello-manual', '--from=cronjob/hello']);
  expect(manual.metadata.annotations).toEqual({ 'cronjob.kubernetes.io/instantiate': 'manual' });
  expect(manual.metadata.ownerReferences[0]).toMatchObject({ kind: 'CronJob', name: 'hello', controller: true });
});

when('configmaps')('create configmap and secrets (generic, docker-registry, tls)', async () => {
  await createAndCompare('configmap', 'settings', ['configmap', 'settings', '--from-literal=a=1', '--from-literal=b=two']);
  await createAndCompare('secret', 'sec', ['secret', 'generic', 'sec', '--from-literal=k=v']);
  const reg = await createAndCompare('secret', 'reg', ['secret', 'docker-registry', 'reg', '--docker-username=u', '--docker-password=p', '--docker-server=registry.example.com']);
  expect(reg.type).toBe('kubernetes.io/dockerconfigjson');
  const certs = await generateServingCertificates();
  const dir = mkdtempSync(join(tmpdir(), 'kubeforge-tls-'));
  writeFileSync(join(dir, 'tls.crt'), certs.serverCertPem);
  writeFileSync(join(dir, 'tls.key'), certs.serverKeyPem);
  const tls = await createAndCompare('secret', 'tls', ['secret', 'tls', 'tls', `--cert=${join(dir, 'tls.crt')}`, `--key=${join(dir, 'tls.key')}`]);
  expect(Buffer.from(tls.data['tls.crt'], 'base64').toString()).toBe(certs.serverCertPem);
});

when('namespaces')('create namespace, serviceaccount and token', async () => {
  await createAndCompare('namespace', 'team-b', ['namespace', 'team-b']);
  await createAndCompare('serviceaccount', 'robot', ['serviceaccount', 'robot']);
  expect((await kubectl.ok(['create', 'token', 'robot', '--duration=2h'])).trim()).not.toBe('');
});

when('roles.rbac.authorization.k8s.io')('create role, rolebinding, clusterrole (rules and aggregation), clusterrolebinding', async () => {
  await createAndCompare('role', 'reader', ['role', 'reader', '--verb=get,list', '--resource=configmaps,pods/log', '--resource-name=one']);
  await createAndCompare('rolebinding', 'reader-bob', ['rolebinding', 'reader-bob', '--role=reader', '--user=bob', '--serviceaccount=default:robot']);
  await createAndCompare('clusterrole', 'ns-reader', ['clusterrole', 'ns-reader', '--verb=get', '--resource=namespaces', '--non-resource-url=/healthz']);
  await createAndCompare('clusterrole', 'aggregated', ['clusterrole', 'aggregated', '--aggregation-rule=rbac.example.com/aggregate=true']);
  await createAndCompare('clusterrolebinding', 'ns-reader-devs', ['clusterrolebinding', 'ns-reader-devs', '--clusterrole=ns-reader', '--group=devs']);
});

when('services')('create service clusterip, nodeport, loadbalancer, externalname', async () => {
  const svc = await createAndCompare('service', 'svc', ['service', 'clusterip', 'svc', '--tcp=5678:8080']);
  expect(svc.spec.ports[0]).toMatchObject({ port: 5678, targetPort: 8080 });
  const np = await createAndCompare('service', 'np', ['service', 'nodeport', 'np', '--tcp=80:http', '--node-port=30080']);
  expect(np.spec.ports[0]).toMatchObject({ targetPort: 'http', nodePort: 30080 });
  await createAndCompare('service', 'lb', ['service', 'loadbalancer', 'lb', '--tcp=80:8080']);
  await createAndCompare('service', 'ext', ['service', 'externalname', 'ext', '--external-name=example.com']);
});

when('ingresses.networking.k8s.io')('create ingress', async () => {
  await createAndCompare('ingress', 'ing', ['ingress', 'ing', '--class=default', '--rule=foo.com/bar*=svc1:8080,tls=my-cert', '--annotation=team=a']);
});

when('priorityclasses.scheduling.k8s.io')('create priorityclass', async () => {
  await createAndCompare('priorityclass', 'high', ['priorityclass', 'high', '--value=1000', '--description=high priority', '--preemption-policy=Never']);
});

when('resourcequotas')('create quota', async () => {
  await createAndCompare('quota', 'q', ['quota', 'q', '--hard=cpu=1,memory=1G,pods=2', '--scopes=NotBestEffort']);
});

when('poddisruptionbudgets.policy')('create pdb and poddisruptionbudget', async () => {
  const pdb = await createAndCompare('pdb', 'web-pdb', ['pdb', 'web-pdb', '--selector=app=web', '--min-available=50%']);
  expect(pdb.spec.minAvailable).toBe('50%');
  const pdb2 = await createAndCompare('pdb', 'web-pdb2', ['poddisruptionbudget', 'web-pdb2', '--selector=app=web', '--max-unavailable=1']);
  expect(pdb2.spec.maxUnavailable).toBe(1);
});

test('the kinds this branch serves are among those checked (discovery answered)', () => {
  for (const resource of ['deployments.apps', 'jobs.batch', 'configmaps', 'namespaces', 'roles.rbac.authorization.k8s.io', 'services']) expect(served).toContain(resource);
});
