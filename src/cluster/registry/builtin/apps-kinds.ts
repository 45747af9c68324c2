/**
 * apps/v1 Deployments, stored only (nothing runs them): defaulting, validation, kubectl columns, and the
 * `/scale` subresource a 1.32 server serves for them (autoscaling/v1 Scale over spec.replicas,
 * status.replicas and spec.selector as a label-selector string).
 */
import { type FieldError, invalid, required } from '../../errors/field-errors.js';
import type { KubeObject } from '../../store/object-store.js';
import { defineKind } from '../define-kind.js';
import type { ResourceType, ScaleSubresource } from '../resource-type.js';
import { age, ageColumn, column, nameColumn } from '../table-format.js';
import { defaultPodTemplate } from './core-kinds.js';

/** Where a Deployment keeps what its Scale shows (the selector is a LabelSelector, rendered as a string). */
export const deploymentScale: ScaleSubresource = {
  specReplicasPath: '.spec.replicas',
  statusReplicasPath: '.status.replicas',
  labelSelectorPath: '.spec.selector',
};

function validateDeployment(o: KubeObject): FieldError[] {
  const errs: FieldError[] = [];
  if (!o.spec?.selector) errs.push(required('spec.selector'));
  if (!o.spec?.template?.spec?.containers?.length) errs.push(required('spec.template.spec.containers'));
  const replicas = o.spec?.replicas;
  if (typeof replicas === 'number' && replicas < 0) errs.push(invalid('spec.replicas', replicas, 'must be greater than or equal to 0'));
  return errs;
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
    columns: [nameColumn, column('Ready', 'string', 'Number of the pod with ready state'), column('Up-to-date', 'string', 'Total number of non-terminated pods targeted by this deployment that have the desired template spec.'), column('Available', 'string', 'Total number of available pods (ready for at least minReadySeconds) targeted by this deployment.'), ageColumn],
    cells: (o, now) => [o.metadata.name, `${o.status?.readyReplicas ?? 0}/${o.spec?.replicas ?? 1}`, o.status?.updatedReplicas ?? 0, o.status?.availableReplicas ?? 0, age(o.metadata.creationTimestamp, now)],
  },
  strategy: {
    prepareForCreate(o) {
      const spec = (o.spec ??= {});
      spec.replicas ??= 1;
      spec.revisionHistoryLimit ??= 10;
      spec.progressDeadlineSeconds ??= 600;
      spec.strategy ??= { type: 'RollingUpdate', rollingUpdate: { maxSurge: '25%', maxUnavailable: '25%' } };
      defaultPodTemplate(spec.template);
      o.status = {};
    },
    validateCreate: validateDeployment,
    validateUpdate(o, old) {
      const errs = validateDeployment(o);
      if (old.spec?.selector && !sameJson(o.spec?.selector, old.spec.selector)) errs.push(invalid('spec.selector', o.spec?.selector, 'field is immutable'));
      return errs;
    },
  },
});

export const deployments: ResourceType = { ...deploymentKind, scale: deploymentScale };

export const appsKinds: ResourceType[] = [deployments];
