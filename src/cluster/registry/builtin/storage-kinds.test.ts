/** The storage kinds' strategies: defaults, claim validation and update rules, the default class pick, kubectl cells. */
import type { PersistentVolume, PersistentVolumeClaim } from 'kubernetes-types/core/v1.js';
import { fieldErrorText } from '../../errors/field-errors.js';
import { asStored } from '../../store/kube-object.js';
import { ObjectStore, type KubeObject } from '../../store/object-store.js';
import { accessModesText, defaultStorageClass, parseQuantity, persistentVolumeClaimKind, persistentVolumes, standardStorageClass, storageClasses, storageClassBucket } from './storage-kinds.js';

const ctx = { now: Date.parse('2026-01-01T00:00:00Z'), uid: () => 'uid-1' };
const claim = (spec: Record<string, unknown>, status?: object): KubeObject =>
  ({ apiVersion: 'v1', kind: 'PersistentVolumeClaim', metadata: { name: 'c', namespace: 'default' }, spec, ...(status ? { status } : {}) }) as KubeObject;
const claimSpec = (o: KubeObject) => asStored<PersistentVolumeClaim>(o).spec!;
const claimStatus = (o: KubeObject) => asStored<PersistentVolumeClaim>(o).status;
const texts = (errs: Parameters<typeof fieldErrorText>[0][]): string[] => errs.map(fieldErrorText);

test('quantities and access modes as kubectl prints them', () => {
  expect(parseQuantity('1Gi')).toBe(1024 ** 3);
  expect(parseQuantity('500M')).toBe(5e8);
  expect(parseQuantity('bogus')).toBeUndefined();
  expect(accessModesText(['ReadWriteOncePod', 'ReadOnlyMany', 'ReadWriteOnce'])).toBe('RWO,ROX,RWOP');
});

test('a claim: volumeMode defaulted, the protection finalizer added, the default class filled in only when none is named', () => {
  const store = new ObjectStore({ initialResourceVersion: 1 });
  const kind = persistentVolumeClaimKind(store);
  const bare = claim({ accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } } });
  kind.strategy.prepareForCreate!(bare, ctx);
  expect(claimSpec(bare).storageClassName).toBeUndefined();
  expect(claimSpec(bare).volumeMode).toBe('Filesystem');
  expect(bare.metadata.finalizers).toEqual(['kubernetes.io/pvc-protection']);
  expect(bare.status).toEqual({ phase: 'Pending' });

  const older = { ...standardStorageClass(), metadata: { ...standardStorageClass().metadata, name: 'older', creationTimestamp: '2025-01-01T00:00:00Z' } };
  const newer = { ...standardStorageClass(), metadata: { ...standardStorageClass().metadata, name: 'newer', creationTimestamp: '2025-06-01T00:00:00Z' } };
  store.create(storageClassBucket, older as KubeObject);
  store.create(storageClassBucket, newer as KubeObject);
  expect(defaultStorageClass(store)?.metadata.name).toBe('newer');
  const defaulted = claim({ accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } } });
  kind.strategy.prepareForCreate!(defaulted, ctx);
  expect(claimSpec(defaulted).storageClassName).toBe('newer');
  const explicitNone = claim({ accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } }, storageClassName: '' });
  kind.strategy.prepareForCreate!(explicitNone, ctx);
  expect(claimSpec(explicitNone).storageClassName).toBe('');
});

test('claim validation and update rules', () => {
  const kind = persistentVolumeClaimKind(new ObjectStore({ initialResourceVersion: 1 }));
  expect(texts(kind.strategy.validateCreate!(claim({ accessModes: ['ReadWriteOncePod', 'ReadWriteOnce'], resources: { requests: { storage: '0' } }, volumeMode: 'Raw' })))).toEqual([
    'spec.accessModes: Forbidden: may not use ReadWriteOncePod with other access modes',
    'spec.resources[storage]: Invalid value: "0": must be greater than zero',
    'spec.volumeMode: Unsupported value: "Raw": supported values: "Block", "Filesystem"',
  ]);
  const bound = claim({ accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '5Gi' } }, volumeName: 'pv1', storageClassName: 'standard' }, { phase: 'Bound', capacity: { storage: '2Gi' } });
  const shrink = (storage: string) => texts(kind.strategy.validateUpdate!(claim({ ...claimSpec(bound), resources: { requests: { storage } } }, claimStatus(bound)), bound));
  expect(shrink('3Gi')).toEqual([]);
  expect(shrink('2Gi')).toEqual(['spec.resources.requests.storage: Forbidden: field can not be less than status.capacity']);
  const unbound = claim({ accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } }, storageClassName: 'standard' });
  expect(texts(kind.strategy.validateUpdate!(claim({ ...claimSpec(unbound), volumeName: 'pv9' }), unbound))).toEqual([]);
  expect(texts(kind.strategy.validateUpdate!(claim({ ...claimSpec(unbound), resources: { requests: { storage: '2Gi' } } }), unbound))).toEqual([
    [
      'spec: Forbidden: spec is immutable after creation except resources.requests and volumeAttributesClassName for bound claims',
      '  core.PersistentVolumeClaimSpec{',
      '  \t... // 2 identical fields',
      '- \tResources: {Requests: {s"storage": {s: "1Gi", ...}}},',
      '+ \tResources: {Requests: {s"storage": {s: "2Gi", ...}}},',
      '  \t... // 6 identical fields',
      '  }',
    ].join('\n'),
  ]);
});

test('volumes: Retain by default, a source and capacity required, the source immutable', () => {
  const pv = { apiVersion: 'v1', kind: 'PersistentVolume', metadata: { name: 'v' }, spec: { accessModes: ['ReadWriteOnce'], capacity: { storage: '1Gi' }, nfs: { server: 's', path: '/' } } } as KubeObject;
  persistentVolumes.strategy.prepareForCreate!(pv, ctx);
  expect(asStored<PersistentVolume>(pv).spec?.persistentVolumeReclaimPolicy).toBe('Retain');
  expect(pv.status).toEqual({ phase: 'Pending', lastPhaseTransitionTime: '2026-01-01T00:00:00Z' });
  expect(texts(persistentVolumes.strategy.validateCreate!({ ...pv, spec: {} } as KubeObject))).toEqual([
    'spec.accessModes: Required value',
    'spec.capacity: Required value',
    'spec: Required value: must specify a volume type',
  ]);
  const moved = { ...pv, spec: { ...asStored<PersistentVolume>(pv).spec, nfs: { server: 'other', path: '/' } } } as KubeObject;
  expect(texts(persistentVolumes.strategy.validateUpdate!(moved, pv))).toEqual(['spec.persistentvolumesource: Forbidden: spec.persistentvolumesource is forbidden.']);
});

test('classes: defaults, required provisioner, immutable parameters and binding mode, the (default) marker', () => {
  const sc = { apiVersion: 'storage.k8s.io/v1', kind: 'StorageClass', metadata: { name: 'fast' }, provisioner: 'example.com/x' } as KubeObject;
  storageClasses.strategy.prepareForCreate!(sc, ctx);
  expect([sc.reclaimPolicy, sc.volumeBindingMode]).toEqual(['Delete', 'Immediate']);
  expect(texts(storageClasses.strategy.validateCreate!({ ...sc, provisioner: undefined } as KubeObject))).toEqual(['provisioner: Required value']);
  const changed = { ...sc, parameters: { a: 'b' }, volumeBindingMode: 'WaitForFirstConsumer' } as KubeObject;
  expect(texts(storageClasses.strategy.validateUpdate!(changed, sc))).toEqual([
    'parameters: Forbidden: updates to parameters are forbidden.',
    'volumeBindingMode: Invalid value: "WaitForFirstConsumer": field is immutable',
  ]);
  expect(storageClasses.table.cells({ ...standardStorageClass(), metadata: { ...standardStorageClass().metadata, creationTimestamp: '2026-01-01T00:00:00Z' } } as KubeObject, ctx.now).slice(0, 5)).toEqual([
    'standard (default)', 'rancher.io/local-path', 'Delete', 'WaitForFirstConsumer', 'false',
  ]);
});
