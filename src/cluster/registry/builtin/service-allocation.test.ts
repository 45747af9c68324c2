/** Service cluster IP and node port allocation through the write path: dynamic, static, collisions, release. */
import { startLocalCluster, type LocalCluster } from '../../local-cluster.js';
import { ApiError } from '../../errors/status-errors.js';
import type { Service } from 'kubernetes-types/core/v1.js';
import { asStored } from '../../store/kube-object.js';
import type { ResourceType } from '../resource-type.js';
import { inServiceRange, ipv4ToNumber, staticBandSize } from './service-network.js';
import { pickClusterIP, pickNodePort } from './service-allocation.js';

let cluster: LocalCluster;
let services: ResourceType;
beforeAll(async () => {
  cluster = await startLocalCluster({ pods: 'inert', tls: false });
  services = cluster.internals.catalog.find('', 'v1', 'services')!;
});
afterAll(() => cluster.stop());

const create = (name: string, spec: Record<string, unknown>, dryRun = false) =>
  asStored<Service>(cluster.internals.operations.create(services, 'default', { apiVersion: 'v1', kind: 'Service', metadata: { name }, spec }, { dryRun }).object);
const remove = (name: string) => cluster.internals.operations.delete(services, 'default', name);
const failure = (fn: () => unknown): string => {
  try {
    fn();
  } catch (err) {
    if (err instanceof ApiError) return `${err.code} ${err.message}`;
    throw err;
  }
  throw new Error('expected an ApiError');
};

test('the kubernetes Service holds 10.96.0.1; dynamic addresses come from the upper band and never collide', () => {
  expect(asStored<Service>(cluster.internals.operations.get(services, 'default', 'kubernetes')).spec!.clusterIP).toBe('10.96.0.1');
  const ips = new Set<string>();
  for (let i = 0; i < 40; i++) {
    const svc = create(`dyn-${i}`, { ports: [{ port: 80 }] });
    expect(svc.spec!.clusterIPs).toEqual([svc.spec!.clusterIP]);
    expect(inServiceRange(svc.spec!.clusterIP!)).toBe(true);
    expect(ipv4ToNumber(svc.spec!.clusterIP!)! - ipv4ToNumber('10.96.0.0')!).toBeGreaterThanOrEqual(staticBandSize);
    ips.add(svc.spec!.clusterIP!);
  }
  expect(ips.size).toBe(40);
  expect(ips.has('10.96.0.1')).toBe(false);
});

test('a pick skips addresses and ports in use', () => {
  const first = pickClusterIP(new Set(), 'seed');
  expect(pickClusterIP(new Set([first]), 'seed')).not.toBe(first);
  const port = pickNodePort(new Set(), 'seed');
  expect(port).toBeGreaterThanOrEqual(30000);
  expect(port).toBeLessThanOrEqual(32767);
  expect(pickNodePort(new Set([port]), 'seed')).not.toBe(port);
});

test('a requested address is checked: taken → 422 already allocated, outside the range → 422 not in range; delete releases it', () => {
  expect(create('dns-like', { clusterIP: '10.96.0.10', ports: [{ port: 53, protocol: 'UDP' }] }).spec!.clusterIPs).toEqual(['10.96.0.10']);
  expect(failure(() => create('again', { clusterIP: '10.96.0.10', ports: [{ port: 53 }] }))).toBe(
    '422 Service "again" is invalid: spec.clusterIPs: Invalid value: []string{"10.96.0.10"}: failed to allocate IP 10.96.0.10: provided IP is already allocated',
  );
  expect(failure(() => create('outside', { clusterIP: '10.97.0.5', ports: [{ port: 80 }] }))).toBe(
    '422 Service "outside" is invalid: spec.clusterIPs: Invalid value: []string{"10.97.0.5"}: failed to allocate IP 10.97.0.5: the provided IP (10.97.0.5) is not in the valid range. The range of valid IPs is 10.96.0.0/16',
  );
  remove('dns-like');
  expect(create('again', { clusterIP: '10.96.0.10', ports: [{ port: 53 }] }).spec!.clusterIP).toBe('10.96.0.10');
});

test('a dry run allocates nothing', () => {
  const dry = create('dry', { clusterIP: '10.96.0.20', ports: [{ port: 80 }] }, true);
  expect(dry.spec!.clusterIP).toBe('10.96.0.20');
  expect(create('wet', { clusterIP: '10.96.0.20', ports: [{ port: 80 }] }).spec!.clusterIP).toBe('10.96.0.20');
});

test('NodePort Services get node ports in 30000-32767; a taken or out-of-range port is refused', () => {
  const np = create('np', { type: 'NodePort', ports: [{ name: 'http', port: 80 }, { name: 'https', port: 443 }] });
  const [a, b] = np.spec!.ports!.map((p) => p.nodePort);
  expect(a).toBeGreaterThanOrEqual(30000);
  expect(b).toBeLessThanOrEqual(32767);
  expect(a).not.toBe(b);
  expect(np.spec!.externalTrafficPolicy).toBe('Cluster');
  expect(failure(() => create('np2', { type: 'NodePort', ports: [{ port: 80, nodePort: a }] }))).toBe(
    `422 Service "np2" is invalid: spec.ports[0].nodePort: Invalid value: ${a}: provided port is already allocated`,
  );
  expect(failure(() => create('np3', { type: 'NodePort', ports: [{ port: 80, nodePort: 29999 }] }))).toBe(
    '422 Service "np3" is invalid: spec.ports[0].nodePort: Invalid value: 29999: provided port is not in the valid range. The range of valid ports is 30000-32767',
  );
});

test('an update keeps the cluster IP and node ports it leaves out, and refuses a changed cluster IP', () => {
  const np = create('keep', { type: 'NodePort', ports: [{ port: 80 }] });
  const ops = cluster.internals.operations;
  const updated = asStored<Service>(ops.update(services, 'default', 'keep', { apiVersion: 'v1', kind: 'Service', metadata: { name: 'keep' }, spec: { type: 'NodePort', ports: [{ port: 80 }] } }).object);
  expect(updated.spec!.clusterIP).toBe(np.spec!.clusterIP);
  expect(updated.spec!.ports![0].nodePort).toBe(np.spec!.ports![0].nodePort);
  const patched = () => ops.patch(services, 'default', 'keep', 'application/merge-patch+json', { spec: { clusterIP: '10.96.0.77' } });
  expect(failure(patched)).toBe('422 Service "keep" is invalid: spec.clusterIPs[0]: Invalid value: []string{"10.96.0.77"}: may not change once set');
});

test('changing the type allocates node ports (NodePort) and drops them again (ClusterIP); ExternalName gives the address up', async () => {
  const ops = cluster.internals.operations;
  const ip = create('switch', { ports: [{ port: 80 }] }).spec!.clusterIP;
  const np = asStored<Service>(ops.patch(services, 'default', 'switch', 'application/merge-patch+json', { spec: { type: 'NodePort' } }).object);
  expect(np.spec!.clusterIP).toBe(ip);
  expect(np.spec!.ports![0].nodePort).toBeGreaterThanOrEqual(30000);
  const back = asStored<Service>(ops.patch(services, 'default', 'switch', 'application/merge-patch+json', { spec: { type: 'ClusterIP' } }).object);
  expect(back.spec!.ports![0].nodePort).toBeUndefined();
  ops.patch(services, 'default', 'switch', 'application/merge-patch+json', { spec: { type: 'ExternalName', externalName: 'example.com' } });
  expect(create('taker', { clusterIP: ip, ports: [{ port: 80 }] }).spec!.clusterIP).toBe(ip);
});
