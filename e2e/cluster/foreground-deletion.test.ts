/**
 * `kubectl delete --cascade=foreground` as on kind 1.32. The registry puts `foregroundDeletion` on the
 * object the DELETE names (dependents or not: deletionFinalizersForGarbageCollection); the garbage
 * collector then deletes the dependents — passing Foreground on only to a dependent that has
 * dependents of its own, while a leaf is deleted by its own finalizers (Background: its finalizer list
 * is left alone) — and removes the owner's finalizer once no blocking dependent is left.
 */
import { stringify } from 'yaml';
import { useClusterSuite, type WatchStream } from './cluster-suite.js';

const suite = useClusterSuite();
const kubectl = suite.kubectl;
const cms = '/api/v1/namespaces/default/configmaps';

async function configMap(name: string, owner?: { name: string; uid: string }, finalizers?: string[]): Promise<string> {
  const metadata: Record<string, unknown> = { name };
  if (owner) metadata.ownerReferences = [{ apiVersion: 'v1', kind: 'ConfigMap', name: owner.name, uid: owner.uid, blockOwnerDeletion: true }];
  if (finalizers) metadata.finalizers = finalizers;
  await kubectl.ok(['create', '-f', '-'], stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata }));
  return (await kubectl.ok(['get', 'configmap', name, '-o', 'jsonpath={.metadata.uid}'])).trim();
}

/** Every finalizer list a watched object was seen with, by name. */
function finalizersSeen(stream: WatchStream): Map<string, string[][]> {
  const seen = new Map<string, string[][]>();
  for (const e of stream.events) {
    const list = seen.get(e.object.metadata.name) ?? [];
    list.push(e.object.metadata.finalizers ?? []);
    seen.set(e.object.metadata.name, list);
  }
  return seen;
}

test('a chain: the middle owner passes foregroundDeletion on, leaves keep their own finalizers, the root waits for a held leaf', async () => {
  const root = await configMap('root');
  const middle = await configMap('middle', { name: 'root', uid: root });
  await configMap('grandchild', { name: 'middle', uid: middle });
  await configMap('held-leaf', { name: 'root', uid: root }, ['example.com/hold']);
  const rv = JSON.parse((await suite.call('GET', cms)).text).metadata.resourceVersion;
  const stream = await suite.watch(`${cms}?watch=true&resourceVersion=${rv}`);

  expect(await kubectl.ok(['delete', 'configmap', 'root', '--cascade=foreground', '--wait=false'])).toBe('configmap "root" deleted\n');
  await suite.cluster.settle();

  const left = await kubectl.ok(['get', 'configmaps', '-o', 'name']);
  expect(left.split('\n').filter((n) => /\/(root|middle|grandchild|held-leaf)$/.test(n))).toEqual(['configmap/held-leaf', 'configmap/root']);
  const held = await suite.getJson(['get', 'configmap', 'held-leaf']);
  expect(held.metadata.finalizers).toEqual(['example.com/hold']);
  expect(held.metadata.deletionTimestamp).toBeDefined();
  expect((await suite.getJson(['get', 'configmap', 'root'])).metadata.finalizers).toEqual(['foregroundDeletion']);

  const seen = finalizersSeen(stream);
  expect(seen.get('middle')).toContainEqual(['foregroundDeletion']);
  expect(seen.get('grandchild')?.flat()).toEqual([]);
  expect(seen.get('held-leaf')).toEqual([['example.com/hold']]);

  await kubectl.ok(['patch', 'configmap', 'held-leaf', '--type=json', '-p', '[{"op":"remove","path":"/metadata/finalizers"}]']);
  await suite.cluster.settle();
  expect((await kubectl.run(['get', 'configmap', 'root'])).stderr).toContain('configmaps "root" not found');
  stream.close();
});

test('a leaf: the DELETE answers the object with foregroundDeletion, the collector removes it at once, kubectl waits for it', async () => {
  await configMap('lonely');
  const options = JSON.stringify({ propagationPolicy: 'Foreground' });
  const r = await suite.call('DELETE', `${cms}/lonely`, options, { 'Content-Length': String(options.length) });
  expect(r.code).toBe(200);
  const answered = JSON.parse(r.text);
  expect(answered.metadata.finalizers).toEqual(['foregroundDeletion']);
  expect(answered.metadata.deletionTimestamp).toBeDefined();
  await suite.cluster.settle();
  expect((await suite.call('GET', `${cms}/lonely`)).code).toBe(404);

  await configMap('lonely-2');
  expect(await kubectl.ok(['delete', 'configmap', 'lonely-2', '--cascade=foreground'])).toBe('configmap "lonely-2" deleted\n');
  expect((await suite.call('GET', `${cms}/lonely-2`)).code).toBe(404);
});

test('a Job with running pods: the Job waits in foregroundDeletion, its pods are deleted without it', async () => {
  await kubectl.ok(['create', 'job', 'work', '--image=busybox', '--', 'sleep', '3600']);
  await suite.cluster.settle();
  const pods = await suite.getJson(['get', 'pods', '-l', 'job-name=work']);
  expect(pods.items.map((p: any) => p.status.phase)).toEqual(['Running']);
  const podStream = await suite.watch(`/api/v1/namespaces/default/pods?watch=true&resourceVersion=${pods.metadata.resourceVersion}`);
  const jobStream = await suite.watch(`/apis/batch/v1/namespaces/default/jobs?watch=true&resourceVersion=${pods.metadata.resourceVersion}`);

  expect(await kubectl.ok(['delete', 'job', 'work', '--cascade=foreground'])).toBe('job.batch "work" deleted\n');
  await suite.cluster.settle();
  expect((await kubectl.run(['get', 'job', 'work'])).stderr).toContain('jobs.batch "work" not found');

  expect(jobStream.events.find((e) => e.object.metadata.deletionTimestamp)).toMatchObject({ type: 'MODIFIED', object: { metadata: { name: 'work', finalizers: ['foregroundDeletion'] } } });
  expect(jobStream.events.at(-1).type).toBe('DELETED');
  const podFinalizers = podStream.events.map((e) => e.object.metadata.finalizers ?? []);
  expect(podStream.events.some((e) => e.object.metadata.deletionTimestamp)).toBe(true);
  expect(podFinalizers.flat()).not.toContain('foregroundDeletion');
  podStream.close();
  jobStream.close();
});
