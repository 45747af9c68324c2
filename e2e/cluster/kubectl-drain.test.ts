/**
 * `kubectl drain` of the cluster's node as on kind: it cordons the node, evicts the pods on it through
 * pods/eviction, retries every 5 s while a PodDisruptionBudget answers 429, and waits for the pods to be
 * gone. The budget first blocks (drain gives up at its --timeout after one retry), then allows.
 */
import { stringify } from 'yaml';
import { useClusterSuite } from './cluster-suite.js';

/** The node the pods run on (the one node of today's cluster; kind names it kubeforge-control-plane). */
const nodeName = 'kubeforge-control-plane';

const suite = useClusterSuite({ settled: true });
const kubectl = suite.kubectl;
const getJson = async (args: string[]): Promise<any> => JSON.parse(await kubectl.ok([...args, '-o', 'json']));

const job = stringify({
  apiVersion: 'batch/v1',
  kind: 'Job',
  metadata: { name: 'work' },
  spec: {
    parallelism: 2,
    completions: 2,
    template: { metadata: { labels: { app: 'work' } }, spec: { restartPolicy: 'Never', containers: [{ name: 'c', image: 'busybox:1.36', command: ['sleep', 'infinity'] }] } },
  },
});
const budget = (minAvailable: number) =>
  stringify({ apiVersion: 'policy/v1', kind: 'PodDisruptionBudget', metadata: { name: 'work-pdb' }, spec: { minAvailable, selector: { matchLabels: { app: 'work' } } } });

let original: string[] = [];

beforeAll(async () => {
  await kubectl.ok(['apply', '-f', '-'], `${job}---\n${budget(2)}`);
  await suite.cluster.settle();
  const pods = await getJson(['get', 'pods', '-l', 'app=work', '--field-selector', `spec.nodeName=${nodeName}`]);
  original = pods.items.map((p: any) => p.metadata.name).sort();
  expect(original).toHaveLength(2);
  expect(pods.items.every((p: any) => p.status.phase === 'Running')).toBe(true);
});

test('a budget allowing no disruption: drain cordons, retries the 429 and gives up at its timeout after one retry; the pods stay', async () => {
  const pdb = await getJson(['get', 'pdb', 'work-pdb']);
  expect(pdb.status).toMatchObject({ currentHealthy: 2, desiredHealthy: 2, disruptionsAllowed: 0 });
  const r = await kubectl.run(['drain', nodeName, '--ignore-daemonsets', '--delete-emptydir-data', '--timeout=3s']);
  expect(r.code).not.toBe(0);
  expect(r.stdout).toContain(`node/${nodeName} cordoned`);
  for (const name of original) {
    expect(r.stdout + r.stderr).toContain(`error when evicting pods/"${name}" -n "default" (will retry after 5s): Cannot evict pod as it would violate the pod's disruption budget.`);
  }
  expect(r.stderr).toContain(`error: unable to drain node "${nodeName}"`);
  expect((await getJson(['get', 'node', nodeName])).spec.unschedulable).toBe(true);
  const left = (await getJson(['get', 'pods', '-l', 'app=work'])).items.filter((p: any) => original.includes(p.metadata.name));
  expect(left.map((p: any) => [p.metadata.name, p.metadata.deletionTimestamp])).toEqual(original.map((n) => [n, undefined]));
}, 30_000);

test('once the budget allows it, drain evicts every pod, waits for them to be gone and reports the node drained', async () => {
  await kubectl.ok(['apply', '-f', '-'], budget(0));
  await suite.cluster.settle();
  expect((await getJson(['get', 'pdb', 'work-pdb'])).status).toMatchObject({ desiredHealthy: 0, disruptionsAllowed: 2 });
  const r = await kubectl.run(['drain', nodeName, '--ignore-daemonsets', '--delete-emptydir-data', '--timeout=20s']);
  expect(r.stderr).toBe('');
  expect(r.code).toBe(0);
  for (const name of original) {
    expect(r.stdout).toContain(`evicting pod default/${name}`);
    expect(r.stdout).toContain(`pod/${name} evicted`);
  }
  expect(r.stdout).toContain(`node/${nodeName} drained`);
  const names = (await getJson(['get', 'pods', '-A'])).items.map((p: any) => p.metadata.name);
  for (const name of original) expect(names).not.toContain(name);
  await kubectl.ok(['uncordon', nodeName]);
  expect((await getJson(['get', 'node', nodeName])).spec.unschedulable).toBeUndefined();
}, 30_000);
