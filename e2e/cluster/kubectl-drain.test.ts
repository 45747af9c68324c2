/**
 * `kubectl drain` of a worker as on a three-node kind cluster: without flags kubectl cordons the node and
 * refuses with its messages naming the DaemonSet-managed, controller-less and emptyDir pods; a server
 * dry run changes nothing; with --ignore-daemonsets --delete-emptydir-data --force it evicts through
 * pods/eviction while a PodDisruptionBudget answers 429 for the second pod of the Deployment until its
 * first one's replacement is Ready on the other worker (kubectl retries after 5 s), and ends "drained";
 * the worker's kubelet reports NodeNotSchedulable, then NodeSchedulable once uncordon lets pods back. Then
 * `kubectl delete deployment --cascade=foreground` on the same cluster: the Deployment waits with
 * foregroundDeletion until its ReplicaSet and pods are gone. Last, --disable-eviction deletes instead.
 * The virtual clock is stepped in the background while kubectl waits.
 */
import { stringify } from 'yaml';
import { useClusterSuite, type WatchStream } from './cluster-suite.js';

const controlPlane = 'kubeforge-control-plane';
const worker = 'kubeforge-worker';
const otherWorker = 'kubeforge-worker2';

const suite = useClusterSuite({ nodes: 3, settled: true });
const kubectl = suite.kubectl;
// state the tests check, read in-process (no kubectl start: kubectl's own output is checked where it is the point)
const getJson = (args: string[]): Promise<any> => suite.getJson(args);

/** Web pods take 5 s to start and 2 s to stop, so a replacement is Ready only once the clock moves. */
const web = {
  apiVersion: 'apps/v1',
  kind: 'Deployment',
  metadata: { name: 'web' },
  spec: {
    replicas: 4,
    selector: { matchLabels: { app: 'web' } },
    template: {
      metadata: { labels: { app: 'web' }, annotations: { 'sim.kubeforge.io/start-delay': '5s', 'sim.kubeforge.io/stop-delay': '2s' } },
      spec: { containers: [{ name: 'app', image: 'nginx:1.27' }] },
    },
  },
};
const webBudget = { apiVersion: 'policy/v1', kind: 'PodDisruptionBudget', metadata: { name: 'web' }, spec: { maxUnavailable: 1, selector: { matchLabels: { app: 'web' } } } };
const agent = {
  apiVersion: 'apps/v1',
  kind: 'DaemonSet',
  metadata: { name: 'agent' },
  spec: { selector: { matchLabels: { app: 'agent' } }, template: { metadata: { labels: { app: 'agent' } }, spec: { containers: [{ name: 'agent', image: 'busybox:1.36', command: ['sleep', 'infinity'] }] } } },
};
/** One replica with an emptyDir volume, preferring the worker that is drained. */
const cache = {
  apiVersion: 'apps/v1',
  kind: 'Deployment',
  metadata: { name: 'cache' },
  spec: {
    replicas: 1,
    selector: { matchLabels: { app: 'cache' } },
    template: {
      metadata: { labels: { app: 'cache' } },
      spec: {
        affinity: { nodeAffinity: { preferredDuringSchedulingIgnoredDuringExecution: [{ weight: 100, preference: { matchFields: [{ key: 'metadata.name', operator: 'In', values: [worker] }] } }] } },
        containers: [{ name: 'memcached', image: 'memcached:1.6', volumeMounts: [{ name: 'scratch', mountPath: '/scratch' }] }],
        volumes: [{ name: 'scratch', emptyDir: {} }],
      },
    },
  },
};
/** A pod no controller owns. */
const bare = { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'bare', labels: { app: 'bare' } }, spec: { nodeSelector: { 'kubernetes.io/hostname': worker }, containers: [{ name: 'app', image: 'nginx:1.27' }] } };

/** Pod names by node, for the pods of `app`. */
async function placement(app: string): Promise<Record<string, string[]>> {
  const byNode: Record<string, string[]> = {};
  for (const p of (await getJson(['get', 'pods', '-l', `app=${app}`])).items) (byNode[p.spec.nodeName] ??= []).push(p.metadata.name);
  for (const names of Object.values(byNode)) names.sort();
  return byNode;
}

/**
 * Runs `work` (a kubectl command) and, once `started` holds for a request it made, moves the virtual
 * clock one second at a time until it ends.
 */
async function withClockRunning<T>(work: Promise<T>, started: (e: ReturnType<typeof suite.cluster.requestLog>[number]) => boolean): Promise<T> {
  let done = false;
  const seen = suite.cluster.requestLog().length;
  const finished = work.finally(() => (done = true));
  const stepping = (async () => {
    while (!done && !suite.cluster.requestLog().slice(seen).some(started)) await new Promise((r) => setTimeout(r, 10));
    while (!done) {
      await suite.cluster.clock.advance(1000);
      // let kubectl read what the step changed before the next one
      await new Promise((r) => setTimeout(r, 25));
    }
  })();
  const result = await finished;
  await stepping;
  return result;
}

/** The watch stream's objects replayed in order: the fewest web pods Ready and not terminating at any point. */
function fewestHealthy(stream: WatchStream, start: any[]): number {
  const pods = new Map<string, any>(start.map((p) => [p.metadata.name, p]));
  const healthy = (): number =>
    [...pods.values()].filter((p) => !p.metadata.deletionTimestamp && (p.status?.conditions ?? []).some((c: any) => c.type === 'Ready' && c.status === 'True')).length;
  let fewest = healthy();
  for (const e of stream.events) {
    if (e.type === 'DELETED') pods.delete(e.object.metadata.name);
    else pods.set(e.object.metadata.name, e.object);
    fewest = Math.min(fewest, healthy());
  }
  return fewest;
}

let before: { web: Record<string, string[]>; cache: Record<string, string[]>; agent: Record<string, string[]> };

beforeAll(async () => {
  await kubectl.ok(['apply', '-f', '-'], [web, webBudget, agent, cache, bare].map((m) => stringify(m)).join('---\n'));
  await suite.cluster.settle();
  await suite.cluster.clock.advance(5000);
  await suite.cluster.settle();
  before = { web: await placement('web'), cache: await placement('cache'), agent: await placement('agent') };
});

test('the workloads run on the two workers, none on the tainted control plane; the budget allows one disruption', async () => {
  expect(Object.keys(before.web).sort()).toEqual([worker, otherWorker]);
  expect(before.web[worker]).toHaveLength(2);
  expect(before.web[otherWorker]).toHaveLength(2);
  expect(Object.keys(before.cache)).toEqual([worker]);
  expect(Object.keys(before.agent).sort()).toEqual([worker, otherWorker]);
  expect(await kubectl.ok(['get', 'pod', 'bare', '-o', 'jsonpath={.spec.nodeName}'])).toBe(worker);
  expect(await kubectl.ok(['get', 'pods', '--field-selector', `spec.nodeName=${controlPlane}`])).toBe('');
  expect((await getJson(['get', 'pdb', 'web'])).status).toMatchObject({ expectedPods: 4, currentHealthy: 4, desiredHealthy: 3, disruptionsAllowed: 1 });
});

test('drain without flags cordons the node, then refuses with kubectl’s messages for DaemonSet, controller-less and emptyDir pods; nothing is evicted', async () => {
  const agentPod = `default/${before.agent[worker]![0]}`;
  const cachePod = `default/${before.cache[worker]![0]}`;
  const seen = suite.cluster.requestLog().length;
  const r = await kubectl.run(['drain', worker]);
  expect(r.code).toBe(1);
  expect(r.stdout).toBe(`node/${worker} cordoned\n`);
  // kubectl joins the three reasons in an order of its own: each, not their order
  const reasons = [
    `cannot delete DaemonSet-managed Pods (use --ignore-daemonsets to ignore): ${agentPod}`,
    'cannot delete cannot delete Pods that declare no controller (use --force to override): default/bare',
    `cannot delete Pods with local storage (use --delete-emptydir-data to override): ${cachePod}`,
  ];
  const lines = r.stderr.split('\n');
  expect(lines[0]).toMatch(new RegExp(`^error: unable to drain node "${worker}" due to error: \\[.*\\], continuing command\\.\\.\\.$`));
  for (const reason of reasons) expect(lines[0]).toContain(reason);
  expect(lines.slice(1, 3)).toEqual(['There are pending nodes to be drained:', ` ${worker}`]);
  expect(lines.slice(3).filter(Boolean).sort()).toEqual([...reasons].sort());
  expect(suite.cluster.requestLog().slice(seen).filter((e) => e.subresource === 'eviction' || (e.resource === 'pods' && e.verb === 'delete'))).toEqual([]);
  expect(await kubectl.ok(['get', 'node', worker, '--no-headers'])).toMatch(new RegExp(`^${worker}\\s+Ready,SchedulingDisabled\\s`));

  expect(await kubectl.ok(['uncordon', worker])).toBe(`node/${worker} uncordoned\n`);
  expect((await getJson(['get', 'node', worker])).spec.unschedulable).toBeUndefined();
  expect(await placement('web')).toEqual(before.web);
}, 30_000);

test('drain --dry-run=server: every eviction is a dry run; the node stays schedulable, the pods and the budget untouched', async () => {
  const pdb = (await getJson(['get', 'pdb', 'web'])).status;
  const seen = suite.cluster.requestLog().length;
  const r = await kubectl.run(['drain', worker, '--ignore-daemonsets', '--delete-emptydir-data', '--force', '--dry-run=server']);
  expect(r.code).toBe(0);
  const out = r.stdout.split('\n');
  expect(out[0]).toBe(`node/${worker} cordoned (server dry run)`);
  expect(out.slice(1, -2).sort()).toEqual([...before.web[worker]!, ...before.cache[worker]!, 'bare'].sort().map((n) => `evicting pod default/${n} (server dry run)`));
  expect(out.at(-2)).toBe(`node/${worker} drained (server dry run)`);
  const evictions = suite.cluster.requestLog().slice(seen).filter((e) => e.subresource === 'eviction');
  expect(evictions.map((e) => e.code)).toEqual([201, 201, 201, 201]);
  expect((await getJson(['get', 'node', worker])).spec.unschedulable).toBeUndefined();
  expect(await placement('web')).toEqual(before.web);
  expect(await placement('cache')).toEqual(before.cache);
  expect(await kubectl.ok(['get', 'pod', 'bare', '-o', 'jsonpath={.metadata.deletionTimestamp}'])).toBe('');
  expect((await getJson(['get', 'pdb', 'web'])).status).toEqual(pdb);
}, 30_000);

test('drain --ignore-daemonsets --delete-emptydir-data --force: the budget refuses the second web pod until the first one’s replacement is Ready on the other worker; the node ends drained', async () => {
  const webOnWorker = before.web[worker]!;
  const [cachePod] = before.cache[worker]!;
  const agentPod = before.agent[worker]![0]!;
  const start = await getJson(['get', 'pods', '-l', 'app=web']);
  const stream = await suite.watch(`/api/v1/namespaces/default/pods?watch=true&labelSelector=app%3Dweb&resourceVersion=${start.metadata.resourceVersion}`);
  const seen = suite.cluster.requestLog().length;

  const r = await withClockRunning(
    kubectl.run(['drain', worker, '--ignore-daemonsets', '--delete-emptydir-data', '--force', '--timeout=60s']),
    (e) => e.subresource === 'eviction' && e.code === 429,
  );
  stream.close();
  expect(r.code).toBe(0);
  const out = r.stdout.split('\n');
  expect(out[0]).toBe(`node/${worker} cordoned`);
  expect(out.at(-2)).toBe(`node/${worker} drained`);
  for (const name of [...webOnWorker, cachePod, 'bare']) {
    expect(out).toContain(`evicting pod default/${name}`);
    expect(out).toContain(`pod/${name} evicted`);
  }
  const stderr = r.stderr.split('\n').filter(Boolean);
  expect(stderr[0]).toMatch(/^Warning: /);
  expect(stderr[0]!.slice('Warning: '.length).split('; ').sort()).toEqual([`deleting Pods that declare no controller: default/bare`, `ignoring DaemonSet-managed Pods: default/${agentPod}`]);

  // exactly one web pod was refused once, then evicted on kubectl's retry 5 s later
  const evictions = suite.cluster.requestLog().slice(seen).filter((e) => e.subresource === 'eviction');
  const refused = evictions.filter((e) => e.code === 429).map((e) => e.name);
  expect(refused).toHaveLength(1);
  const [blocked] = refused as [string];
  expect(webOnWorker).toContain(blocked);
  expect(stderr.slice(1)).toEqual([`error when evicting pods/"${blocked}" -n "default" (will retry after 5s): Cannot evict pod as it would violate the pod's disruption budget.`]);
  expect(out.filter((l) => l === `evicting pod default/${blocked}`)).toHaveLength(2);
  const tries = evictions.filter((e) => e.name === blocked);
  expect(tries.map((e) => e.code)).toEqual([429, 201]);
  expect(Date.parse(tries[1]!.time) - Date.parse(tries[0]!.time)).toBeGreaterThanOrEqual(4900);
  expect(evictions.filter((e) => e.name !== blocked).map((e) => [e.name, e.code]).sort()).toEqual([...webOnWorker.filter((n) => n !== blocked), cachePod, 'bare'].sort().map((n) => [n, 201]));

  // the budget held throughout: never fewer than 3 of the 4 web pods Ready
  expect(stream.events.length).toBeGreaterThan(0);
  expect(fewestHealthy(stream, start.items)).toBe(3);
  for (const name of webOnWorker) {
    const marked = stream.events.find((e) => e.object.metadata.name === name && (e.object.status?.conditions ?? []).some((c: any) => c.type === 'DisruptionTarget'));
    expect(marked.object.status.conditions).toContainEqual(expect.objectContaining({ type: 'DisruptionTarget', status: 'True', reason: 'EvictionByEvictionAPI', message: 'Eviction API: evicting' }));
  }

  // only the DaemonSet's pod is left on the cordoned worker; the replacements went to the other worker
  expect(await kubectl.ok(['get', 'node', worker, '--no-headers'])).toMatch(new RegExp(`^${worker}\\s+Ready,SchedulingDisabled\\s`));
  expect(await kubectl.ok(['get', 'pods', '-A', '--field-selector', `spec.nodeName=${worker}`, '-o', 'name'])).toBe(`pod/${agentPod}\n`);
  // the worker's kubelet noticed the cordon at a status sync while the clock ran
  expect(await kubectl.ok(['describe', 'node', worker])).toMatch(new RegExp(`\\n  Normal\\s+NodeNotSchedulable\\s+\\S+\\s+kubelet\\s+Node ${worker} status is now: NodeNotSchedulable\\n`));
  await suite.cluster.clock.advance(5000);
  await suite.cluster.settle();
  const after = await placement('web');
  expect(Object.keys(after)).toEqual([otherWorker]);
  expect(after[otherWorker]).toHaveLength(4);
  expect(after[otherWorker]).toEqual(expect.arrayContaining(before.web[otherWorker]!));
  expect(Object.keys(await placement('cache'))).toEqual([otherWorker]);
  expect((await kubectl.run(['get', 'pod', 'bare'])).stderr).toContain('pods "bare" not found');
  expect((await getJson(['get', 'pdb', 'web'])).status).toMatchObject({ expectedPods: 4, currentHealthy: 4, desiredHealthy: 3, disruptionsAllowed: 1 });
  const scheduled = (await getJson(['get', 'events.v1.events.k8s.io', '--field-selector', 'reason=Scheduled'])).items.map((e: any) => e.note);
  for (const name of after[otherWorker]!.filter((n) => !before.web[otherWorker]!.includes(n))) expect(scheduled).toContain(`Successfully assigned default/${name} to ${otherWorker}`);
}, 40_000);

test('uncordon makes the worker schedulable again: a new replica lands on it; its kubelet reports NodeSchedulable', async () => {
  expect(await kubectl.ok(['uncordon', worker])).toBe(`node/${worker} uncordoned\n`);
  const node = await getJson(['get', 'node', worker]);
  expect(node.spec.unschedulable).toBeUndefined();
  expect(node.spec.taints).toBeUndefined();
  await kubectl.ok(['scale', 'deployment/web', '--replicas=5']);
  await suite.cluster.settle();
  expect((await placement('web'))[worker]).toHaveLength(1);
  await kubectl.ok(['scale', 'deployment/web', '--replicas=4']);
  await suite.cluster.clock.advance(10_000);
  await suite.cluster.settle();
  expect(await kubectl.ok(['describe', 'node', worker])).toMatch(new RegExp(`\\n  Normal\\s+NodeSchedulable\\s+\\S+\\s+kubelet\\s+Node ${worker} status is now: NodeSchedulable\\n`));
});

test('kubectl delete deployment --cascade=foreground: the Deployment keeps foregroundDeletion until its ReplicaSet and pods are gone', async () => {
  const deployment = await getJson(['get', 'deployment', 'web']);
  const [rs] = (await getJson(['get', 'rs', '-l', 'app=web'])).items.filter((x: any) => x.spec.replicas > 0);
  const pods = (await getJson(['get', 'pods', '-l', 'app=web'])).items.map((p: any) => p.metadata.name).sort();
  expect(pods).toHaveLength(4);
  const rv = deployment.metadata.resourceVersion;
  const streams = {
    deployments: await suite.watch(`/apis/apps/v1/namespaces/default/deployments?watch=true&fieldSelector=metadata.name%3Dweb&resourceVersion=${rv}`),
    replicasets: await suite.watch(`/apis/apps/v1/namespaces/default/replicasets?watch=true&labelSelector=app%3Dweb&resourceVersion=${rv}`),
    pods: await suite.watch(`/api/v1/namespaces/default/pods?watch=true&labelSelector=app%3Dweb&resourceVersion=${rv}`),
  };

  const r = await withClockRunning(kubectl.run(['delete', 'deployment', 'web', '--cascade=foreground']), (e) => e.verb === 'watch' && e.resource === 'deployments');
  for (const s of Object.values(streams)) s.close();
  expect(r).toEqual({ code: 0, stdout: 'deployment.apps "web" deleted\n', stderr: '' });
  expect(await kubectl.ok(['get', 'deployments,replicasets,pods', '-l', 'app=web'])).toBe('');

  const deletedAt = (s: WatchStream, name: string): number => Number(s.events.find((e) => e.type === 'DELETED' && e.object.metadata.name === name)?.object.metadata.resourceVersion);
  const d = streams.deployments.events;
  expect(d.find((e) => e.object.metadata.deletionTimestamp)).toMatchObject({ type: 'MODIFIED', object: { metadata: { finalizers: ['foregroundDeletion'] } } });
  expect(d.at(-1)).toMatchObject({ type: 'DELETED' });
  expect(streams.replicasets.events.find((e) => e.object.metadata.deletionTimestamp)).toMatchObject({ type: 'MODIFIED', object: { metadata: { name: rs.metadata.name, finalizers: ['foregroundDeletion'] } } });
  // no replacement pods while the ReplicaSet is being deleted; each pod stopped gracefully, then went
  expect(streams.pods.events.filter((e) => e.type === 'ADDED')).toEqual([]);
  const podsGone = pods.map((name: string) => deletedAt(streams.pods, name));
  const rsGone = deletedAt(streams.replicasets, rs.metadata.name);
  const deploymentGone = deletedAt(streams.deployments, 'web');
  for (const at of podsGone) expect(at).toBeLessThan(rsGone);
  expect(rsGone).toBeLessThan(deploymentGone);
  const terminating = streams.pods.events.filter((e) => e.object.metadata.deletionTimestamp && e.type === 'MODIFIED');
  expect(new Set(terminating.map((e) => e.object.metadata.name))).toEqual(new Set(pods));
  for (const e of terminating) expect(e.object.metadata.finalizers ?? []).not.toContain('foregroundDeletion');
}, 30_000);

test('drain --disable-eviction deletes instead of evicting: the other worker’s cache pod is deleted and comes back on the uncordoned one', async () => {
  const [cachePod] = (await placement('cache'))[otherWorker]!;
  const seen = suite.cluster.requestLog().length;
  const r = await kubectl.run(['drain', otherWorker, '--ignore-daemonsets', '--delete-emptydir-data', '--disable-eviction', '--grace-period=0']);
  expect(r.code).toBe(0);
  expect(r.stdout).toBe(`node/${otherWorker} cordoned\npod/${cachePod} deleted\nnode/${otherWorker} drained\n`);
  expect(r.stderr).toMatch(/^Warning: ignoring DaemonSet-managed Pods: default\/agent-\w{5}\n$/);
  // the DELETE carries client-go's protobuf DeleteOptions, which the server decodes
  const deletes = suite.cluster.requestLog().slice(seen).filter((e) => e.resource === 'pods' && (e.verb === 'delete' || e.subresource === 'eviction'));
  expect(deletes.map((e) => [e.verb, e.name, e.code])).toEqual([['delete', cachePod, 200]]);
  await suite.cluster.settle();
  expect(Object.keys(await placement('cache'))).toEqual([worker]);
  expect(await kubectl.ok(['uncordon', otherWorker])).toBe(`node/${otherWorker} uncordoned\n`);
}, 30_000);
