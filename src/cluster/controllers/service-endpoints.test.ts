/**
 * The endpoints, EndpointSlice and mirroring controllers over pods whose status the test writes as a
 * kubelet would (pods: 'inert'): ready and not-ready addresses, named target ports, publishNotReadyAddresses,
 * slice conditions and the 100-endpoint split, mirroring of hand-written Endpoints, switches.
 */
import { startLocalCluster, type LocalCluster } from '../local-cluster.js';
import type { Endpoints, Pod } from 'kubernetes-types/core/v1.js';
import type { EndpointSlice } from 'kubernetes-types/discovery/v1.js';
import { asStored } from '../store/kube-object.js';
import type { Stored } from '../store/object-store.js';

let cluster: LocalCluster;
afterEach(() => cluster?.stop());

const start = async (controllers = {}): Promise<void> => {
  cluster = await startLocalCluster({ pods: 'inert', tls: false, now: '2026-11-22T10:00:00Z', controllers });
};
const type = (group: string, resource: string) => cluster.internals.catalog.find(group, 'v1', resource)!;
const ops = () => cluster.internals.operations;
const get = (resource: string, name: string, group = '') => ops().get(type(group, resource), 'default', name);
const endpointsOf = (name: string): Stored<Endpoints> => asStored<Endpoints>(get('endpoints', name));
const slicesOf = (service: string): Array<Stored<EndpointSlice>> =>
  cluster.internals.store
    .list('endpointslices.discovery.k8s.io', 'default')
    .filter((s) => s.metadata.labels?.['kubernetes.io/service-name'] === service)
    .map((s) => asStored<EndpointSlice>(s));

function service(name: string, spec: Record<string, unknown>): void {
  ops().create(type('', 'services'), 'default', { apiVersion: 'v1', kind: 'Service', metadata: { name, labels: { tier: 'web' } }, spec });
}

/** A pod, bound and given an IP and readiness as the kubelet would. */
function pod(name: string, ip: string, ready: boolean, labels: Record<string, string> = { app: 'web' }): void {
  const pods = type('', 'pods');
  ops().create(pods, 'default', {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name, labels },
    spec: { nodeName: 'kubeforge-control-plane', containers: [{ name: 'c', image: 'nginx', ports: [{ name: 'http', containerPort: 8080 }] }] },
  });
  setReady(name, ip, ready);
}

function setReady(name: string, ip: string, ready: boolean): void {
  const pods = type('', 'pods');
  const current = ops().get(pods, 'default', name);
  const at = new Date(cluster.clock.now()).toISOString().replace('.000', '');
  current.status = { ...asStored<Pod>(current).status, phase: 'Running', podIP: ip, podIPs: [{ ip }], conditions: [{ type: 'Ready', status: ready ? 'True' : 'False', lastTransitionTime: at }] };
  ops().update(pods, 'default', name, current, { subresource: 'status' });
}

test('Endpoints list ready pods as addresses and unready ones as notReadyAddresses, with the named targetPort resolved', async () => {
  await start();
  service('web', { selector: { app: 'web' }, ports: [{ name: 'http', port: 80, targetPort: 'http' }] });
  pod('a', '10.244.0.5', true);
  pod('b', '10.244.0.6', false);
  pod('other', '10.244.0.7', true, { app: 'db' });
  await cluster.settle();
  const ep = endpointsOf( 'web');
  expect(ep.metadata.labels).toEqual({ tier: 'web' });
  expect(ep.metadata.annotations!['endpoints.kubernetes.io/last-change-trigger-time']).toBe('2026-11-22T10:00:00Z');
  expect(ep.subsets).toEqual([
    {
      addresses: [{ ip: '10.244.0.5', nodeName: 'kubeforge-control-plane', targetRef: { kind: 'Pod', namespace: 'default', name: 'a', uid: expect.any(String) } }],
      notReadyAddresses: [{ ip: '10.244.0.6', nodeName: 'kubeforge-control-plane', targetRef: { kind: 'Pod', namespace: 'default', name: 'b', uid: expect.any(String) } }],
      ports: [{ name: 'http', port: 8080, protocol: 'TCP' }],
    },
  ]);
  setReady('b', '10.244.0.6', true);
  await cluster.settle();
  expect(endpointsOf('web').subsets![0]!.addresses!.map((a: any) => a.ip)).toEqual(['10.244.0.5', '10.244.0.6']);
});

test('EndpointSlices carry ready/serving/terminating, the managed-by label and the Service as owner', async () => {
  await start();
  service('web', { selector: { app: 'web' }, ports: [{ port: 80, targetPort: 8080 }] });
  pod('a', '10.244.0.5', true);
  pod('b', '10.244.0.6', false);
  await cluster.settle();
  const [slice, ...rest] = slicesOf('web');
  expect(rest).toEqual([]);
  expect(slice!.metadata.name).toMatch(/^web-[bcdfghjklmnpqrstvwxz2456789]{5}$/);
  expect(slice!.metadata.labels).toEqual({ tier: 'web', 'kubernetes.io/service-name': 'web', 'endpointslice.kubernetes.io/managed-by': 'endpointslice-controller.k8s.io' });
  expect(slice!.metadata.ownerReferences).toEqual([{ apiVersion: 'v1', kind: 'Service', name: 'web', uid: get('services', 'web').metadata.uid, controller: true, blockOwnerDeletion: true }]);
  expect(slice!.addressType).toBe('IPv4');
  expect(slice!.ports).toEqual([{ name: '', port: 8080, protocol: 'TCP' }]);
  expect(slice!.endpoints.map((e: any) => [e.addresses[0], e.conditions])).toEqual([
    ['10.244.0.5', { ready: true, serving: true, terminating: false }],
    ['10.244.0.6', { ready: false, serving: false, terminating: false }],
  ]);
  // a terminating ready pod stays in the slice, serving but not ready; it leaves Endpoints at once
  ops().delete(type('', 'pods'), 'default', 'a', { gracePeriodSeconds: 30 });
  await cluster.settle();
  expect(slicesOf('web')[0]!.endpoints[0].conditions).toEqual({ ready: false, serving: true, terminating: true });
  expect(endpointsOf('web').subsets![0]!.addresses).toBeUndefined();
});

test('publishNotReadyAddresses puts unready pods among the ready addresses', async () => {
  await start();
  service('peers', { clusterIP: 'None', publishNotReadyAddresses: true, selector: { app: 'web' }, ports: [{ port: 80 }] });
  pod('a', '10.244.0.5', false);
  await cluster.settle();
  const ep = endpointsOf( 'peers');
  expect(ep.metadata.labels!['service.kubernetes.io/headless']).toBe('');
  expect(ep.subsets![0]!.addresses!.map((a: any) => a.ip)).toEqual(['10.244.0.5']);
  expect(slicesOf('peers')[0]!.endpoints[0].conditions).toEqual({ ready: true, serving: false, terminating: false });
});

test('more than 100 endpoints split into several slices; a Service without pods keeps one empty slice', async () => {
  await start();
  service('big', { selector: { app: 'web' }, ports: [{ port: 80 }] });
  service('empty', { selector: { app: 'nothing' }, ports: [{ port: 80 }] });
  for (let i = 0; i < 130; i++) pod(`p${i}`, `10.244.1.${i + 1}`, true);
  await cluster.settle();
  const sizes = slicesOf('big').map((s) => s.endpoints.length).sort((a, b) => b - a);
  expect(sizes).toEqual([100, 30]);
  const [empty, ...others] = slicesOf('empty');
  expect(others).toEqual([]);
  expect(empty!.endpoints).toEqual([]);
  expect(empty!.ports).toBeUndefined();
  expect(endpointsOf('empty').subsets).toBeUndefined();
});

test('Endpoints written for a selector-less Service are mirrored into a slice; the kubernetes Service has its own', async () => {
  await start();
  service('external', { ports: [{ name: 'db', port: 5432 }] });
  ops().create(type('', 'endpoints'), 'default', {
    apiVersion: 'v1',
    kind: 'Endpoints',
    metadata: { name: 'external' },
    subsets: [{ addresses: [{ ip: '192.168.1.10' }], notReadyAddresses: [{ ip: '192.168.1.11' }], ports: [{ name: 'db', port: 5432 }] }],
  });
  await cluster.settle();
  const [slice] = slicesOf('external');
  expect(slice!.metadata.labels!['endpointslice.kubernetes.io/managed-by']).toBe('endpointslicemirroring-controller.k8s.io');
  expect(slice!.metadata.ownerReferences![0]).toMatchObject({ kind: 'Endpoints', name: 'external' });
  expect(slice!.endpoints).toEqual([
    { addresses: ['192.168.1.10'], conditions: { ready: true } },
    { addresses: ['192.168.1.11'], conditions: { ready: false } },
  ]);
  expect(slice!.ports).toEqual([{ name: 'db', port: 5432, protocol: 'TCP' }]);
  const kubernetes = slicesOf('kubernetes');
  expect(kubernetes.map((s) => [s.metadata.name, s.endpoints[0].addresses, s.ports])).toEqual([['kubernetes', ['172.18.0.2'], [{ name: 'https', port: 6443, protocol: 'TCP' }]]]);
});

test('each controller can be switched off', async () => {
  await start({ endpoints: false, endpointSlice: false });
  service('web', { selector: { app: 'web' }, ports: [{ port: 80 }] });
  pod('a', '10.244.0.5', true);
  await cluster.settle();
  expect(cluster.internals.store.get('endpoints', 'default', 'web')).toBeUndefined();
  expect(slicesOf('web')).toEqual([]);
});
