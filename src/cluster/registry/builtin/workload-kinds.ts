/**
 * apps/v1 StatefulSet, DaemonSet and ControllerRevision as a 1.32 API server stores them: the apps/v1
 * defaulting (pod management, update strategies, PVC retention policy, history limits), the
 * pkg/apis/apps/validation messages for the fields operators set (selector required and matching the
 * template labels, immutable StatefulSet spec fields, DaemonSet rolling-update bounds), the `/scale`
 * subresource of StatefulSets and the kubectl columns.
 */
import type { DaemonSet, DaemonSetSpec, DaemonSetStatus, StatefulSet, StatefulSetSpec } from 'kubernetes-types/apps/v1.js';
import type { Container, PersistentVolumeClaimSpec, PersistentVolumeClaimStatus, PodTemplateSpec } from 'kubernetes-types/core/v1.js';
import { type FieldError, forbidden, goQuote, GoSyntaxValue, invalid, notSupported, required } from '../../errors/field-errors.js';
import { labelSelectorToString, matchesLabels, parseLabelSelector } from '../../selectors/label-selector.js';
import type { KubeObject } from '../../store/object-store.js';
import { asStored } from '../../store/kube-object.js';
import { defineKind } from '../define-kind.js';
import type { ResourceType, ScaleSubresource } from '../resource-type.js';
import { age, ageColumn, column, nameColumn } from '../table-format.js';
import { defaultPodTemplate, validatePodSpec } from './core-kinds.js';
import { defaultClaimSpec } from './storage-kinds.js';

type LabelSelectorObject = { matchLabels?: Record<string, string>; matchExpressions?: Array<{ key: string; operator: string; values?: string[] }> };

/** Whether a LabelSelector object selects `labels` (an empty selector selects everything). */
export function selectorMatches(selector: LabelSelectorObject | undefined, labels: Record<string, string> | undefined): boolean {
  return matchesLabels(parseLabelSelector(labelSelectorToString(selector)), labels);
}

/** Go's %#v of a map[string]string, as field errors print template labels. */
function goStringMap(map: Record<string, string> | undefined): GoSyntaxValue {
  if (!map) return new GoSyntaxValue('map[string]string(nil)');
  const entries = Object.keys(map).sort().map((k) => `${goQuote(k)}:${goQuote(map[k]!)}`);
  return new GoSyntaxValue(`map[string]string{${entries.join(', ')}}`);
}

/** Go's %#v of a v1.LabelSelector, as field errors print selectors. */
function goLabelSelector(selector: LabelSelectorObject | undefined): GoSyntaxValue {
  const labels = goStringMap(selector?.matchLabels).text;
  const exprs = selector?.matchExpressions;
  const requirement = (r: { key: string; operator: string; values?: string[] }): string =>
    `v1.LabelSelectorRequirement{Key:${goQuote(r.key)}, Operator:${goQuote(r.operator)}, Values:${r.values ? `[]string{${r.values.map(goQuote).join(', ')}}` : '[]string(nil)'}}`;
  const expressions = exprs ? `[]v1.LabelSelectorRequirement{${exprs.map(requirement).join(', ')}}` : '[]v1.LabelSelectorRequirement(nil)';
  return new GoSyntaxValue(`v1.LabelSelector{MatchLabels:${labels}, MatchExpressions:${expressions}}`);
}

/** Selector present, non-empty and matching the template's labels (ValidateStatefulSetSpec / ValidateDaemonSetSpec). */
function validateSelectorAndTemplate(spec: { selector?: LabelSelectorObject; template?: PodTemplateSpec } | undefined, owner: string): FieldError[] {
  const errs: FieldError[] = [];
  const selector: LabelSelectorObject | undefined = spec?.selector;
  if (!selector) return [required('spec.selector')];
  const empty = Object.keys(selector.matchLabels ?? {}).length + (selector.matchExpressions ?? []).length === 0;
  if (empty) errs.push(invalid('spec.selector', goLabelSelector(selector), `empty selector is invalid for ${owner}`));
  const labels: Record<string, string> | undefined = spec!.template?.metadata?.labels;
  if (!empty && !selectorMatches(selector, labels)) errs.push(invalid('spec.template.metadata.labels', goStringMap(labels), '`selector` does not match template `labels`'));
  return errs;
}

const nonNegative = (path: string, value: unknown): FieldError[] =>
  typeof value === 'number' && value < 0 ? [invalid(path, value, 'must be greater than or equal to 0')] : [];

const sameJson = (a: unknown, b: unknown): boolean => JSON.stringify(a ?? null) === JSON.stringify(b ?? null);

/** Template containers as the wide columns show them. */
function containerCells(template: PodTemplateSpec | undefined): [string, string] {
  const containers: Container[] = template?.spec?.containers ?? [];
  return [containers.map((c) => c.name).join(','), containers.map((c) => c.image).join(',')];
}

// ---- StatefulSet ----

export const statefulSetScale: ScaleSubresource = { specReplicasPath: '.spec.replicas', statusReplicasPath: '.status.replicas', labelSelectorPath: '.spec.selector' };

const retentionPolicies = ['Retain', 'Delete'];

/** A volume claim template as the defaults fill it in (PersistentVolumeClaim's fields, written here). */
interface ClaimTemplate {
  apiVersion?: string;
  kind?: string;
  spec?: PersistentVolumeClaimSpec;
  status?: PersistentVolumeClaimStatus;
}

function defaultStatefulSet(o: KubeObject): void {
  o.spec ??= {};
  const spec: Partial<StatefulSetSpec> = asStored<StatefulSet>(o).spec!;
  spec.replicas ??= 1;
  spec.podManagementPolicy ??= 'OrderedReady';
  spec.updateStrategy ??= { type: 'RollingUpdate' };
  spec.updateStrategy.type ??= 'RollingUpdate';
  if (spec.updateStrategy.type === 'RollingUpdate') {
    spec.updateStrategy.rollingUpdate ??= {};
    spec.updateStrategy.rollingUpdate.partition ??= 0;
  }
  spec.revisionHistoryLimit ??= 10;
  spec.persistentVolumeClaimRetentionPolicy ??= {};
  spec.persistentVolumeClaimRetentionPolicy.whenDeleted ??= 'Retain';
  spec.persistentVolumeClaimRetentionPolicy.whenScaled ??= 'Retain';
  defaultPodTemplate(spec.template);
  const claims: Array<ClaimTemplate | null> = Array.isArray(spec.volumeClaimTemplates) ? spec.volumeClaimTemplates : [];
  for (const claim of claims) {
    if (!claim || typeof claim !== 'object') continue;
    claim.apiVersion ??= 'v1';
    claim.kind ??= 'PersistentVolumeClaim';
    defaultClaimSpec((claim.spec ??= {}));
    claim.status ??= { phase: 'Pending' };
  }
}

function validateStatefulSet(o: KubeObject): FieldError[] {
  const spec: Partial<StatefulSetSpec> = asStored<StatefulSet>(o).spec ?? {};
  const errs: FieldError[] = [];
  if (!(['OrderedReady', 'Parallel'] as Array<string | undefined>).includes(spec.podManagementPolicy)) {
    errs.push(spec.podManagementPolicy ? invalid('spec.podManagementPolicy', spec.podManagementPolicy, "must be 'OrderedReady' or 'Parallel'") : required('spec.podManagementPolicy'));
  }
  const strategy = spec.updateStrategy ?? {};
  if (!(['RollingUpdate', 'OnDelete'] as Array<string | undefined>).includes(strategy.type)) errs.push(notSupported('spec.updateStrategy.type', strategy.type ?? '', ['OnDelete', 'RollingUpdate']));
  if (strategy.type === 'OnDelete' && strategy.rollingUpdate) {
    errs.push(invalid('spec.updateStrategy.rollingUpdate', new GoSyntaxValue('apps.RollingUpdateStatefulSetStrategy{...}'), "only allowed for updateStrategy 'RollingUpdate'"));
  }
  errs.push(...nonNegative('spec.updateStrategy.rollingUpdate.partition', strategy.rollingUpdate?.partition));
  const retention = spec.persistentVolumeClaimRetentionPolicy ?? {};
  for (const when of ['whenDeleted', 'whenScaled'] as const) {
    if (!(retentionPolicies as Array<string | undefined>).includes(retention[when])) errs.push(notSupported(`spec.persistentVolumeClaimRetentionPolicy.${when}`, retention[when] ?? '', retentionPolicies));
  }
  errs.push(...nonNegative('spec.replicas', spec.replicas), ...nonNegative('spec.minReadySeconds', spec.minReadySeconds));
  if (spec.ordinals) errs.push(...nonNegative('spec.ordinals.start', spec.ordinals.start));
  errs.push(...validateSelectorAndTemplate(spec, 'statefulset'));
  errs.push(...validatePodSpec(spec.template?.spec, 'spec.template.spec', ['Always', 'OnFailure', 'Never']).filter((e) => !e.field.endsWith('restartPolicy')));
  const restart = spec.template?.spec?.restartPolicy;
  if (restart !== undefined && restart !== 'Always') errs.push(notSupported('spec.template.spec.restartPolicy', restart, ['Always']));
  if (spec.template?.spec?.activeDeadlineSeconds !== undefined) errs.push(forbidden('spec.template.spec.activeDeadlineSeconds', 'activeDeadlineSeconds in StatefulSet is not Supported'));
  // like 1.32, volumeClaimTemplates are not validated here: a bad one fails when the controller creates its claim
  return errs;
}

/** The fields of a StatefulSet spec an update may change (ValidateStatefulSetUpdate). */
const mutableStatefulSetFields = ['replicas', 'ordinals', 'template', 'updateStrategy', 'revisionHistoryLimit', 'persistentVolumeClaimRetentionPolicy', 'minReadySeconds'];

function validateStatefulSetUpdate(stored: KubeObject, storedOld: KubeObject): FieldError[] {
  const errs = validateStatefulSet(stored);
  const o = asStored<StatefulSet>(stored);
  const old = asStored<StatefulSet>(storedOld);
  const frozen = (spec: object | undefined): Record<string, unknown> => Object.fromEntries(Object.entries(spec ?? {}).filter(([k]) => !mutableStatefulSetFields.includes(k)).sort(([a], [b]) => a.localeCompare(b)));
  if (!sameJson(frozen(o.spec), frozen(old.spec))) {
    errs.push(forbidden('spec', "updates to statefulset spec for fields other than 'replicas', 'ordinals', 'template', 'updateStrategy', 'revisionHistoryLimit', 'persistentVolumeClaimRetentionPolicy' and 'minReadySeconds' are forbidden"));
  }
  return errs;
}

const statefulSetKind = defineKind({
  group: 'apps',
  resource: 'statefulsets',
  kind: 'StatefulSet',
  namespaced: true,
  shortNames: ['sts'],
  categories: ['all'],
  statusSubresource: true,
  hasGeneration: true,
  fields: ['spec', 'status'],
  table: {
    columns: [
      nameColumn,
      column('Ready', 'string', 'Number of the pod with ready state'),
      ageColumn,
      column('Containers', 'string', 'Names of each container in the template.', 1),
      column('Images', 'string', 'Images referenced by each container in the template.', 1),
    ],
    cells: (stored, now) => {
      const o = asStored<StatefulSet>(stored);
      return [o.metadata.name, `${o.status?.readyReplicas ?? 0}/${o.spec?.replicas ?? 0}`, age(o.metadata.creationTimestamp, now), ...containerCells(o.spec?.template)];
    },
  },
  strategy: {
    prepareForCreate(o) {
      defaultStatefulSet(o);
      o.status = { replicas: 0, availableReplicas: 0 };
    },
    prepareForUpdate: (o) => defaultStatefulSet(o),
    validateCreate: validateStatefulSet,
    validateUpdate: validateStatefulSetUpdate,
  },
});

export const statefulSets: ResourceType = { ...statefulSetKind, scale: statefulSetScale };

// ---- DaemonSet ----

function defaultDaemonSet(o: KubeObject): void {
  o.spec ??= {};
  const spec: Partial<DaemonSetSpec> = asStored<DaemonSet>(o).spec!;
  spec.updateStrategy ??= { type: 'RollingUpdate' };
  spec.updateStrategy.type ??= 'RollingUpdate';
  if (spec.updateStrategy.type === 'RollingUpdate') {
    spec.updateStrategy.rollingUpdate ??= {};
    spec.updateStrategy.rollingUpdate.maxUnavailable ??= 1;
    spec.updateStrategy.rollingUpdate.maxSurge ??= 0;
  }
  spec.revisionHistoryLimit ??= 10;
  defaultPodTemplate(spec.template);
}

/** An int-or-string as Go's %#v prints intstr.IntOrString. */
function intOrStringValue(v: number | string): GoSyntaxValue {
  return typeof v === 'number' ? new GoSyntaxValue(`intstr.IntOrString{Type:0, IntVal:${v}, StrVal:""}`) : new GoSyntaxValue(`intstr.IntOrString{Type:1, IntVal:0, StrVal:${goQuote(v)}}`);
}

const isZero = (v: unknown): boolean => v === 0 || v === '0%';

function validateDaemonSet(o: KubeObject): FieldError[] {
  const spec: Partial<DaemonSetSpec> = asStored<DaemonSet>(o).spec ?? {};
  const errs = validateSelectorAndTemplate(spec, 'daemonset');
  errs.push(...validatePodSpec(spec.template?.spec, 'spec.template.spec', ['Always', 'OnFailure', 'Never']).filter((e) => !e.field.endsWith('restartPolicy')));
  const restart = spec.template?.spec?.restartPolicy;
  if (restart !== undefined && restart !== 'Always') errs.push(notSupported('spec.template.spec.restartPolicy', restart, ['Always']));
  if (spec.template?.spec?.activeDeadlineSeconds !== undefined) errs.push(forbidden('spec.template.spec.activeDeadlineSeconds', 'activeDeadlineSeconds in DaemonSet is not Supported'));
  errs.push(...nonNegative('spec.minReadySeconds', spec.minReadySeconds), ...nonNegative('spec.revisionHistoryLimit', spec.revisionHistoryLimit));
  const strategy = spec.updateStrategy ?? {};
  if (!(['RollingUpdate', 'OnDelete'] as Array<string | undefined>).includes(strategy.type)) errs.push(notSupported('spec.updateStrategy.type', strategy.type ?? '', ['OnDelete', 'RollingUpdate']));
  const rolling = strategy.rollingUpdate;
  if (strategy.type === 'RollingUpdate' && rolling) {
    for (const f of ['maxUnavailable', 'maxSurge'] as const) {
      const v = rolling[f];
      if (typeof v === 'number' && v < 0) errs.push(invalid(`spec.updateStrategy.rollingUpdate.${f}`, v, 'must be greater than or equal to 0'));
      if (typeof v === 'string' && !/^\d+%$/.test(v)) errs.push(invalid(`spec.updateStrategy.rollingUpdate.${f}`, v, "a valid percent string must be a numeric string followed by an ending '%' (e.g. '1%',  or '93%', regex used for validation is '[0-9]+%')"));
    }
    if (isZero(rolling.maxUnavailable) && isZero(rolling.maxSurge ?? 0)) {
      errs.push(invalid('spec.updateStrategy.rollingUpdate.maxUnavailable', intOrStringValue(rolling.maxUnavailable!), 'may not be 0 when `maxSurge` is 0'));
    }
  }
  return errs;
}

export const daemonSets = defineKind({
  group: 'apps',
  resource: 'daemonsets',
  kind: 'DaemonSet',
  namespaced: true,
  shortNames: ['ds'],
  categories: ['all'],
  statusSubresource: true,
  hasGeneration: true,
  fields: ['spec', 'status'],
  table: {
    columns: [
      nameColumn,
      column('Desired', 'integer', 'The total number of nodes that should be running the daemon pod (including nodes correctly running the daemon pod).'),
      column('Current', 'integer', 'The number of nodes that are running at least 1 daemon pod and are supposed to run the daemon pod.'),
      column('Ready', 'integer', 'numberReady is the number of nodes that should be running the daemon pod and have one or more of the daemon pod running with a Ready Condition.'),
      column('Up-to-date', 'integer', 'The total number of nodes that are running updated daemon pod'),
      column('Available', 'integer', 'The number of nodes that should be running the daemon pod and have one or more of the daemon pod running and available (ready for at least spec.minReadySeconds)'),
      column('Node Selector', 'string', 'NodeSelector is a selector which must be true for the pod to fit on a node. Selector which must match a node\'s labels for the pod to be scheduled on that node. More info: https://kubernetes.io/docs/concepts/configuration/assign-pod-node/'),
      ageColumn,
      column('Containers', 'string', 'Names of each container in the template.', 1),
      column('Images', 'string', 'Images referenced by each container in the template.', 1),
      column('Selector', 'string', 'A label query over pods that are managed by the daemon set.', 1),
    ],
    cells: (stored, now) => {
      const o = asStored<DaemonSet>(stored);
      const s: Partial<DaemonSetStatus> = o.status ?? {};
      const nodeSelector = Object.entries(o.spec?.template?.spec?.nodeSelector ?? {}).map(([k, v]) => `${k}=${v}`).sort().join(',');
      return [
        o.metadata.name, s.desiredNumberScheduled ?? 0, s.currentNumberScheduled ?? 0, s.numberReady ?? 0, s.updatedNumberScheduled ?? 0, s.numberAvailable ?? 0,
        nodeSelector || '<none>', age(o.metadata.creationTimestamp, now), ...containerCells(o.spec?.template), labelSelectorToString(o.spec?.selector) || '<none>',
      ];
    },
  },
  strategy: {
    prepareForCreate(o) {
      defaultDaemonSet(o);
      o.status = { currentNumberScheduled: 0, numberMisscheduled: 0, desiredNumberScheduled: 0, numberReady: 0 };
    },
    prepareForUpdate: (o) => defaultDaemonSet(o),
    validateCreate: validateDaemonSet,
    validateUpdate(o, old) {
      const errs = validateDaemonSet(o);
      const selector = asStored<DaemonSet>(o).spec?.selector;
      const oldSelector = asStored<DaemonSet>(old).spec?.selector;
      if (oldSelector && !sameJson(selector, oldSelector)) errs.push(invalid('spec.selector', goLabelSelector(selector), 'field is immutable'));
      return errs;
    },
  },
});

// ---- ControllerRevision ----

export const controllerRevisions = defineKind({
  group: 'apps',
  resource: 'controllerrevisions',
  kind: 'ControllerRevision',
  namespaced: true,
  fields: ['data', 'revision:integer'],
  table: {
    columns: [
      nameColumn,
      column('Controller', 'string', 'Controller of the object'),
      column('Revision', 'string', 'Revision of the ControllerRevision'),
      ageColumn,
    ],
    cells: (o, now) => {
      const ref = (o.metadata.ownerReferences ?? []).find((r) => r.controller === true);
      const group = ref ? String(ref.apiVersion).split('/').slice(0, -1).join('/') : '';
      const controller = ref ? `${String(ref.kind).toLowerCase()}${group ? `.${group}` : ''}/${ref.name}` : '<none>';
      return [o.metadata.name, controller, o.revision ?? 0, age(o.metadata.creationTimestamp, now)];
    },
  },
  strategy: {
    validateCreate: (o) => nonNegative('revision', o.revision),
    validateUpdate(o, old) {
      const errs = nonNegative('revision', o.revision);
      if (!sameJson(o.data, old.data)) errs.push(invalid('data', new GoSyntaxValue('runtime.RawExtension{...}'), 'field is immutable'));
      return errs;
    },
  },
});

export const workloadKinds: ResourceType[] = [statefulSets, daemonSets, controllerRevisions];
