import { afterEach, expect, it } from '@jest/globals';
import { ControllerClient } from './controller-client.js';
import { type ControllerFixture, startFixture } from './testdata/cluster-fixture.js';
import { VolumeScheduling, volumeBindingPlugin, volumeMountGate } from './volume-scheduling.js';
import type { KubeObject } from '../store/object-store.js';
import { asStored } from '../store/kube-object.js';
import type { PersistentVolumeClaim } from 'kubernetes-types/core/v1.js';

let fx: ControllerFixture;
afterEach(async () => fx?.stop());

const admin = { user: 'system:kube-scheduler', fieldManager: 'kube-scheduler' };
const node = (name: string): KubeObject => ({ apiVersion: 'v1', kind: 'Node', metadata: { name, labels: { 'kubernetes.io/hostname': name } }, spec: {} }) as KubeObject;
const podUsing = (...claims: string[]): KubeObject =>
  ({ apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p', namespace: 'default' }, spec: { containers: [{ name: 'c', image: 'i' }], volumes: claims.map((c, i) => ({ name: `v${i}`, persistentVolumeClaim: { claimName: c } })) } }) as KubeObject;
const claim = (name: string, spec: Record<string, unknown> = {}): KubeObject =>
  ({ apiVersion: 'v1', kind: 'PersistentVolumeClaim', metadata: { name, namespace: 'default' }, spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } }, ...spec } }) as KubeObject;

it('the VolumeBinding plugin: claim problems fail the cycle, volume node affinity fails a node, preBind selects the node; the kubelet gate waits for Bound', async () => {
  // no binder, provisioner or kubelet: the hooks are driven by hand
  fx = await startFixture({ pods: 'inert', controllers: { persistentVolumeBinder: false, localPathProvisioner: false } });
  const client = new ControllerClient(fx.cluster.internals, admin);
  for (const n of ['a', 'b']) client.create('nodes', undefined, node(n));
  const volumes = new VolumeScheduling(client);
  const plugin = volumeBindingPlugin(volumes);
  const gate = volumeMountGate(volumes);

  expect(plugin.preFilter(podUsing('missing'))).toEqual({ code: 'UnschedulableAndUnresolvable', reasons: ['persistentvolumeclaim "missing" not found'] });
  client.create('persistentvolumeclaims', 'default', claim('imm', { storageClassName: '' }));
  expect(plugin.preFilter(podUsing('imm'))?.reasons).toEqual(['pod has unbound immediate PersistentVolumeClaims']);

  client.create('persistentvolumeclaims', 'default', claim('wait'));
  expect(asStored<PersistentVolumeClaim>(client.get('persistentvolumeclaims', 'default', 'wait')!).spec!.storageClassName).toBe('standard');
  const pod = podUsing('wait');
  expect(plugin.preFilter(pod)).toBeUndefined();
  expect(plugin.filter(pod, { node: node('a') })).toBeUndefined();
  expect(gate(pod, 'a')).toBe('error processing PVC default/wait: PVC is not bound');
  plugin.preBind(pod, 'b');
  expect(client.get('persistentvolumeclaims', 'default', 'wait')!.metadata.annotations).toEqual({ 'volume.kubernetes.io/selected-node': 'b' });
  expect(volumes.podKeysUsingClaim('default', 'wait')).toEqual([]);

  // a claim bound to a volume pinned to node b
  client.create('persistentvolumes', undefined, {
    apiVersion: 'v1', kind: 'PersistentVolume', metadata: { name: 'pv-b' },
    spec: { capacity: { storage: '1Gi' }, accessModes: ['ReadWriteOnce'], local: { path: '/d' }, nodeAffinity: { required: { nodeSelectorTerms: [{ matchExpressions: [{ key: 'kubernetes.io/hostname', operator: 'In', values: ['b'] }] }] } } },
  } as KubeObject);
  const bound = client.create('persistentvolumeclaims', 'default', claim('pinned', { volumeName: 'pv-b', storageClassName: '' }));
  client.updateStatus('persistentvolumeclaims', { ...bound, status: { phase: 'Bound' } });
  const pinned = podUsing('pinned');
  expect(plugin.preFilter(pinned)).toBeUndefined();
  expect(plugin.filter(pinned, { node: client.get('nodes', undefined, 'a')! })).toEqual({ code: 'UnschedulableAndUnresolvable', reasons: ['node(s) had volume node affinity conflict'] });
  expect(plugin.filter(pinned, { node: client.get('nodes', undefined, 'b')! })).toBeUndefined();
  expect(gate(pinned, 'b')).toBeUndefined();
});
