/** ServiceAccount admission: the default account, the missing-account 403, the projected token volume and its mounts. */
import { ObjectStore } from '../../store/object-store.js';
import { ResourceCatalog } from '../../registry/resource-catalog.js';
import { VirtualClock } from '../../clock/virtual-clock.js';
import { pods } from '../../registry/builtin/core-kinds.js';
import type { ApiError } from '../../errors/status-errors.js';
import type { AdmissionRequest } from '../admission-chain.js';
import { ServiceAccountAdmission } from './service-account-admission.js';
import type { Pod, PodSpec } from 'kubernetes-types/core/v1.js';
import { asStored } from '../../store/kube-object.js';

/** The admitted pod's spec, read as a PodSpec. */
const podSpec = (request: AdmissionRequest): PodSpec => asStored<Pod>(request.object!).spec!;

function plugin(accounts: Array<Record<string, unknown>> = []): ServiceAccountAdmission {
  const store = new ObjectStore({ initialResourceVersion: 1, historyLimit: 10 });
  store.create('namespaces', { metadata: { name: 'ns' } });
  for (const a of accounts) store.create('serviceaccounts', { ...a, metadata: { name: '', namespace: 'ns', ...(a.metadata as object) } });
  return new ServiceAccountAdmission({ store, catalog: new ResourceCatalog([]), clock: new VirtualClock(0) });
}

const podCreate = (spec: Record<string, unknown>): AdmissionRequest => ({
  operation: 'CREATE', rt: pods, namespace: 'ns', name: 'p', subresource: undefined,
  object: { metadata: { name: 'p', namespace: 'ns' }, spec: { containers: [{ name: 'c', image: 'x' }], ...spec } }, oldObject: undefined, user: undefined, dryRun: false,
});

test('a pod without an account runs as default and mounts the kube-api-access volume in every container', () => {
  const request = podCreate({ initContainers: [{ name: 'init', image: 'x' }] });
  plugin([{ metadata: { name: 'default' } }]).admit(request);
  const spec = podSpec(request);
  expect(spec.serviceAccountName).toBe('default');
  expect(spec.volumes).toHaveLength(1);
  const volume = spec.volumes![0]!;
  expect(volume.name).toMatch(/^kube-api-access-[bcdfghjklmnpqrstvwxz2456789]{5}$/);
  expect(volume.projected).toEqual({
    defaultMode: 420,
    sources: [
      { serviceAccountToken: { expirationSeconds: 3607, path: 'token' } },
      { configMap: { name: 'kube-root-ca.crt', items: [{ key: 'ca.crt', path: 'ca.crt' }] } },
      { downwardAPI: { items: [{ path: 'namespace', fieldRef: { apiVersion: 'v1', fieldPath: 'metadata.namespace' } }] } },
    ],
  });
  const mount = { name: volume.name, readOnly: true, mountPath: '/var/run/secrets/kubernetes.io/serviceaccount' };
  expect(spec.containers[0].volumeMounts).toEqual([mount]);
  expect(spec.initContainers![0]!.volumeMounts).toEqual([mount]);
});

test('automountServiceAccountToken false on the pod or the account mounts nothing; the pod wins over the account', () => {
  const onPod = podCreate({ automountServiceAccountToken: false });
  plugin([{ metadata: { name: 'default' } }]).admit(onPod);
  expect(podSpec(onPod).volumes).toBeUndefined();
  const onAccount = podCreate({ serviceAccountName: 'quiet' });
  plugin([{ metadata: { name: 'quiet' }, automountServiceAccountToken: false }]).admit(onAccount);
  expect(podSpec(onAccount).volumes).toBeUndefined();
  expect(podSpec(onAccount).containers[0].volumeMounts).toBeUndefined();
  const podWins = podCreate({ serviceAccountName: 'quiet', automountServiceAccountToken: true });
  plugin([{ metadata: { name: 'quiet' }, automountServiceAccountToken: false }]).admit(podWins);
  expect(podSpec(podWins).volumes).toHaveLength(1);
});

test('a container that mounts the token path itself keeps its mount; the account lends its imagePullSecrets', () => {
  const request = podCreate({ serviceAccountName: 'puller', containers: [{ name: 'own', image: 'x', volumeMounts: [{ name: 'mine', mountPath: '/var/run/secrets/kubernetes.io/serviceaccount' }] }], volumes: [{ name: 'mine', emptyDir: {} }] });
  plugin([{ metadata: { name: 'puller' }, imagePullSecrets: [{ name: 'registry' }] }]).admit(request);
  expect(podSpec(request).volumes).toEqual([{ name: 'mine', emptyDir: {} }]);
  expect(podSpec(request).imagePullSecrets).toEqual([{ name: 'registry' }]);
});

test('a pod naming a missing account is refused with 403; a missing default account of an active namespace is about to exist', () => {
  const p = plugin();
  let refusal: ApiError | undefined;
  try {
    p.admit(podCreate({ serviceAccountName: 'builder' }));
  } catch (e) {
    refusal = e as ApiError;
  }
  expect(refusal?.code).toBe(403);
  expect(refusal?.status.message).toBe('pods "p" is forbidden: error looking up service account ns/builder: serviceaccount "builder" not found');
  const request = podCreate({});
  p.admit(request);
  expect(podSpec(request).serviceAccountName).toBe('default');
});
