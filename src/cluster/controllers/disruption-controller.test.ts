/**
 * The disruption controller's arithmetic over pods whose readiness the test writes (pods: 'inert'):
 * minAvailable as a number and a percentage of the controller's scale, maxUnavailable, pods going away,
 * disruptedPods entries expiring after two minutes of cluster time, and the switch.
 */
import { startLocalCluster, type LocalCluster } from '../local-cluster.js';
import type { PodDisruptionBudget } from 'kubernetes-types/policy/v1.js';
import { asStored } from '../store/kube-object.js';
import type { KubeObject } from '../store/object-store.js';

let cluster: LocalCluster;
afterEach(() => cluster?.stop());

const type = (group: string, resource: string) => cluster.internals.catalog.find(group, 'v1', resource)!;
const ops = () => cluster.internals.operations;
const pdbType = () => type('policy', 'poddisruptionbudgets');
const status = (name: string) => asStored<PodDisruptionBudget>(ops().get(pdbType(), 'default', name)).status!;

async function start(controllers = {}): Promise<void> {
  // the Deployments here are stored only: their pods are the test's
  cluster = await startLocalCluster({ pods: 'inert', tls: false, now: '2026-11-22T10:00:00Z', controllers: { deployment: false, replicaSet: false, ...controllers } });
}

/** A Deployment (stored only) owning `ready` ready pods and `unready` unready ones. */
function deployment(name: string, replicas: number, ready: number, unready = 0): KubeObject {
  const d = ops().create(type('apps', 'deployments'), 'default', {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name },
    spec: { replicas, selector: { matchLabels: { app: name } }, template: { metadata: { labels: { app: name } }, spec: { containers: [{ name: 'c', image: 'nginx' }] } } },
  }).object;
  for (let i = 0; i < ready + unready; i++) {
    const pods = type('', 'pods');
    const pod = ops().create(pods, 'default', {
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { name: `${name}-${i}`, labels: { app: name }, ownerReferences: [{ apiVersion: 'apps/v1', kind: 'Deployment', name, uid: d.metadata.uid, controller: true }] },
      spec: { nodeName: 'kubeforge-control-plane', containers: [{ name: 'c', image: 'nginx' }] },
    }).object;
    pod.status = { phase: 'Running', podIP: `10.244.0.${i + 2}`, conditions: [{ type: 'Ready', status: i < ready ? 'True' : 'False' }] };
    ops().update(pods, 'default', pod.metadata.name, pod, { subresource: 'status' });
  }
  return d;
}

function budget(name: string, app: string, spec: Record<string, unknown>): void {
  ops().create(pdbType(), 'default', { apiVersion: 'policy/v1', kind: 'PodDisruptionBudget', metadata: { name }, spec: { selector: { matchLabels: { app } }, ...spec } });
}

test('minAvailable as a number counts the selected pods; as a percentage it scales the controller’s replicas (rounded up)', async () => {
  await start();
  deployment('web', 4, 3, 1);
  budget('fixed', 'web', { minAvailable: 2 });
  budget('share', 'web', { minAvailable: '60%' });
  await cluster.settle();
  expect(status('fixed')).toMatchObject({ observedGeneration: 1, expectedPods: 4, currentHealthy: 3, desiredHealthy: 2, disruptionsAllowed: 1 });
  expect(status('share')).toMatchObject({ expectedPods: 4, currentHealthy: 3, desiredHealthy: 3, disruptionsAllowed: 0 });
  expect(status('share').conditions).toEqual([
    { type: 'DisruptionAllowed', status: 'False', observedGeneration: 1, lastTransitionTime: '2026-11-22T10:00:00Z', reason: 'InsufficientPods', message: '' },
  ]);
});

test('maxUnavailable takes the expected count from the controller’s scale, so missing replicas count against it', async () => {
  await start();
  deployment('api', 5, 4);
  budget('api', 'api', { maxUnavailable: 2 });
  await cluster.settle();
  expect(status('api')).toMatchObject({ expectedPods: 5, currentHealthy: 4, desiredHealthy: 3, disruptionsAllowed: 1 });
  ops().patch(type('apps', 'deployments'), 'default', 'api', 'application/merge-patch+json', { spec: { replicas: 6 } });
  await cluster.settle();
  expect(status('api')).toMatchObject({ expectedPods: 6, desiredHealthy: 4, disruptionsAllowed: 0 });
});

test('a disruptedPods entry keeps its pod out of the healthy count until the pod goes or two minutes pass', async () => {
  await start();
  deployment('db', 3, 3);
  budget('db', 'db', { minAvailable: 1 });
  await cluster.settle();
  const pdb = ops().get(pdbType(), 'default', 'db');
  pdb.status = { ...asStored<PodDisruptionBudget>(pdb).status, disruptionsAllowed: 1, disruptedPods: { 'db-0': '2026-11-22T10:00:00Z' } };
  ops().update(pdbType(), 'default', 'db', pdb, { subresource: 'status' });
  await cluster.settle();
  expect(status('db')).toMatchObject({ currentHealthy: 2, disruptionsAllowed: 1, disruptedPods: { 'db-0': '2026-11-22T10:00:00Z' } });
  await cluster.clock.advance(120_000);
  await cluster.settle();
  expect(status('db').disruptedPods).toBeUndefined();
  expect(status('db')).toMatchObject({ currentHealthy: 3, disruptionsAllowed: 2 });
});

test('switched off, budgets keep the empty status they were created with', async () => {
  await start({ disruption: false });
  deployment('off', 1, 1);
  budget('off', 'off', { minAvailable: 0 });
  await cluster.settle();
  expect(status('off')).toEqual({ disruptionsAllowed: 0, currentHealthy: 0, desiredHealthy: 0, expectedPods: 0 });
});
