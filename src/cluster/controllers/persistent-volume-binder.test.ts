import { afterEach, describe, expect, it } from '@jest/globals';
import type { V1PersistentVolume, V1PersistentVolumeClaim } from '@kubernetes/client-node';
import { type ControllerFixture, startFixture } from './testdata/cluster-fixture.js';

let fx: ControllerFixture;
afterEach(async () => fx?.stop());

const volume = (name: string, storage: string, extra: Record<string, unknown> = {}): V1PersistentVolume => ({
  metadata: { name, labels: { size: storage } },
  spec: { capacity: { storage }, accessModes: ['ReadWriteOnce'], hostPath: { path: `/data/${name}` }, storageClassName: '', ...extra },
});
const claim = (name: string, storage: string, spec: Record<string, unknown> = {}): V1PersistentVolumeClaim => ({
  metadata: { name },
  spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage } }, storageClassName: '', ...spec },
});
const readClaim = (name: string) => fx.core.readNamespacedPersistentVolumeClaim({ namespace: 'default', name });
const readVolume = (name: string) => fx.core.readPersistentVolume({ name });
const events = async (name: string) =>
  (await fx.core.listNamespacedEvent({ namespace: 'default', fieldSelector: `involvedObject.name=${name}` })).items.map((e) => `${e.type} ${e.reason} ${e.message}`);

describe('persistent volume binder', () => {
  it('binds a claim to the smallest Available volume that fits, both ways, with the controller\'s annotations', async () => {
    fx = await startFixture();
    for (const [n, s] of [['big', '10Gi'], ['small', '1Gi'], ['medium', '5Gi']] as const) await fx.core.createPersistentVolume({ body: volume(n, s) });
    await fx.cluster.settle();
    expect((await readVolume('small')).status?.phase).toBe('Available');
    expect((await readVolume('small')).spec?.persistentVolumeReclaimPolicy).toBe('Retain');
    await fx.core.createNamespacedPersistentVolumeClaim({ namespace: 'default', body: claim('want3', '3Gi') });
    await fx.cluster.settle();
    const bound = await readClaim('want3');
    expect(bound.spec?.volumeName).toBe('medium');
    expect(bound.status).toMatchObject({ phase: 'Bound', capacity: { storage: '5Gi' }, accessModes: ['ReadWriteOnce'] });
    expect(bound.metadata?.annotations).toEqual({ 'pv.kubernetes.io/bind-completed': 'yes', 'pv.kubernetes.io/bound-by-controller': 'yes' });
    const pv = await readVolume('medium');
    expect(pv.status?.phase).toBe('Bound');
    expect(pv.spec?.claimRef).toMatchObject({ kind: 'PersistentVolumeClaim', namespace: 'default', name: 'want3', uid: bound.metadata?.uid });
    expect(pv.metadata?.annotations).toEqual({ 'pv.kubernetes.io/bound-by-controller': 'yes' });
    expect((await readVolume('small')).status?.phase).toBe('Available');
  });

  it('a claim naming its volume, and a selector, are honoured; a Retain volume is Released when its claim goes', async () => {
    fx = await startFixture();
    await fx.core.createPersistentVolume({ body: volume('a', '1Gi') });
    await fx.core.createPersistentVolume({ body: volume('b', '2Gi') });
    await fx.core.createNamespacedPersistentVolumeClaim({ namespace: 'default', body: claim('by-name', '1Gi', { volumeName: 'b' }) });
    await fx.core.createNamespacedPersistentVolumeClaim({ namespace: 'default', body: claim('by-label', '1Gi', { selector: { matchLabels: { size: '1Gi' } } }) });
    await fx.cluster.settle();
    const byName = await readClaim('by-name');
    expect(byName.status?.phase).toBe('Bound');
    expect(byName.metadata?.annotations).toEqual({ 'pv.kubernetes.io/bind-completed': 'yes' });
    expect((await readClaim('by-label')).spec?.volumeName).toBe('a');

    await fx.core.deleteNamespacedPersistentVolumeClaim({ namespace: 'default', name: 'by-label' });
    await fx.cluster.settle();
    const released = await readVolume('a');
    expect(released.status?.phase).toBe('Released');
    expect(released.spec?.claimRef?.name).toBe('by-label');

    // a hand-made volume with the Delete policy: no deleter plugin, the volume fails
    await fx.core.patchPersistentVolume({ name: 'b', body: [{ op: 'replace', path: '/spec/persistentVolumeReclaimPolicy', value: 'Delete' }] });
    await fx.core.deleteNamespacedPersistentVolumeClaim({ namespace: 'default', name: 'by-name' });
    await fx.cluster.settle();
    const failed = await readVolume('b');
    expect(failed.status).toMatchObject({ phase: 'Failed', message: 'error getting deleter volume plugin for volume "b": no deletable volume plugin matched' });
  });

  it('no volume and no class: Pending with FailedBinding; a missing class: ProvisioningFailed', async () => {
    fx = await startFixture();
    await fx.core.createNamespacedPersistentVolumeClaim({ namespace: 'default', body: claim('none', '1Gi') });
    await fx.core.createNamespacedPersistentVolumeClaim({ namespace: 'default', body: claim('ghost', '1Gi', { storageClassName: 'fast' }) });
    await fx.cluster.settle();
    expect((await readClaim('none')).status?.phase).toBe('Pending');
    expect(await events('none')).toContain('Normal FailedBinding no persistent volumes available for this claim and no storage class is set');
    expect(await events('ghost')).toContain('Warning ProvisioningFailed storageclass.storage.k8s.io "fast" not found');
  });

  it('a pod using an unbound Immediate claim is not scheduled', async () => {
    fx = await startFixture();
    await fx.core.createNamespacedPersistentVolumeClaim({ namespace: 'default', body: claim('imm', '1Gi') });
    await fx.core.createNamespacedPod({
      namespace: 'default',
      body: { metadata: { name: 'p' }, spec: { containers: [{ name: 'c', image: 'busybox:1.36' }], volumes: [{ name: 'v', persistentVolumeClaim: { claimName: 'imm' } }] } },
    });
    await fx.cluster.settle();
    const pod = await fx.core.readNamespacedPod({ namespace: 'default', name: 'p' });
    expect(pod.spec?.nodeName).toBeUndefined();
    expect(pod.status?.conditions?.[0]?.message).toBe('0/1 nodes are available: pod has unbound immediate PersistentVolumeClaims. preemption: 0/1 nodes are available: 1 Preemption is not helpful for scheduling.');
    // a volume appears: the claim binds and the pod runs
    await fx.core.createPersistentVolume({ body: volume('late', '1Gi') });
    await fx.cluster.settle();
    expect((await fx.core.readNamespacedPod({ namespace: 'default', name: 'p' })).status?.phase).toBe('Running');
  });

  it('pv-protection: a Bound volume being deleted stays until its claim is gone', async () => {
    fx = await startFixture();
    await fx.core.createPersistentVolume({ body: volume('kept', '1Gi') });
    await fx.core.createNamespacedPersistentVolumeClaim({ namespace: 'default', body: claim('holder', '1Gi') });
    await fx.cluster.settle();
    expect((await readVolume('kept')).metadata?.finalizers).toEqual(['kubernetes.io/pv-protection']);
    await fx.core.deletePersistentVolume({ name: 'kept' });
    await fx.cluster.settle();
    expect((await readVolume('kept')).metadata?.deletionTimestamp).toBeDefined();
    await fx.core.deleteNamespacedPersistentVolumeClaim({ namespace: 'default', name: 'holder' });
    await fx.cluster.settle();
    await expect(readVolume('kept')).rejects.toMatchObject({ code: 404 });
  });

  it('without the local-path provisioner a WaitForFirstConsumer claim waits at ExternalProvisioning', async () => {
    fx = await startFixture({ controllers: { localPathProvisioner: false } });
    await fx.core.createNamespacedPersistentVolumeClaim({ namespace: 'default', body: { metadata: { name: 'wf' }, spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } } } } });
    await fx.core.createNamespacedPod({
      namespace: 'default',
      body: { metadata: { name: 'p' }, spec: { containers: [{ name: 'c', image: 'busybox:1.36' }], volumes: [{ name: 'v', persistentVolumeClaim: { claimName: 'wf' } }] } },
    });
    await fx.cluster.settle();
    const wf = await readClaim('wf');
    expect(wf.status?.phase).toBe('Pending');
    expect(wf.metadata?.annotations).toMatchObject({ 'volume.kubernetes.io/selected-node': 'kubeforge-control-plane', 'volume.kubernetes.io/storage-provisioner': 'rancher.io/local-path' });
    expect(await events('wf')).toContain(
      "Normal ExternalProvisioning Waiting for a volume to be created either by the external provisioner 'rancher.io/local-path' or manually by the system administrator. If volume creation is delayed, please verify that the provisioner is running and correctly registered.",
    );
    expect((await fx.core.readNamespacedPod({ namespace: 'default', name: 'p' })).status?.phase).toBe('Pending');
  });
});
