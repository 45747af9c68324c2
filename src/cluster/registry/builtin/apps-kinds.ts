/**
 * apps/v1 Deployments (the deployment controller runs them): defaulting, validation, kubectl columns, and the
 * `/scale` subresource a 1.32 server serves for them (autoscaling/v1 Scale over spec.replicas,
 * status.replicas and spec.selector as a label-selector string).
 */
import type { Deployment, DeploymentSpec } from 'kubernetes-types/apps/v1.js';
import type { Container } from 'kubernetes-types/core/v1.js';
import { type FieldError, invalid } from '../../errors/field-errors.js';
import type { KubeObject } from '../../store/object-store.js';
import { asStored } from '../../store/kube-object.js';
import { defineKind } from '../define-kind.js';
import { labelSelectorToString } from '../../selectors/label-selector.js';
import type { ResourceType, ScaleSubresource } from '../resource-type.js';
import { age, ageColumn, column, nameColumn } from '../table-format.js';
import { defaultPodTemplate } from './core-kinds.js';
import { goLabelSelector, nonNegative, validateDeploymentStrategy, validateLabelSelector, validateReplicaTemplate } from './replica-validation.js';

/** Where a Deployment keeps what its Scale shows (the selector is a LabelSelector, rendered as a string). */
export const deploymentScale: ScaleSubresource = {
  specReplicasPath: '.spec.replicas',
  statusReplicasPath: '.status.replicas',
  labelSelectorPath: '.spec.selector',
};

function validateDeployment(o: KubeObject): FieldError[] {
  const spec: Partial<DeploymentSpec> = asStored<Deployment>(o).spec ?? {};
  const errs = nonNegative(spec.replicas, 'spec.replicas');
  const selectorErrs = validateLabelSelector(spec.selector, 'spec.selector');
  errs.push(...selectorErrs);
  errs.push(...validateReplicaTemplate(spec.template, selectorErrs.length ? undefined : spec.selector, 'spec.template', 'ReplicaSet'));
  errs.push(...validateDeploymentStrategy(spec.strategy, 'spec.strategy'));
  errs.push(...nonNegative(spec.minReadySeconds, 'spec.minReadySeconds'));
  errs.push(...nonNegative(spec.revisionHistoryLimit, 'spec.revisionHistoryLimit'));
  if (typeof spec.progressDeadlineSeconds === 'number') {
    errs.push(...nonNegative(spec.progressDeadlineSeconds, 'spec.progressDeadlineSeconds'));
    if (spec.progressDeadlineSeconds <= (spec.minReadySeconds ?? 0)) errs.push(invalid('spec.progressDeadlineSeconds', spec.progressDeadlineSeconds, 'must be greater than minReadySeconds'));
  }
  return errs;
}

/** SetDefaults_Deployment (apps/v1). */
function defaultDeployment(o: KubeObject): void {
  o.spec ??= {};
  const spec = asStored<Deployment>(o).spec!;
  spec.replicas ??= 1;
  const strategy = (spec.strategy ??= {});
  strategy.type ||= 'RollingUpdate';
  if (strategy.type === 'RollingUpdate') {
    const ru = (strategy.rollingUpdate ??= {});
    ru.maxUnavailable ??= '25%';
    ru.maxSurge ??= '25%';
  }
  spec.revisionHistoryLimit ??= 10;
  spec.progressDeadlineSeconds ??= 600;
  defaultPodTemplate(spec.template);
}

const sameJson = (a: unknown, b: unknown): boolean => JSON.stringify(a ?? null) === JSON.stringify(b ?? null);

const deploymentKind = defineKind({
  group: 'apps',
  resource: 'deployments',
  kind: 'Deployment',
  namespaced: true,
  shortNames: ['deploy'],
  categories: ['all'],
  statusSubresource: true,
  hasGeneration: true,
  fields: ['spec', 'status'],
  table: {
    columns: [
      nameColumn,
      column('Ready', 'string', 'Number of the pod with ready state'),
      column('Up-to-date', 'string', 'Total number of non-terminated pods targeted by this deployment that have the desired template spec.'),
      column('Available', 'string', 'Total number of available pods (ready for at least minReadySeconds) targeted by this deployment.'),
      ageColumn,
      column('Containers', 'string', 'Names of each container in the template.', 1),
      column('Images', 'string', 'Images referenced by each container in the template.', 1),
      column('Selector', 'string', 'Label selector for pods. Existing ReplicaSets whose pods are selected by this will be the ones affected by this deployment.', 1),
    ],
    cells: (stored, now) => {
      const o = asStored<Deployment>(stored);
      const containers: Container[] = o.spec?.template?.spec?.containers ?? [];
      return [
        o.metadata.name,
        `${o.status?.readyReplicas ?? 0}/${o.spec?.replicas ?? 1}`,
        o.status?.updatedReplicas ?? 0,
        o.status?.availableReplicas ?? 0,
        age(o.metadata.creationTimestamp, now),
        containers.map((c) => c.name).join(','),
        containers.map((c) => c.image).join(','),
        labelSelectorToString(o.spec?.selector) || '<none>',
      ];
    },
  },
  strategy: {
    prepareForCreate(o) {
      defaultDeployment(o);
      o.status = {};
    },
    prepareForUpdate: defaultDeployment,
    validateCreate: validateDeployment,
    validateUpdate(o, old) {
      const errs = validateDeployment(o);
      const selector = asStored<Deployment>(o).spec?.selector;
      const oldSelector = asStored<Deployment>(old).spec?.selector;
      if (oldSelector && !sameJson(selector, oldSelector)) errs.push(invalid('spec.selector', goLabelSelector(selector), 'field is immutable'));
      return errs;
    },
  },
});

export const deployments: ResourceType = { ...deploymentKind, scale: deploymentScale };

export const appsKinds: ResourceType[] = [deployments];
