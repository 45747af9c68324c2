/**
 * core/v1 PersistentVolumeClaim and PersistentVolume, storage.k8s.io/v1 StorageClass as a 1.32 API server
 * stores them: defaulting (volumeMode Filesystem, reclaim policy Retain for PVs and Delete for classes,
 * volumeBindingMode Immediate), the pkg/apis/core/validation and pkg/apis/storage/validation messages
 * for the fields operators set, the DefaultStorageClass admission plugin (a claim that names no class
 * gets the default one), the PersistentVolumeClaimResize admission check and the kubectl columns.
 */
import type { PersistentVolume, PersistentVolumeClaim, PersistentVolumeClaimSpec, PersistentVolumeSpec, VolumeResourceRequirements } from 'kubernetes-types/core/v1.js';
import type { StorageClass } from 'kubernetes-types/storage/v1.js';
import { type FieldError, forbidden, invalid, notSupported, required } from '../../errors/field-errors.js';
import { forbidden as forbiddenRequest } from '../../errors/status-errors.js';
import type { KubeObject, ObjectStore } from '../../store/object-store.js';
import { asStored } from '../../store/kube-object.js';
import { defineKind } from '../define-kind.js';
import type { ResourceType } from '../resource-type.js';
import { age, ageColumn, column, nameColumn } from '../table-format.js';
import { parseQuantity as parseExactQuantity } from '../../crd/cel/quantity-library.js';
import { copyObject } from '../../store/copy-object.js';

/** A resource quantity (`1Gi`, `500M`, a number) in base units, or undefined when it does not parse. */
export function parseQuantity(value: unknown): number | undefined {
  if (typeof value === 'number') return value;
  if (typeof value !== 'string') return undefined;
  try {
    const q = parseExactQuantity(value);
    return Number(q.num) * 10 ** q.exp;
  } catch {
    return undefined;
  }
}

export const storageClassBucket = 'storageclasses.storage.k8s.io';
export const defaultClassAnnotation = 'storageclass.kubernetes.io/is-default-class';
const betaDefaultClassAnnotation = 'storageclass.beta.kubernetes.io/is-default-class';

export const isDefaultClass = (sc: KubeObject): boolean =>
  sc.metadata.annotations?.[defaultClassAnnotation] === 'true' || sc.metadata.annotations?.[betaDefaultClassAnnotation] === 'true';

const supportedAccessModes = ['ReadOnlyMany', 'ReadWriteMany', 'ReadWriteOnce', 'ReadWriteOncePod'];
const accessModeAbbreviations: Array<[string, string]> = [['ReadWriteOnce', 'RWO'], ['ReadOnlyMany', 'ROX'], ['ReadWriteMany', 'RWX'], ['ReadWriteOncePod', 'RWOP']];

/** `RWO,ROX` as kubectl prints access modes (fixed order, each once). */
export function accessModesText(modes: string[] | undefined): string {
  return accessModeAbbreviations.filter(([mode]) => (modes ?? []).includes(mode)).map(([, short]) => short).join(',');
}

/** PersistentVolumeClaimSpec defaults (also applied to StatefulSet volumeClaimTemplates). */
export function defaultClaimSpec(spec: PersistentVolumeClaimSpec): void {
  spec.volumeMode ??= 'Filesystem';
}

function validateAccessModes(modes: unknown, path: string, requiredDetail: string): FieldError[] {
  const list = Array.isArray(modes) ? (modes as string[]) : [];
  if (list.length === 0) return [required(path, requiredDetail)];
  const errs: FieldError[] = [];
  for (const mode of list) if (!supportedAccessModes.includes(mode)) errs.push(notSupported(path, mode, supportedAccessModes));
  if (list.includes('ReadWriteOncePod') && list.length > 1) errs.push(forbidden(path, 'may not use ReadWriteOncePod with other access modes'));
  return errs;
}

function validateVolumeMode(mode: unknown, path: string): FieldError[] {
  return mode === undefined || mode === 'Block' || mode === 'Filesystem' ? [] : [notSupported(path, mode, ['Block', 'Filesystem'])];
}

/** ValidatePersistentVolumeClaimSpec: access modes, a positive storage request, volume mode. */
export function validateClaimSpec(spec: PersistentVolumeClaimSpec | undefined, path: string): FieldError[] {
  if (!spec || typeof spec !== 'object') return [required(path)];
  const errs = validateAccessModes(spec.accessModes, `${path}.accessModes`, 'at least 1 access mode is required');
  const storage = spec.resources?.requests?.storage;
  if (storage === undefined) errs.push(required(`${path}.resources[storage]`));
  else {
    const bytes = parseQuantity(storage);
    if (bytes === undefined) errs.push(invalid(`${path}.resources.requests[storage]`, String(storage), "quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'"));
    else if (bytes <= 0) errs.push(invalid(`${path}.resources[storage]`, String(storage), 'must be greater than zero'));
  }
  errs.push(...validateVolumeMode(spec.volumeMode, `${path}.volumeMode`));
  return errs;
}

export const pvcProtectionFinalizer = 'kubernetes.io/pvc-protection';
export const pvProtectionFinalizer = 'kubernetes.io/pv-protection';

/** The StorageObjectInUseProtection admission plugin: new claims and volumes carry their protection finalizer. */
function addFinalizer(o: KubeObject, finalizer: string): void {
  const finalizers: string[] = (o.metadata.finalizers ??= []);
  if (!finalizers.includes(finalizer)) finalizers.push(finalizer);
}

const sameJson = (a: unknown, b: unknown): boolean => JSON.stringify(a ?? null) === JSON.stringify(b ?? null);

/** The parts of a claim spec an update may not change (ValidatePersistentVolumeClaimUpdate). */
function frozenClaimSpec(stored: KubeObject, storedOld: KubeObject): { now: PersistentVolumeClaimSpec; before: PersistentVolumeClaimSpec } {
  const o = asStored<PersistentVolumeClaim>(stored);
  const old = asStored<PersistentVolumeClaim>(storedOld);
  const now: PersistentVolumeClaimSpec = copyObject(o.spec ?? {});
  const before: PersistentVolumeClaimSpec = copyObject(old.spec ?? {});
  if (!before.volumeName) before.volumeName = now.volumeName; // the binder sets volumeName once
  if (before.storageClassName === undefined && now.storageClassName !== undefined && !before.volumeName) before.storageClassName = now.storageClassName;
  if (o.status?.phase === 'Bound' && now.resources?.requests) (now.resources.requests as Record<string, string | undefined>).storage = before.resources?.requests?.storage;
  delete now.volumeAttributesClassName;
  delete before.volumeAttributesClassName;
  for (const spec of [now, before]) for (const k of Object.keys(spec) as Array<keyof PersistentVolumeClaimSpec>) if (spec[k] === undefined) delete spec[k];
  return { now, before };
}

function validateClaimUpdate(stored: KubeObject, storedOld: KubeObject): FieldError[] {
  const o = asStored<PersistentVolumeClaim>(stored);
  const old = asStored<PersistentVolumeClaim>(storedOld);
  const errs = validateClaimSpec(o.spec, 'spec');
  const { now, before } = frozenClaimSpec(stored, storedOld);
  if (!sameJson(sortKeys(now), sortKeys(before))) {
    errs.push(forbidden('spec', `spec is immutable after creation except resources.requests and volumeAttributesClassName for bound claims\n${claimSpecDiff(before, now)}`));
  }
  // RecoverVolumeExpansionFailure (beta in 1.32): a request may shrink back, but not to status.capacity or below
  const newSize = parseQuantity(o.spec?.resources?.requests?.storage);
  const oldSize = parseQuantity(old.spec?.resources?.requests?.storage);
  const capacity = parseQuantity(old.status?.capacity?.storage) ?? 0;
  if (newSize !== undefined && oldSize !== undefined && newSize < oldSize && newSize <= capacity) {
    errs.push(forbidden('spec.resources.requests.storage', 'field can not be less than status.capacity'));
  }
  return errs;
}

/** PersistentVolumeClaimSpec's fields in Go order, with how go-cmp prints a value of each. */
const claimSpecFields: Array<[string, keyof PersistentVolumeClaimSpec, (v: unknown) => string]> = [
  ['AccessModes', 'accessModes', (v) => (v ? `[]core.PersistentVolumeAccessMode{${(v as string[]).map((m) => JSON.stringify(m)).join(', ')}}` : 'nil')],
  ['Selector', 'selector', (v) => (v ? '&{...}' : 'nil')],
  ['Resources', 'resources', (v) => {
    const storage = (v as VolumeResourceRequirements | undefined)?.requests?.storage;
    return storage !== undefined ? `{Requests: {s"storage": {s: ${JSON.stringify(String(storage))}, ...}}}` : '{}';
  }],
  ['VolumeName', 'volumeName', (v) => JSON.stringify(v ?? '')],
  ['StorageClassName', 'storageClassName', (v) => (v === undefined ? 'nil' : `&${JSON.stringify(v)}`)],
  ['VolumeMode', 'volumeMode', (v) => (v === undefined ? 'nil' : `&${JSON.stringify(v)}`)],
  ['DataSource', 'dataSource', (v) => (v ? '&{...}' : 'nil')],
  ['DataSourceRef', 'dataSourceRef', (v) => (v ? '&{...}' : 'nil')],
  ['VolumeAttributesClassName', 'volumeAttributesClassName', (v) => (v === undefined ? 'nil' : `&${JSON.stringify(v)}`)],
];

/**
 * The go-cmp diff 1.32 appends to the immutability error: changed fields as -/+ lines, runs of equal
 * fields folded. (go-cmp's exact layout — which equal neighbours it shows, its spacing — is not stable by design.)
 */
function claimSpecDiff(before: PersistentVolumeClaimSpec, now: PersistentVolumeClaimSpec): string {
  const lines = ['  core.PersistentVolumeClaimSpec{'];
  let same = 0;
  const flush = (): void => {
    if (same) lines.push(`  \t... // ${same} identical field${same === 1 ? '' : 's'}`);
    same = 0;
  };
  for (const [goName, jsonName, render] of claimSpecFields) {
    if (sameJson(sortKeys(before[jsonName]), sortKeys(now[jsonName]))) {
      same++;
      continue;
    }
    flush();
    lines.push(`- \t${goName}: ${render(before[jsonName])},`, `+ \t${goName}: ${render(now[jsonName])},`);
  }
  flush();
  lines.push('  }');
  return lines.join('\n');
}

function sortKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortKeys);
  if (!value || typeof value !== 'object') return value;
  return Object.fromEntries(Object.keys(value).sort().map((k) => [k, sortKeys((value as Record<string, unknown>)[k])]));
}

/** The default StorageClass now: among classes marked default, the newest (then by name), as 1.32's admission picks. */
export function defaultStorageClass(store: ObjectStore): KubeObject | undefined {
  const marked = store.list(storageClassBucket).filter(isDefaultClass);
  marked.sort((a, b) => (b.metadata.creationTimestamp ?? '').localeCompare(a.metadata.creationTimestamp ?? '') || a.metadata.name.localeCompare(b.metadata.name));
  return marked[0];
}

const pvcQualified = { group: '', resource: 'persistentvolumeclaims' };

/** PersistentVolumeClaimResize admission: a bound claim grows only when its class allows expansion. */
function checkResize(store: ObjectStore, stored: KubeObject, storedOld: KubeObject): void {
  const o = asStored<PersistentVolumeClaim>(stored);
  const old = asStored<PersistentVolumeClaim>(storedOld);
  const before = parseQuantity(old.spec?.resources?.requests?.storage);
  const after = parseQuantity(o.spec?.resources?.requests?.storage);
  if (before === undefined || after === undefined || after <= before || old.status?.phase !== 'Bound') return;
  const className = o.spec?.storageClassName;
  const sc = className ? store.get(storageClassBucket, undefined, className) : undefined;
  if (!sc || asStored<StorageClass>(sc).allowVolumeExpansion !== true) {
    throw forbiddenRequest(
      `persistentvolumeclaims "${o.metadata.name}" is forbidden: only dynamically provisioned pvc can be resized and the storageclass that provisions the pvc must support resize`,
      pvcQualified,
      o.metadata.name,
    );
  }
}

/** PersistentVolumeClaims, with the DefaultStorageClass and resize admission reading classes from `store`. */
export function persistentVolumeClaimKind(store: ObjectStore): ResourceType {
  return defineKind({
    resource: 'persistentvolumeclaims',
    kind: 'PersistentVolumeClaim',
    namespaced: true,
    shortNames: ['pvc'],
    statusSubresource: true,
    returnsDeletedObject: true,
    fields: ['spec', 'status'],
    table: {
      columns: [
        nameColumn,
        column('Status', 'string', 'Status of the persistent volume claim.'),
        column('Volume', 'string', 'Name of the volume bound to this claim.'),
        column('Capacity', 'string', 'Capacity of the bound volume.'),
        column('Access Modes', 'string', 'Access modes of the bound volume.'),
        column('StorageClass', 'string', 'StorageClass of the claim.'),
        column('VolumeAttributesClass', 'string', 'VolumeAttributesClass of the claim.'),
        ageColumn,
        column('VolumeMode', 'string', 'VolumeMode of the claim.', 1),
      ],
      cells: (stored, now) => {
        const o = asStored<PersistentVolumeClaim>(stored);
        const phase = o.metadata.deletionTimestamp ? 'Terminating' : o.status?.phase ?? '';
        const bound = Boolean(o.spec?.volumeName);
        return [
          o.metadata.name, phase, o.spec?.volumeName ?? '', bound ? o.status?.capacity?.storage ?? '' : '', bound ? accessModesText(o.status?.accessModes) : '',
          o.spec?.storageClassName ?? o.metadata.annotations?.['volume.beta.kubernetes.io/storage-class'] ?? '', o.spec?.volumeAttributesClassName || '<unset>',
          age(o.metadata.creationTimestamp, now), o.spec?.volumeMode ?? '<unset>',
        ];
      },
    },
    strategy: {
      prepareForCreate(o) {
        o.spec ??= {};
        const spec = asStored<PersistentVolumeClaim>(o).spec!;
        defaultClaimSpec(spec);
        if (spec.storageClassName === undefined) {
          const sc = defaultStorageClass(store);
          if (sc) spec.storageClassName = sc.metadata.name;
        }
        addFinalizer(o, pvcProtectionFinalizer);
        o.status = { phase: 'Pending' };
      },
      prepareForUpdate(o, old) {
        const spec = asStored<PersistentVolumeClaim>(o).spec;
        if (spec) defaultClaimSpec(spec);
        checkResize(store, o, old);
      },
      validateCreate: (o) => validateClaimSpec(asStored<PersistentVolumeClaim>(o).spec, 'spec'),
      validateUpdate: validateClaimUpdate,
    },
  });
}

// ---- PersistentVolume ----

const volumeSources: Array<keyof PersistentVolumeSpec> = [
  'hostPath', 'local', 'nfs', 'csi', 'gcePersistentDisk', 'awsElasticBlockStore', 'azureDisk', 'azureFile', 'cephfs', 'cinder', 'fc',
  'flexVolume', 'flocker', 'glusterfs', 'iscsi', 'photonPersistentDisk', 'portworxVolume', 'quobyte', 'rbd', 'scaleIO', 'storageos', 'vsphereVolume',
];

function validatePersistentVolume(o: KubeObject): FieldError[] {
  const spec: PersistentVolumeSpec = asStored<PersistentVolume>(o).spec ?? {};
  const errs: FieldError[] = [];
  errs.push(...validateAccessModes(spec.accessModes, 'spec.accessModes', ''));
  const capacity = spec.capacity;
  if (!capacity || Object.keys(capacity).length === 0) errs.push(required('spec.capacity'));
  else {
    for (const key of Object.keys(capacity)) if (key !== 'storage') errs.push(notSupported(`spec.capacity`, key, ['storage']));
    const bytes = parseQuantity(capacity.storage);
    if (capacity.storage !== undefined && (bytes === undefined || bytes <= 0)) errs.push(invalid('spec.capacity[storage]', String(capacity.storage), 'must be greater than zero'));
  }
  const policy = spec.persistentVolumeReclaimPolicy;
  if (policy !== undefined && !['Delete', 'Recycle', 'Retain'].includes(policy)) errs.push(notSupported('spec.persistentVolumeReclaimPolicy', policy, ['Delete', 'Recycle', 'Retain']));
  const sources = volumeSources.filter((s) => spec[s] !== undefined);
  if (sources.length === 0) errs.push(required('spec', 'must specify a volume type'));
  else if (sources.length > 1) errs.push(forbidden(`spec.${sources[1]}`, 'may not specify more than 1 volume type'));
  if (spec.hostPath && !spec.hostPath.path) errs.push(required('spec.hostPath.path'));
  if (spec.local && !spec.local.path) errs.push(required('spec.local.path'));
  if (spec.local && !spec.nodeAffinity) errs.push(required('spec.nodeAffinity', 'Local volume requires node affinity'));
  errs.push(...validateVolumeMode(spec.volumeMode, 'spec.volumeMode'));
  return errs;
}

function validatePersistentVolumeUpdate(stored: KubeObject, storedOld: KubeObject): FieldError[] {
  const errs = validatePersistentVolume(stored);
  const o = asStored<PersistentVolume>(stored);
  const old = asStored<PersistentVolume>(storedOld);
  const source = (spec: PersistentVolumeSpec | undefined): unknown => sortKeys(Object.fromEntries(volumeSources.filter((s) => spec?.[s] !== undefined).map((s) => [s, spec![s]])));
  if (!sameJson(source(o.spec), source(old.spec))) errs.push(forbidden('spec.persistentvolumesource', 'spec.persistentvolumesource is forbidden.'));
  if (old.spec?.volumeMode !== undefined && o.spec?.volumeMode !== old.spec.volumeMode) errs.push(invalid('spec.volumeMode', o.spec?.volumeMode ?? null, 'field is immutable'));
  if (old.spec?.nodeAffinity && !sameJson(o.spec?.nodeAffinity, old.spec.nodeAffinity)) errs.push(invalid('spec.nodeAffinity', null, 'field is immutable'));
  return errs;
}

export const persistentVolumes = defineKind({
  resource: 'persistentvolumes',
  kind: 'PersistentVolume',
  namespaced: false,
  shortNames: ['pv'],
  statusSubresource: true,
  returnsDeletedObject: true,
  fields: ['spec', 'status'],
  table: {
    columns: [
      nameColumn,
      column('Capacity', 'string', 'capacity is the description of the persistent volume\'s resources and capacity.'),
      column('Access Modes', 'string', 'accessModes contains all ways the volume can be mounted.'),
      column('Reclaim Policy', 'string', 'persistentVolumeReclaimPolicy defines what happens to a persistent volume when released from its claim.'),
      column('Status', 'string', 'phase indicates if a volume is available, bound to a claim, or released by a claim.'),
      column('Claim', 'string', 'claimRef is part of a bi-directional binding between PersistentVolume and PersistentVolumeClaim.'),
      column('StorageClass', 'string', 'storageClassName is the name of StorageClass to which this persistent volume belongs.'),
      column('VolumeAttributesClass', 'string', 'Name of VolumeAttributesClass to which this persistent volume belongs.'),
      column('Reason', 'string', 'reason is a brief CamelCase string that describes any failure and is meant for machine parsing and tidy display in the CLI.'),
      ageColumn,
      column('VolumeMode', 'string', 'volumeMode defines if a volume is intended to be used with a formatted filesystem or to remain in raw block state.', 1),
    ],
    cells: (stored, now) => {
      const o = asStored<PersistentVolume>(stored);
      const ref = o.spec?.claimRef;
      return [
        o.metadata.name, o.spec?.capacity?.storage ?? '', accessModesText(o.spec?.accessModes), o.spec?.persistentVolumeReclaimPolicy ?? '',
        o.metadata.deletionTimestamp ? 'Terminating' : o.status?.phase ?? '', ref ? `${ref.namespace ?? ''}/${ref.name ?? ''}` : '',
        o.spec?.storageClassName ?? o.metadata.annotations?.['volume.beta.kubernetes.io/storage-class'] ?? '', o.spec?.volumeAttributesClassName || '<unset>',
        o.status?.reason ?? '', age(o.metadata.creationTimestamp, now), o.spec?.volumeMode ?? '<unset>',
      ];
    },
  },
  strategy: {
    prepareForCreate(o, ctx) {
      o.spec ??= {};
      const spec = asStored<PersistentVolume>(o).spec!;
      spec.persistentVolumeReclaimPolicy ??= 'Retain';
      spec.volumeMode ??= 'Filesystem';
      if (spec.hostPath) spec.hostPath.type ??= '';
      addFinalizer(o, pvProtectionFinalizer);
      o.status = { phase: 'Pending', lastPhaseTransitionTime: new Date(Math.floor(ctx.now / 1000) * 1000).toISOString().replace('.000Z', 'Z') };
    },
    prepareForUpdate(o) {
      o.spec ??= {};
      const spec = asStored<PersistentVolume>(o).spec!;
      spec.persistentVolumeReclaimPolicy ??= 'Retain';
      spec.volumeMode ??= 'Filesystem';
    },
    validateCreate: validatePersistentVolume,
    validateUpdate: validatePersistentVolumeUpdate,
  },
});

// ---- StorageClass ----

function validateStorageClass(stored: KubeObject): FieldError[] {
  const o = asStored<StorageClass>(stored);
  const errs: FieldError[] = [];
  if (!o.provisioner) errs.push(required('provisioner'));
  if (o.reclaimPolicy !== undefined && !['Delete', 'Retain'].includes(o.reclaimPolicy)) errs.push(notSupported('reclaimPolicy', o.reclaimPolicy, ['Delete', 'Retain']));
  if (o.volumeBindingMode !== undefined && !['Immediate', 'WaitForFirstConsumer'].includes(o.volumeBindingMode)) {
    errs.push(notSupported('volumeBindingMode', o.volumeBindingMode, ['Immediate', 'WaitForFirstConsumer']));
  }
  return errs;
}

export const storageClasses = defineKind({
  group: 'storage.k8s.io',
  resource: 'storageclasses',
  kind: 'StorageClass',
  namespaced: false,
  shortNames: ['sc'],
  returnsDeletedObject: true,
  fields: ['provisioner:string', 'parameters:map', 'reclaimPolicy:string', 'mountOptions:list', 'allowVolumeExpansion:boolean', 'volumeBindingMode:string', 'allowedTopologies:list'],
  table: {
    columns: [
      nameColumn,
      column('Provisioner', 'string', 'provisioner indicates the type of the provisioner.'),
      column('ReclaimPolicy', 'string', 'reclaimPolicy controls the reclaimPolicy for dynamically provisioned PersistentVolumes of this storage class.'),
      column('VolumeBindingMode', 'string', 'volumeBindingMode indicates how PersistentVolumeClaims should be provisioned and bound.'),
      column('AllowVolumeExpansion', 'string', 'allowVolumeExpansion shows whether the storage class allow volume expand.'),
      ageColumn,
    ],
    cells: (stored, now) => {
      const o = asStored<StorageClass>(stored);
      return [
        isDefaultClass(stored) ? `${o.metadata.name} (default)` : o.metadata.name, o.provisioner ?? '', o.reclaimPolicy ?? 'Delete', o.volumeBindingMode ?? 'Immediate',
        String(o.allowVolumeExpansion ?? false), age(o.metadata.creationTimestamp, now),
      ];
    },
  },
  strategy: {
    prepareForCreate(o) {
      o.reclaimPolicy ??= 'Delete';
      o.volumeBindingMode ??= 'Immediate';
    },
    prepareForUpdate(o) {
      o.reclaimPolicy ??= 'Delete';
      o.volumeBindingMode ??= 'Immediate';
    },
    validateCreate: validateStorageClass,
    validateUpdate(stored, storedOld) {
      const errs = validateStorageClass(stored);
      const o = asStored<StorageClass>(stored);
      const old = asStored<StorageClass>(storedOld);
      if (!sameJson(sortKeys(o.parameters ?? {}), sortKeys(old.parameters ?? {}))) errs.push(forbidden('parameters', 'updates to parameters are forbidden.'));
      if (o.provisioner !== old.provisioner) errs.push(forbidden('provisioner', 'updates to provisioner are forbidden.'));
      if (o.reclaimPolicy !== old.reclaimPolicy) errs.push(forbidden('reclaimPolicy', 'updates to reclaimPolicy are forbidden.'));
      if (o.volumeBindingMode !== old.volumeBindingMode) errs.push(invalid('volumeBindingMode', o.volumeBindingMode, 'field is immutable'));
      return errs;
    },
  },
});

/** The storage kinds; the claim kind reads StorageClasses from `store` for its admission steps. */
export function storageKinds(store: ObjectStore): ResourceType[] {
  return [persistentVolumeClaimKind(store), persistentVolumes, storageClasses];
}

/** kind's default StorageClass (the local-path provisioner's `standard`), as kind's `kubectl apply` of its storage manifest leaves it. */
export function standardStorageClass(): KubeObject {
  const manifest = {
    apiVersion: 'storage.k8s.io/v1',
    kind: 'StorageClass',
    metadata: { annotations: { [defaultClassAnnotation]: 'true' }, name: 'standard' },
    provisioner: 'rancher.io/local-path',
    reclaimPolicy: 'Delete',
    volumeBindingMode: 'WaitForFirstConsumer',
  };
  return {
    ...manifest,
    metadata: { name: 'standard', annotations: { 'kubectl.kubernetes.io/last-applied-configuration': `${JSON.stringify(manifest)}\n`, [defaultClassAnnotation]: 'true' } },
  };
}
