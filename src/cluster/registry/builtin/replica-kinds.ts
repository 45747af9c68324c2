/**
 * apps/v1 ReplicaSet and core/v1 ReplicationController: 1.32 defaulting (replicas 1; an RC's selector
 * and labels taken from its template), validation (selector required and matching the template's labels,
 * immutable for apps/v1, replicas ≥ 0, restartPolicy Always), kubectl columns, and `/scale`.
 */
import type { ReplicaSet, ReplicaSetSpec } from 'kubernetes-types/apps/v1.js';
import type { Container, ReplicationController, ReplicationControllerSpec } from 'kubernetes-types/core/v1.js';
import { type FieldError, invalid, required } from '../../errors/field-errors.js';
import type { KubeObject } from '../../store/object-store.js';
import { asStored } from '../../store/kube-object.js';
import { defineKind } from '../define-kind.js';
import type { ResourceType, ScaleSubresource } from '../resource-type.js';
import { age, ageColumn, column, nameColumn } from '../table-format.js';
import { labelSelectorToString } from '../../selectors/label-selector.js';
import { fromSelectorMap } from '../../selectors/label-selector-object.js';
import { defaultPodTemplate } from './core-kinds.js';
import { goLabelSelector, nonNegative, validateLabelSelector, validateReplicaTemplate } from './replica-validation.js';

const sameJson = (a: unknown, b: unknown): boolean => JSON.stringify(a ?? null) === JSON.stringify(b ?? null);
/** A ReplicaSet or ReplicationController: both keep replicas and a pod template the same way. */
const replicated = (o: KubeObject) => asStored<ReplicaSet | ReplicationController>(o);
const containersOf = (o: KubeObject): Container[] => replicated(o).spec?.template?.spec?.containers ?? [];

/** The columns kubectl shows for ReplicaSets and ReplicationControllers (wide adds containers, images, selector). */
const replicaTable = (selectorText: (o: KubeObject) => string) => ({
  columns: [
    nameColumn,
    column('Desired', 'integer', 'Replicas is the number of desired replicas.'),
    column('Current', 'integer', 'Replicas is the most recently observed number of replicas.'),
    column('Ready', 'integer', 'The number of ready replicas for this replica set.'),
    ageColumn,
    column('Containers', 'string', 'Names of each container in the template.', 1),
    column('Images', 'string', 'Images referenced by each container in the template.', 1),
    column('Selector', 'string', 'Selector that selects pods managed by this replica set.', 1),
  ],
  cells: (o: KubeObject, now: number) => [
    o.metadata.name,
    replicated(o).spec?.replicas ?? 0,
    replicated(o).status?.replicas ?? 0,
    replicated(o).status?.readyReplicas ?? 0,
    age(o.metadata.creationTimestamp, now),
    containersOf(o).map((c) => c.name).join(','),
    containersOf(o).map((c) => c.image).join(','),
    selectorText(o) || '<none>',
  ],
});

function validateReplicaSet(o: KubeObject): FieldError[] {
  const spec: Partial<ReplicaSetSpec> = asStored<ReplicaSet>(o).spec ?? {};
  const errs = [...nonNegative(spec.replicas, 'spec.replicas'), ...nonNegative(spec.minReadySeconds, 'spec.minReadySeconds')];
  const selectorErrs = validateLabelSelector(spec.selector, 'spec.selector');
  errs.push(...selectorErrs);
  errs.push(...validateReplicaTemplate(spec.template, selectorErrs.length ? undefined : spec.selector, 'spec.template', 'ReplicaSet'));
  return errs;
}

export const replicaSets: ResourceType = {
  ...defineKind({
    group: 'apps',
    resource: 'replicasets',
    kind: 'ReplicaSet',
    namespaced: true,
    shortNames: ['rs'],
    categories: ['all'],
    statusSubresource: true,
    hasGeneration: true,
    fields: ['spec', 'status'],
    table: replicaTable((o) => labelSelectorToString(asStored<ReplicaSet>(o).spec?.selector)),
    strategy: {
      prepareForCreate(o) {
        o.spec ??= {};
        const spec = asStored<ReplicaSet>(o).spec!;
        spec.replicas ??= 1;
        defaultPodTemplate(spec.template);
        o.status = { replicas: 0 };
      },
      prepareForUpdate(o) {
        o.spec ??= {};
        const spec = asStored<ReplicaSet>(o).spec!;
        spec.replicas ??= 1;
        defaultPodTemplate(spec.template);
      },
      validateCreate: validateReplicaSet,
      validateUpdate(o, old) {
        const errs = validateReplicaSet(o);
        const selector = asStored<ReplicaSet>(o).spec?.selector;
        if (!sameJson(selector, asStored<ReplicaSet>(old).spec?.selector)) errs.push(invalid('spec.selector', goLabelSelector(selector), 'field is immutable'));
        return errs;
      },
    },
  }),
  scale: { specReplicasPath: '.spec.replicas', statusReplicasPath: '.status.replicas', labelSelectorPath: '.spec.selector' } satisfies ScaleSubresource,
};

function defaultReplicationController(o: KubeObject): void {
  o.spec ??= {};
  const spec = asStored<ReplicationController>(o).spec!;
  const labels = spec.template?.metadata?.labels;
  if (labels && Object.keys(labels).length) {
    if (!spec.selector || Object.keys(spec.selector).length === 0) spec.selector = { ...labels };
    if (!o.metadata.labels || Object.keys(o.metadata.labels).length === 0) o.metadata.labels = { ...labels };
  }
  spec.replicas ??= 1;
  defaultPodTemplate(spec.template);
}

function validateReplicationController(o: KubeObject): FieldError[] {
  const spec: ReplicationControllerSpec = asStored<ReplicationController>(o).spec ?? {};
  const errs = nonNegative(spec.minReadySeconds, 'spec.minReadySeconds');
  const empty = !spec.selector || Object.keys(spec.selector).length === 0;
  if (empty) errs.push(required('spec.selector'));
  errs.push(...nonNegative(spec.replicas, 'spec.replicas'));
  errs.push(...validateReplicaTemplate(spec.template, empty ? undefined : fromSelectorMap(spec.selector), 'spec.template', 'ReplicationController'));
  return errs;
}

export const replicationControllers: ResourceType = {
  ...defineKind({
    resource: 'replicationcontrollers',
    kind: 'ReplicationController',
    namespaced: true,
    shortNames: ['rc'],
    categories: ['all'],
    statusSubresource: true,
    hasGeneration: true,
    fields: ['spec', 'status'],
    table: replicaTable((o) => labelSelectorToString(fromSelectorMap(asStored<ReplicationController>(o).spec?.selector))),
    strategy: {
      prepareForCreate(o) {
        defaultReplicationController(o);
        o.status = { replicas: 0 };
      },
      prepareForUpdate: defaultReplicationController,
      validateCreate: validateReplicationController,
      validateUpdate: validateReplicationController,
    },
  }),
  scale: { specReplicasPath: '.spec.replicas', statusReplicasPath: '.status.replicas', labelSelectorPath: '.spec.selector', selectorIsMap: true },
};

export const replicaKinds: ResourceType[] = [replicaSets, replicationControllers];
