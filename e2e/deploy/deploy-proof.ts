/**
 * The proof that `make deploy` runs a reference operator for real on the local cluster (issue 15), as one
 * sequence per example: deploy config/default (`kubectl apply --server-side -k`, what `make deploy` runs),
 * the manager pod becomes Ready under its probes, `kubectl apply -k config/samples`, the in-cluster
 * manager reconciles them under its generated ServiceAccount and roles with RBAC on (the least-privilege
 * report: no denial, no unused rule), its webhooks admit and deny through webhook-service with the
 * certificate the cert-manager stand-in issued, `kubectl logs` shows the reconciles, two replicas keep one
 * leader and hand over when the leader pod is deleted, the metrics endpoint answers the metrics-reader
 * role through a ServiceAccount token and refuses others, and undeploy (`kubectl delete --ignore-not-found
 * -k`) exits 0 twice in a row.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { request } from 'node:https';
import { join } from 'node:path';
import { parseAllDocuments } from 'yaml';
import type { GrantedRule } from '../../src/cluster/index.js';
import { adminGet, deployableExample, settled, until, type DeployedExample } from './deploy-harness.js';

/** What one example adds to the common proof. */
export interface ExampleChecks {
  /** After the samples: what the reconciles made (polled until it returns a value). */
  reconciled?: (d: DeployedExample) => Promise<string | undefined>;
  /** How far the cluster clock steps between looks at `reconciled` (default 1 s; built-in CronJobs need minutes) and how long to look (default 30 s, real time). */
  reconciledStepMs?: number;
  reconciledTimeoutMs?: number;
  /** Start the cluster's clock this far behind the manager's real one (deployableExample). */
  clockBehindMs?: number;
  /** Webhook checks through the Service (examples with webhooks). */
  webhooks?: (d: DeployedExample) => Promise<void>;
  /**
   * Rules of the manager's roles that no request (nor admission check on its behalf) needed, kept because the
   * original operator's RBAC, which the shared spec pins, grants them — each with its reason in the test file.
   */
  unusedRulesKept?: GrantedRule[];
}

const json = async (d: DeployedExample, args: string[]): Promise<any> => JSON.parse(await d.kubectl.ok([...args, '-o', 'json']));

/** GET over HTTPS (the manager's metrics certificate is self-signed) with an optional bearer token. */
function getMetrics(url: string, token?: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request(url, { rejectUnauthorized: false, headers: token ? { Authorization: `Bearer ${token}` } : {} }, (res) => {
      let body = '';
      res.on('data', (c: Buffer) => (body += c.toString()));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.on('error', reject);
    req.end();
  });
}

/** What the proof reads of a coordination.k8s.io/v1 Lease. */
interface LeaseObject {
  metadata: { name: string };
  spec: { holderIdentity?: string; leaseDurationSeconds?: number };
}

/** The manager's pods, read in this process (polled often: no kubectl process per look). */
async function managerPods(d: DeployedExample): Promise<any[]> {
  return (await adminGet<{ items: any[] }>(d.cluster, `/api/v1/namespaces/${d.namespace}/pods?labelSelector=${encodeURIComponent('control-plane=controller-manager')}`)).items;
}

/** metadata.name of every object in config/samples. */
function sampleNames(root: string): string[] {
  const dir = join(root, 'config/samples');
  return readdirSync(dir)
    .filter((f) => f.endsWith('.yaml') && f !== 'kustomization.yaml')
    .flatMap((f) => parseAllDocuments(readFileSync(join(dir, f), 'utf8')).map((doc) => (doc.toJS() as { metadata?: { name?: string } } | null)?.metadata?.name))
    .filter((n): n is string => Boolean(n));
}

const isReady = (pod: any): boolean => pod.status?.conditions?.some((c: any) => c.type === 'Ready' && c.status === 'True') && !pod.metadata.deletionTimestamp;

export function proveDeploy(name: string, checks: ExampleChecks = {}): void {
  let d: DeployedExample | undefined;
  afterAll(async () => d?.remove());

  test(`${name}: make deploy on the local cluster runs the manager for real — Ready, samples reconciled under its own RBAC, webhooks, logs, leader election, metrics, undeploy twice`, async () => {
    d = await deployableExample(name, checks.clockBehindMs ? { clockBehindMs: checks.clockBehindMs } : {});
    const { cluster, kubectl, namespace, prefix } = d;
    const deployment = `${prefix}controller-manager`;
    const serviceAccount = `system:serviceaccount:${namespace}:${prefix}controller-manager`;

    // make deploy
    const deployed = await kubectl.run(['apply', '--server-side', '-k', `${d.root}/config/default`]);
    expect({ code: deployed.code, stderr: deployed.stderr }).toEqual({ code: 0, stderr: '' });
    expect(deployed.stdout).toContain(`deployment.apps/${deployment} serverside-applied`);

    // the manager pod becomes Ready (its readiness probe really calls /readyz on the process)
    const [leader] = await until(cluster, 'the manager pod Ready', async () => {
      const pods = (await managerPods(d!)).filter(isReady);
      return pods.length === 1 ? pods : undefined;
    }, { stepMs: 5_000 });
    expect(leader.spec.serviceAccountName).toBe(`${prefix}controller-manager`);
    expect(leader.status.podIP).toMatch(/^127\.2\d\d\.0\.\d+$/);

    // the samples, reconciled by the in-cluster manager
    const samples = sampleNames(d.root);
    expect(samples.length).toBeGreaterThan(0);
    const applied = await kubectl.run(['apply', '-k', `${d.root}/config/samples`]);
    expect({ code: applied.code, stderr: applied.stderr }).toEqual({ code: 0, stderr: '' });
    if (checks.reconciled) {
      const made = await until(cluster, 'what the samples make', () => checks.reconciled!(d!), { stepMs: checks.reconciledStepMs ?? 1_000, timeoutMs: checks.reconciledTimeoutMs ?? 30_000 });
      expect(made).toBeTruthy();
    }
    let lastLogs = '';
    const logs = await until(cluster, 'a reconcile in kubectl logs', async () => {
      const r = await kubectl.run(['logs', '-n', namespace, leader.metadata.name]);
      lastLogs = r.stdout + r.stderr;
      return r.code === 0 && r.stdout.split('\n').some((line) => line.includes('"reconcileID"') && samples.some((n) => line.includes(`"name":"${n}"`))) ? r.stdout : undefined;
    }).catch((err: Error) => {
      throw new Error(`${err.message}; the manager's log:\n${lastLogs}`);
    });
    expect(logs).toContain('"msg":"successfully acquired lease ');

    if (d.webhooks) {
      expect(checks.webhooks).toBeDefined();
      await checks.webhooks!(d);
    }

    // the metrics endpoint (HTTPS :8443 behind the metrics Service) answers a token whose ServiceAccount has metrics-reader, and refuses others
    const metricsService = await json(d, ['get', 'service', '-n', namespace, `${prefix}controller-manager-metrics-service`]);
    expect(metricsService.spec.ports[0]).toMatchObject({ port: 8443, targetPort: 8443 });
    const metricsUrl = `https://${leader.status.podIP}:8443/metrics`;
    await kubectl.ok(['create', 'serviceaccount', 'scraper', '-n', 'default']);
    await kubectl.ok(['create', 'serviceaccount', 'stranger', '-n', 'default']);
    await kubectl.ok(['create', 'clusterrolebinding', 'scraper-metrics', `--clusterrole=${prefix}metrics-reader`, '--serviceaccount=default:scraper']);
    const scraperToken = (await kubectl.ok(['create', 'token', 'scraper', '-n', 'default'])).trim();
    const strangerToken = (await kubectl.ok(['create', 'token', 'stranger', '-n', 'default'])).trim();
    const scraped = await getMetrics(metricsUrl, scraperToken);
    expect(scraped.status).toBe(200);
    expect(scraped.body).toMatch(/^controller_runtime_reconcile_total\{controller="[^"]+",result="success"\} [1-9]/m);
    expect((await getMetrics(metricsUrl, strangerToken)).status).toBe(403);
    expect((await getMetrics(metricsUrl)).status).toBe(401);

    // two replicas: one leader, the other waits on the Lease; deleting the leader's pod hands over
    await kubectl.ok(['scale', 'deployment', deployment, '-n', namespace, '--replicas=2']);
    const pair = await until(cluster, 'two Ready manager pods', async () => {
      const pods = (await managerPods(d!)).filter(isReady);
      return pods.length === 2 ? pods : undefined;
    }, { stepMs: 5_000 });
    const leasesPath = `/apis/coordination.k8s.io/v1/namespaces/${namespace}/leases`;
    const lease = (await adminGet<{ items: LeaseObject[] }>(cluster, leasesPath)).items.find((l) => l.metadata.name.startsWith(prefix.replace(/-$/, '')));
    expect(lease).toBeDefined();
    // polled (in this process) until a successor leads
    const holder = async (): Promise<string> => (await adminGet<LeaseObject>(cluster, `${leasesPath}/${lease!.metadata.name}`)).spec.holderIdentity ?? '';
    expect(await holder()).toMatch(new RegExp(`^${leader.metadata.name}_`));
    const follower = pair.find((p: any) => p.metadata.name !== leader.metadata.name);
    // the follower is up (Ready, its manager started) but neither leads nor reconciles: it waits on the Lease
    const waiting = await until(cluster, 'the follower started', async () => {
      const r = await kubectl.run(['logs', '-n', namespace, follower.metadata.name]);
      return r.stdout.includes('"msg":"starting manager"') ? r.stdout : undefined;
    });
    await settled(cluster.clock.advance(5_000));
    await new Promise((r) => setTimeout(r, 2_500)); // more than one retry period (2 s) of the follower's elector
    expect(await holder()).toMatch(new RegExp(`^${leader.metadata.name}_`));
    const followerLogs = waiting + (await kubectl.ok(['logs', '-n', namespace, follower.metadata.name]));
    expect(followerLogs).not.toContain('successfully acquired lease');
    expect(followerLogs).not.toContain('"reconcileID"');
    const deletedAt = Date.now();
    await kubectl.ok(['delete', 'pod', '-n', namespace, leader.metadata.name, '--wait=false']);
    // the waiting replica, or the ReplicaSet's replacement pod if it starts first, takes the released Lease
    const successor = await until(cluster, 'a successor leading', async () => {
      const identity = await holder();
      const live = (await managerPods(d!)).filter((p) => p.metadata.name !== leader.metadata.name && !p.metadata.deletionTimestamp);
      return live.find((p) => identity.startsWith(`${p.metadata.name}_`));
    }, { stepMs: 1_000 }).catch(async (err: Error) => {
      const state = (await managerPods(d!)).map((p) => `${p.metadata.name} ${p.status.phase} ${JSON.stringify(p.status.containerStatuses?.[0]?.state)}`).join('\n');
      const followerLog = (await kubectl.run(['logs', '-n', namespace, follower.metadata.name])).stdout;
      throw new Error(`${err.message}: holder ${await holder()}\n${state}\nfollower log:\n${followerLog}`);
    });
    const handoverMs = Date.now() - deletedAt;
    expect(handoverMs).toBeLessThan((lease!.spec.leaseDurationSeconds ?? 15) * 1000);
    process.stderr.write(`deploy ${name}: leader handed over to ${successor.metadata.name === follower.metadata.name ? 'the waiting replica' : 'the replacement pod'} ${handoverMs} ms after its pod was deleted\n`);
    expect(await kubectl.ok(['logs', '-n', namespace, successor.metadata.name])).toContain('"msg":"successfully acquired lease ');

    // the samples deleted while the manager runs (finalizers, if any, are its to remove)
    await kubectl.ok(['delete', '-k', `${d.root}/config/samples`, '--ignore-not-found', '--wait=false']);
    await until(cluster, 'the samples gone', async () => (await kubectl.ok(['get', '-k', `${d!.root}/config/samples`, '--ignore-not-found', '-o', 'name'])).trim() === '', { stepMs: 1_000 });

    // least privilege: the manager's ServiceAccount was refused nothing, and every rule of its roles was needed
    // (by a request, or by OwnerReferencesPermissionEnforcement's checks on its behalf) but the kept ones
    const report = cluster.leastPrivilegeReport({ user: serviceAccount, groups: ['system:serviceaccounts', `system:serviceaccounts:${namespace}`] });
    const show = (rules: GrantedRule[]): string => rules.map((r) => `${r.verbs.join(',')} ${(r.apiGroups ?? []).join(',')}/${(r.resources ?? r.nonResourceURLs ?? []).join(',')}`).join('; ');
    process.stderr.write(`deploy ${name}: least-privilege report: used ${report.used.join('; ')}\n  unused rules: ${show(report.unusedRules) || 'none'}\n  unused verbs of used rules: ${show(report.unusedGrants)}\n`);
    expect(report.used.length).toBeGreaterThan(0);
    expect(report.denied).toEqual([]);
    expect(report.unusedRules).toEqual(checks.unusedRulesKept ?? []);

    // make undeploy, twice
    for (const round of [1, 2]) {
      const undeployed = await kubectl.run(['delete', '--ignore-not-found', '-k', `${d.root}/config/default`]);
      expect({ round, code: undeployed.code, stderr: undeployed.stderr }).toEqual({ round, code: 0, stderr: '' });
      await settled(cluster.clock.advance(30_000));
      await settled(cluster.settle());
    }
    // everything of config/default is gone, the manager processes with it
    await until(cluster, 'the namespace gone', async () => (await kubectl.run(['get', 'namespace', namespace])).stderr.includes('NotFound'), { stepMs: 5_000 });
    expect((await kubectl.ok(['get', 'clusterroles', '-o', 'name'])).split('\n').filter((n) => n.startsWith(`clusterrole.rbac.authorization.k8s.io/${prefix}`))).toEqual([]);
  }, 240_000);
}
