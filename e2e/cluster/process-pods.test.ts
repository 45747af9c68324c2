/**
 * Containers whose image is mapped to a local build (`startLocalCluster({ images })`, `cluster start
 * --image`) run as real Node.js processes: Running on their own loopback pod IP with the Dockerfile's
 * ENTRYPOINT/CMD and the container's env, stdout/stderr in `kubectl logs` (and --previous after a
 * restart), exits restarted with CrashLoopBackOff back-off on the cluster clock, a readiness probe that
 * really calls the process driving Ready, SIGTERM on deletion and SIGKILL when the grace period runs
 * out, in-cluster credentials through KUBEFORGE_SERVICEACCOUNT_DIR, and Services routing to the
 * processes — services/proxy and an admission webhook called at `<svc>.<ns>.svc`.
 * The clock is virtual; only the processes' own start and answers take real time (polled).
 */
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createCertificateAuthority, issueServingCertificate } from '../../src/certificates/self-signed.js';
import { useClusterSuite } from './cluster-suite.js';

const imageDir = join(dirname(fileURLToPath(import.meta.url)), 'fixtures', 'process-image');
const clientNode = createRequire(import.meta.url).resolve('@kubernetes/client-node');
const scratch = mkdtempSync(join(tmpdir(), 'kubeforge-process-pods-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

const suite = useClusterSuite({ images: { 'example.com/hello:v1': imageDir } });
const kubectl = suite.kubectl;

const until = suite.until.bind(suite);

const advance = async (ms: number): Promise<void> => {
  await suite.cluster.clock.advance(ms);
  await suite.cluster.settle();
};
// state the tests check, read in-process (no kubectl start: kubectl's own output is checked where it is the point)
const getPod = (name: string): Promise<any> => suite.getJson(['get', 'pod', name]);
// Fixtures are written with --validate=false: field validation is not what this file tests, and kubectl then
// skips parsing the group-version's OpenAPI document before the write (15-20 ms CPU a run).
const apply = (object: unknown): Promise<string> => kubectl.ok(['apply', '--validate=false', '-f', '-'], JSON.stringify(object));

function pod(name: string, env: Array<Record<string, unknown>>, extra: { spec?: Record<string, unknown>; container?: Record<string, unknown>; labels?: Record<string, string>; finalizers?: string[] } = {}): unknown {
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name, labels: extra.labels ?? { app: name }, ...(extra.finalizers ? { finalizers: extra.finalizers } : {}) },
    spec: { containers: [{ name: 'app', image: 'example.com/hello:v1', env, ports: [{ name: 'http', containerPort: 8080 }], ...extra.container }], ...extra.spec },
  };
}

const running = (name: string) => async (): Promise<any> => {
  const p = await getPod(name);
  return p.status?.containerStatuses?.[0]?.state?.running ? p : undefined;
};
// polled in-process, GET pods/<name>/log as kubectl logs sends it (a kubectl start a poll cost ~0.045 CPU-s); the
// first test reads the same lines through kubectl logs
const logsContain = (name: string, text: string) => async (): Promise<string | undefined> => {
  const r = await suite.call('GET', `/api/v1/namespaces/default/pods/${name}/log`);
  return r.code === 200 && r.text.includes(text) ? r.text : undefined;
};

test('a mapped image runs as a process: own pod IP, Dockerfile ENTRYPOINT/CMD, env from values, fields, Secrets and ConfigMaps, logs in kubectl logs', async () => {
  // the Secret and ConfigMap `kubectl create secret generic/configmap --from-literal` would make, and the pod: one kubectl start
  await apply({
    apiVersion: 'v1',
    kind: 'List',
    items: [
      { apiVersion: 'v1', kind: 'Secret', metadata: { name: 'greeting' }, type: 'Opaque', data: { text: Buffer.from('s3cret').toString('base64') } },
      { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'colours' }, data: { favourite: 'teal' } },
      pod('hello', [
        { name: 'MODE', value: 'serve' },
        { name: 'POD_IP', valueFrom: { fieldRef: { fieldPath: 'status.podIP' } } },
        { name: 'GREETING', valueFrom: { secretKeyRef: { name: 'greeting', key: 'text' } } },
        { name: 'COLOUR', valueFrom: { configMapKeyRef: { name: 'colours', key: 'favourite' } } },
      ]),
    ],
  });
  const p = await until('hello running', running('hello'));
  expect(p.status.phase).toBe('Running');
  expect(p.status.podIP).toMatch(/^127\.2\d\d\.0\.\d+$/);
  expect(p.status.containerStatuses[0]).toMatchObject({ name: 'app', image: 'example.com/hello:v1', started: true, ready: true, restartCount: 0 });
  expect(p.status.containerStatuses[0].imageID).toMatch(/^example\.com\/hello@sha256:[0-9a-f]{64}$/);
  await until('the listening line', logsContain('hello', 'listening on'));
  const logs = await kubectl.ok(['logs', 'hello']);
  // bound to its pod IP (server.listen(8080) with no host), argv from ENTRYPOINT + CMD, working directory the project
  expect(logs).toContain(`listening on ${p.status.podIP}:8080`);
  expect(logs).toContain(`hello from hello: pod IP ${p.status.podIP}, greeting s3cret, colour teal, cwd ${imageDir}, argv --from-cmd`);
  expect(logs).toContain('a line on stderr');
  const answer = await fetch(`http://${p.status.podIP}:8080/direct`);
  expect(await answer.text()).toBe('hello answered GET /direct');
});

test('container args replace the image CMD; a missing Secret is CreateContainerConfigError; runAsNonRoot checks the image USER', async () => {
  await apply(pod('with-args', [{ name: 'MODE', value: 'exit' }, { name: 'EXIT_CODE', value: '0' }, { name: 'WHO', value: 'me' }], { container: { args: ['--who', '$(WHO)'] }, spec: { restartPolicy: 'Never' } }));
  await until('with-args done', async () => (await getPod('with-args')).status?.phase === 'Succeeded');
  expect(await kubectl.ok(['logs', 'with-args'])).toContain('argv --who me\n');
  expect((await getPod('with-args')).status.containerStatuses[0].state.terminated).toMatchObject({ exitCode: 0, reason: 'Completed' });

  await apply(pod('no-secret', [{ name: 'GREETING', valueFrom: { secretKeyRef: { name: 'absent', key: 'text' } } }]));
  await suite.cluster.settle();
  const waiting = (await getPod('no-secret')).status.containerStatuses[0].state.waiting;
  expect(waiting).toEqual({ reason: 'CreateContainerConfigError', message: 'secret "absent" not found' });
  expect(await kubectl.ok(['describe', 'pod', 'no-secret'])).toMatch(/Warning\s+Failed\s+.*kubelet\s+Error: secret "absent" not found/);

  await apply(pod('as-root', [], { spec: { securityContext: { runAsNonRoot: true, runAsUser: 0 } } }));
  await suite.cluster.settle();
  expect((await getPod('as-root')).status.containerStatuses[0].state.waiting).toEqual({
    reason: 'CreateContainerConfigError',
    message: expect.stringMatching(/^container's runAsUser breaks non-root policy \(pod: "as-root_default\(.+\)", container: app\)$/),
  });
  // the image's USER 65532 passes runAsNonRoot
  await apply(pod('non-root', [{ name: 'MODE', value: 'exit' }, { name: 'EXIT_CODE', value: '0' }], { spec: { restartPolicy: 'Never', securityContext: { runAsNonRoot: true } } }));
  await until('non-root done', async () => (await getPod('non-root')).status?.phase === 'Succeeded');
  await kubectl.ok(['delete', 'pod', 'with-args', 'no-secret', 'as-root', 'non-root', '--wait=false']);
});

test('an exit restarts the container with CrashLoopBackOff back-off on the cluster clock; kubectl logs --previous shows the last run', async () => {
  await apply(pod('crasher', [{ name: 'MODE', value: 'exit' }, { name: 'EXIT_CODE', value: '3' }]));
  const first = await until('the first exit', async () => {
    const cs = (await getPod('crasher')).status?.containerStatuses?.[0];
    return cs?.state?.waiting?.reason === 'CrashLoopBackOff' ? cs : undefined;
  });
  expect(first.restartCount).toBe(1);
  expect(first.lastState.terminated).toMatchObject({ exitCode: 3, reason: 'Error' });
  expect(first.state.waiting.message).toMatch(/^back-off 10s restarting failed container=app pod=crasher_default\(/);
  expect(await kubectl.ok(['logs', 'crasher', '--previous'])).toContain('exiting with 3');
  // still backing off a moment before 10 s, restarted at 10 s
  await advance(9_000);
  expect((await getPod('crasher')).status.containerStatuses[0].restartCount).toBe(1);
  await advance(1_000);
  const second = await until('the second exit', async () => {
    const cs = (await getPod('crasher')).status?.containerStatuses?.[0];
    return cs?.restartCount === 2 ? cs : undefined;
  });
  expect(second.state.waiting.message).toMatch(/^back-off 20s restarting/);
  expect(second.lastState.terminated.containerID).not.toBe(first.lastState.terminated.containerID);
  expect(await kubectl.ok(['describe', 'pod', 'crasher'])).toMatch(/Warning\s+BackOff\s+.*Back-off restarting failed container app in pod crasher_default/);
  await kubectl.ok(['delete', 'pod', 'crasher', '--wait=false']);
});

test('a readiness probe that really calls the process drives the Ready condition', async () => {
  await apply(pod('probed', [{ name: 'MODE', value: 'serve' }], { container: { readinessProbe: { httpGet: { path: '/readyz', port: 'http' }, initialDelaySeconds: 5, periodSeconds: 10, failureThreshold: 1 } } }));
  const p = await until('probed listening', async () => (await logsContain('probed', 'listening on')()) && getPod('probed'));
  expect(p.status.containerStatuses[0].ready).toBe(false);
  await advance(5_000);
  expect(await kubectl.ok(['describe', 'pod', 'probed'])).toMatch(/Warning\s+Unhealthy\s+.*kubelet\s+Readiness probe failed: HTTP probe failed with statuscode: 503/);
  expect((await getPod('probed')).status.conditions.find((c: any) => c.type === 'Ready')).toMatchObject({ status: 'False', reason: 'ContainersNotReady' });
  await fetch(`http://${p.status.podIP}:8080/ready-now`);
  await advance(10_000);
  const ready = await getPod('probed');
  expect(ready.status.containerStatuses[0].ready).toBe(true);
  expect(ready.status.conditions.find((c: any) => c.type === 'Ready')).toMatchObject({ status: 'True' });
  await kubectl.ok(['delete', 'pod', 'probed', '--wait=false']);
});

test('init containers run first, one after another; a startup probe holds started (and readiness) until it passes', async () => {
  await apply(
    pod('staged', [{ name: 'MODE', value: 'serve' }], {
      spec: {
        initContainers: [
          { name: 'prepare', image: 'example.com/hello:v1', env: [{ name: 'MODE', value: 'exit' }, { name: 'EXIT_CODE', value: '0' }] },
          { name: 'idle-tool', image: 'busybox:1.36', command: ['true'] },
        ],
      },
      container: { startupProbe: { httpGet: { path: '/healthz', port: 8080 }, initialDelaySeconds: 3, periodSeconds: 1 } },
    }),
  );
  const started = await until('the app container running', running('staged'));
  expect(started.status.initContainerStatuses.map((s: any) => [s.name, s.state.terminated?.reason, s.state.terminated?.exitCode])).toEqual([
    ['prepare', 'Completed', 0],
    ['idle-tool', 'Completed', 0],
  ]);
  expect(await kubectl.ok(['logs', 'staged', '-c', 'prepare'])).toContain('exiting with 0');
  expect(started.status.containerStatuses[0]).toMatchObject({ started: false, ready: false });
  await until('staged listening', logsContain('staged', 'listening on'));
  await advance(3_000);
  expect((await getPod('staged')).status.containerStatuses[0]).toMatchObject({ started: true, ready: true });
  await kubectl.ok(['delete', 'pod', 'staged', '--wait=false']);
});

test('a failing liveness probe gets the process stopped (SIGTERM, its grace period) and restarted', async () => {
  const marker = join(scratch, 'liveness');
  await apply(
    pod('unhealthy', [{ name: 'MODE', value: 'serve' }, { name: 'MARKER', value: marker }], {
      container: { livenessProbe: { tcpSocket: { port: 8081 }, initialDelaySeconds: 2, periodSeconds: 3, failureThreshold: 2 } },
    }),
  );
  await until('unhealthy listening', logsContain('unhealthy', 'listening on'));
  await advance(2_000);
  expect((await getPod('unhealthy')).status.containerStatuses[0].state.running).toBeDefined();
  await advance(3_000);
  const restarted = await until('the restart', async () => {
    const cs = (await getPod('unhealthy')).status.containerStatuses[0];
    return cs.restartCount === 1 ? cs : undefined;
  });
  expect(restarted.lastState.terminated).toMatchObject({ exitCode: 0, reason: 'Completed' });
  expect(readFileSync(marker, 'utf8')).toBe('SIGTERM unhealthy\n');
  const described = await kubectl.ok(['describe', 'pod', 'unhealthy']);
  expect(described).toMatch(/Warning\s+Unhealthy\s+.*kubelet\s+Liveness probe failed: dial tcp 127\.2\d\d\.0\.\d+:8081: connect: connection refused/);
  expect(described).toMatch(/Normal\s+Killing\s+.*kubelet\s+Container app failed liveness probe, will be restarted/);
  await kubectl.ok(['delete', 'pod', 'unhealthy', '--wait=false']);
});

test('deletion sends SIGTERM, and SIGKILL once the grace period runs out on the cluster clock', async () => {
  const marker = join(scratch, 'sigterm');
  const env = (mode: string) => [{ name: 'MODE', value: mode }, { name: 'MARKER', value: marker }];
  await apply(pod('polite', env('serve'), { finalizers: ['kubeforge.io/hold'], spec: { terminationGracePeriodSeconds: 30 } }));
  await apply(pod('stubborn', env('stubborn'), { finalizers: ['kubeforge.io/hold'], spec: { terminationGracePeriodSeconds: 5 } }));
  await until('both listening', async () => (await logsContain('polite', 'listening on')()) && (await logsContain('stubborn', 'listening on')()));
  await kubectl.ok(['delete', 'pod', 'polite', 'stubborn', '--wait=false']);
  const polite = await until('polite stopped', async () => {
    const cs = (await getPod('polite')).status.containerStatuses[0];
    return cs.state.terminated ? cs : undefined;
  });
  expect(polite.state.terminated).toMatchObject({ exitCode: 0, reason: 'Completed' });
  await until('both got SIGTERM', async () => existsSync(marker) && readFileSync(marker, 'utf8').split('\n').filter(Boolean).length === 2);
  expect(readFileSync(marker, 'utf8').split('\n').filter(Boolean).sort()).toEqual(['SIGTERM polite', 'SIGTERM stubborn']);
  // the stubborn one ignores SIGTERM: it runs until the 5 s grace period ends on the cluster clock
  await advance(4_000);
  expect((await getPod('stubborn')).status.containerStatuses[0].state.running).toBeDefined();
  await advance(1_000);
  const killed = await until('stubborn killed', async () => {
    const cs = (await getPod('stubborn')).status.containerStatuses[0];
    return cs.state.terminated ? cs : undefined;
  });
  expect(killed.state.terminated).toMatchObject({ exitCode: 137, reason: 'Error' });
  expect(await kubectl.ok(['describe', 'pod', 'stubborn'])).toMatch(/Normal\s+Killing\s+.*kubelet\s+Stopping container app/);
  await kubectl.ok(['patch', 'pod', 'polite', 'stubborn', '--type=merge', '-p', '{"metadata":{"finalizers":null}}']);
});

test("in-cluster credentials: the process lists with client-node's loadFromCluster under its ServiceAccount, through KUBEFORGE_SERVICEACCOUNT_DIR", async () => {
  // the ServiceAccount, what `kubectl create role/rolebinding` would make for it, and the pod: one kubectl start
  const rbac = 'rbac.authorization.k8s.io';
  await apply({
    apiVersion: 'v1',
    kind: 'List',
    items: [
      { apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name: 'lister' } },
      { apiVersion: `${rbac}/v1`, kind: 'Role', metadata: { name: 'list-configmaps' }, rules: [{ apiGroups: [''], resources: ['configmaps'], verbs: ['list'] }] },
      { apiVersion: `${rbac}/v1`, kind: 'RoleBinding', metadata: { name: 'lister' }, roleRef: { apiGroup: rbac, kind: 'Role', name: 'list-configmaps' }, subjects: [{ kind: 'ServiceAccount', name: 'lister', namespace: 'default' }] },
      pod('lister', [{ name: 'MODE', value: 'list' }, { name: 'CLIENT_NODE', value: clientNode }], { spec: { serviceAccountName: 'lister' } }),
    ],
  });
  const logs = await until('the list', logsContain('lister', 'configmaps in default:'));
  expect(logs).toContain('configmaps in default: colours,kube-root-ca.crt');
  const listed = suite.cluster.requestLog().filter((e) => e.user === 'system:serviceaccount:default:lister' && e.verb === 'list');
  expect(listed.map((e) => e.resource)).toEqual(['configmaps']);
  await kubectl.ok(['delete', 'pod', 'lister', '--wait=false']);
});

test('a Service routes to the processes it selects: services/proxy round-robin over two replicas on the same port', async () => {
  await apply({
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name: 'web' },
    spec: {
      replicas: 2,
      selector: { matchLabels: { app: 'web' } },
      template: {
        metadata: { labels: { app: 'web' } },
        spec: { containers: [{ name: 'app', image: 'example.com/hello:v1', env: [{ name: 'MODE', value: 'serve' }], ports: [{ name: 'http', containerPort: 8080 }], readinessProbe: { httpGet: { path: '/healthz', port: 8080 }, periodSeconds: 1 } }] },
      },
    },
  });
  await apply({ apiVersion: 'v1', kind: 'Service', metadata: { name: 'web' }, spec: { selector: { app: 'web' }, ports: [{ port: 80, targetPort: 'http' }] } });
  await until('two ready replicas', async () => {
    await advance(1_000);
    const pods = (await suite.getJson(['get', 'pods', '-l', 'app=web'])).items;
    return pods.length === 2 && pods.every((p: any) => p.status.containerStatuses?.[0]?.ready);
  });
  const answers: string[] = [];
  for (let i = 0; i < 4; i++) answers.push(await kubectl.ok(['get', '--raw', '/api/v1/namespaces/default/services/web:80/proxy/hi?x=1']));
  expect(answers).toHaveLength(4);
  for (const a of answers) expect(a).toMatch(/^web-[a-z0-9]+-[a-z0-9]+ answered GET \/hi\?x=1$/);
  expect(new Set(answers.map((a) => a.split(' ')[0])).size).toBe(2);
  await kubectl.ok(['delete', 'deployment', 'web']);
});

test('the API server calls an admission webhook at <svc>.<ns>.svc through the Service, verifying the certificate for that name', async () => {
  const ca = await createCertificateAuthority('webhook-ca');
  const serving = await issueServingCertificate(ca, 'hook', ['hook.default.svc', 'hook.default.svc.cluster.local']);
  await kubectl.ok(['create', 'secret', 'tls', 'hook-tls', `--cert=${writeTemp('tls.crt', serving.certPem)}`, `--key=${writeTemp('tls.key', serving.keyPem)}`]);
  const fromSecret = (name: string, key: string) => ({ name, valueFrom: { secretKeyRef: { name: 'hook-tls', key } } });
  await apply(pod('hook', [{ name: 'MODE', value: 'webhook' }, fromSecret('TLS_CERT', 'tls.crt'), fromSecret('TLS_KEY', 'tls.key')], { container: { ports: [{ name: 'https', containerPort: 9443 }], readinessProbe: { tcpSocket: { port: 9443 }, periodSeconds: 1 } } }));
  await apply({ apiVersion: 'v1', kind: 'Service', metadata: { name: 'hook' }, spec: { selector: { app: 'hook' }, ports: [{ port: 443, targetPort: 'https' }] } });
  await until('the webhook ready', async () => {
    await advance(1_000);
    return (await getPod('hook')).status.containerStatuses?.[0]?.ready;
  });
  await apply({
    apiVersion: 'admissionregistration.k8s.io/v1',
    kind: 'ValidatingWebhookConfiguration',
    metadata: { name: 'deny-labelled' },
    webhooks: [
      {
        name: 'deny.kubeforge.io',
        clientConfig: { service: { namespace: 'default', name: 'hook', path: '/validate' }, caBundle: Buffer.from(ca.certPem).toString('base64') },
        rules: [{ operations: ['CREATE'], apiGroups: [''], apiVersions: ['v1'], resources: ['configmaps'] }],
        sideEffects: 'None',
        admissionReviewVersions: ['v1'],
        failurePolicy: 'Fail',
      },
    ],
  });
  await kubectl.ok(['create', 'configmap', 'welcome']);
  const denied = await kubectl.run(['apply', '-f', '-'], JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'unwelcome', labels: { deny: 'yes' } } }));
  expect(denied.code).not.toBe(0);
  expect(denied.stderr).toContain('admission webhook "deny.kubeforge.io" denied the request: hook says no');
  const logs = await kubectl.ok(['logs', 'hook']);
  expect(logs).toContain('reviewed CREATE welcome: allowed');
  expect(logs).toContain('reviewed CREATE unwelcome: denied');
  await kubectl.ok(['delete', 'validatingwebhookconfiguration', 'deny-labelled']);
});

function writeTemp(name: string, text: string): string {
  const path = join(scratch, name);
  writeFileSync(path, text);
  return path;
}
