/**
 * autoscaling HorizontalPodAutoscalers, stored (no metrics pipeline, nothing scales): v2 is the
 * preferred and storage version, v1 is served by converting as kube-apiserver does (a CPU utilization
 * metric ↔ targetCPUUtilizationPercentage; what v1 cannot say kept in the `autoscaling.alpha.kubernetes.io/*`
 * annotations, here in the v2 shape), with the v2 defaults, the 1.32 validation messages and the
 * printer's columns.
 */
import type { HorizontalPodAutoscaler as V1HorizontalPodAutoscaler, HorizontalPodAutoscalerSpec as V1HorizontalPodAutoscalerSpec } from 'kubernetes-types/autoscaling/v1.js';
import type { CrossVersionObjectReference, HPAScalingPolicy, HorizontalPodAutoscaler, HorizontalPodAutoscalerSpec, HPAScalingRules, HorizontalPodAutoscalerBehavior, HorizontalPodAutoscalerCondition, MetricSpec, MetricStatus, MetricTarget, MetricValueStatus } from 'kubernetes-types/autoscaling/v2.js';
import { type FieldError, forbidden, invalid, notSupported, required } from '../../errors/field-errors.js';
import type { KubeObject } from '../../store/object-store.js';
import { asStored } from '../../store/kube-object.js';
import { defineKind } from '../define-kind.js';
import type { ResourceType, TableSpec } from '../resource-type.js';
import { age, ageColumn, column, nameColumn } from '../table-format.js';
import { pathSegmentErrors } from '../object-meta.js';

const annotation = {
  metrics: 'autoscaling.alpha.kubernetes.io/metrics',
  behavior: 'autoscaling.alpha.kubernetes.io/behavior',
  currentMetrics: 'autoscaling.alpha.kubernetes.io/current-metrics',
  conditions: 'autoscaling.alpha.kubernetes.io/conditions',
};

const isCpuUtilization = (m: MetricSpec | undefined): boolean => m?.type === 'Resource' && m.resource?.name === 'cpu' && m.resource?.target?.type === 'Utilization';

function scalingRules(rules: HPAScalingRules | undefined, up: boolean): HPAScalingRules {
  const r: HPAScalingRules = { ...(rules ?? {}) };
  r.stabilizationWindowSeconds ??= up ? 0 : 300;
  r.selectPolicy ??= 'Max';
  r.policies ??= up
    ? [{ type: 'Pods', value: 4, periodSeconds: 15 }, { type: 'Percent', value: 100, periodSeconds: 15 }]
    : [{ type: 'Percent', value: 100, periodSeconds: 15 }];
  return r;
}

/** autoscaling/v2 defaults (SetDefaults_HorizontalPodAutoscaler): minReplicas 1, a CPU 80% metric, behavior rules. */
function defaultHpa(o: KubeObject): void {
  o.spec ??= {};
  const spec: Partial<HorizontalPodAutoscalerSpec> = asStored<HorizontalPodAutoscaler>(o).spec!;
  spec.minReplicas ??= 1;
  if (!Array.isArray(spec.metrics) || spec.metrics.length === 0) {
    spec.metrics = [{ type: 'Resource', resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: 80 } } }];
  }
  if (spec.behavior) spec.behavior = { ...spec.behavior, scaleUp: scalingRules(spec.behavior.scaleUp, true), scaleDown: scalingRules(spec.behavior.scaleDown, false) };
}

/** The JSON a v1 object keeps in one of its `autoscaling.alpha.kubernetes.io/*` annotations (as v2 wrote it). */
const annotationJson = <T>(o: KubeObject, key: string): T | undefined => {
  // the annotation holds what hpaV2ToV1 wrote: v2 metrics, behavior or conditions
  const text = o.metadata?.annotations?.[key];
  if (typeof text !== 'string') return undefined;
  try {
    return JSON.parse(text) as T;
  } catch {
    return undefined;
  }
};

/** A v1 object (as written) → the v2 storage form. */
export function hpaV1ToV2(o: KubeObject): KubeObject {
  const v1 = asStored<V1HorizontalPodAutoscaler>(o);
  const spec: Partial<V1HorizontalPodAutoscalerSpec> = v1.spec ?? {};
  const metrics: MetricSpec[] = [];
  if (typeof spec.targetCPUUtilizationPercentage === 'number') {
    metrics.push({ type: 'Resource', resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: spec.targetCPUUtilizationPercentage } } });
  }
  metrics.push(...(annotationJson<MetricSpec[]>(o, annotation.metrics) ?? []));
  const behavior = annotationJson<HorizontalPodAutoscalerBehavior>(o, annotation.behavior);
  const nextSpec: Partial<HorizontalPodAutoscalerSpec> = { scaleTargetRef: spec.scaleTargetRef, minReplicas: spec.minReplicas, maxReplicas: spec.maxReplicas };
  const next: KubeObject = { ...o, apiVersion: 'autoscaling/v2', spec: nextSpec };
  if (metrics.length) nextSpec.metrics = metrics;
  if (behavior) nextSpec.behavior = behavior;
  for (const k of ['scaleTargetRef', 'minReplicas', 'maxReplicas'] as const) if (nextSpec[k] === undefined) delete nextSpec[k];
  if (v1.status) {
    const s = v1.status;
    const status: Record<string, unknown> = { desiredReplicas: s.desiredReplicas ?? 0 };
    if (s.currentReplicas) status.currentReplicas = s.currentReplicas;
    if (s.observedGeneration !== undefined) status.observedGeneration = s.observedGeneration;
    if (s.lastScaleTime) status.lastScaleTime = s.lastScaleTime;
    const current: MetricStatus[] = [];
    if (typeof s.currentCPUUtilizationPercentage === 'number') current.push({ type: 'Resource', resource: { name: 'cpu', current: { averageUtilization: s.currentCPUUtilizationPercentage } } });
    current.push(...(annotationJson<MetricStatus[]>(o, annotation.currentMetrics) ?? []));
    if (current.length) status.currentMetrics = current;
    const conditions = annotationJson<HorizontalPodAutoscalerCondition[]>(o, annotation.conditions);
    if (conditions) status.conditions = conditions;
    next.status = status;
  }
  const annotations = { ...(o.metadata?.annotations ?? {}) };
  for (const key of Object.values(annotation)) delete annotations[key];
  next.metadata = { ...o.metadata, annotations };
  if (Object.keys(annotations).length === 0) delete next.metadata.annotations;
  return next;
}

/** The v2 storage form → what autoscaling/v1 serves. */
export function hpaV2ToV1(o: KubeObject): KubeObject {
  const v2 = asStored<HorizontalPodAutoscaler>(o);
  const spec: Partial<HorizontalPodAutoscalerSpec> = v2.spec ?? {};
  const metrics: MetricSpec[] = spec.metrics ?? [];
  const cpu = metrics.find(isCpuUtilization);
  const others = metrics.filter((m) => m !== cpu);
  const annotations: Record<string, string> = { ...(o.metadata?.annotations ?? {}) };
  if (others.length) annotations[annotation.metrics] = JSON.stringify(others);
  if (spec.behavior) annotations[annotation.behavior] = JSON.stringify(spec.behavior);
  const v1spec: Record<string, unknown> = { scaleTargetRef: spec.scaleTargetRef, minReplicas: spec.minReplicas, maxReplicas: spec.maxReplicas };
  if (cpu) v1spec.targetCPUUtilizationPercentage = cpu.resource!.target.averageUtilization;
  for (const k of Object.keys(v1spec)) if (v1spec[k] === undefined) delete v1spec[k];
  const next: KubeObject = { ...o, apiVersion: 'autoscaling/v1', spec: v1spec };
  if (v2.status) {
    const s = v2.status;
    const status: Record<string, unknown> = {};
    if (s.observedGeneration !== undefined) status.observedGeneration = s.observedGeneration;
    if (s.lastScaleTime) status.lastScaleTime = s.lastScaleTime;
    status.currentReplicas = s.currentReplicas ?? 0;
    status.desiredReplicas = s.desiredReplicas ?? 0;
    const current: MetricStatus[] = s.currentMetrics ?? [];
    const cpuNow = current.find((m) => m?.type === 'Resource' && m.resource?.name === 'cpu' && typeof m.resource?.current?.averageUtilization === 'number');
    if (cpuNow) status.currentCPUUtilizationPercentage = cpuNow.resource!.current.averageUtilization;
    const otherNow = current.filter((m) => m !== cpuNow);
    if (otherNow.length) annotations[annotation.currentMetrics] = JSON.stringify(otherNow);
    if (s.conditions?.length) annotations[annotation.conditions] = JSON.stringify(s.conditions);
    next.status = status;
  }
  next.metadata = { ...o.metadata, annotations };
  if (Object.keys(annotations).length === 0) delete next.metadata.annotations;
  return next;
}

function validateReference(ref: CrossVersionObjectReference | undefined, path: string): FieldError[] {
  const errs: FieldError[] = [];
  for (const f of ['kind', 'name'] as const) {
    const v = ref?.[f];
    if (!v) errs.push(required(`${path}.${f}`));
    else for (const m of pathSegmentErrors(String(v))) errs.push(invalid(`${path}.${f}`, v, m));
  }
  return errs;
}

const metricTypes = ['ContainerResource', 'External', 'Object', 'Pods', 'Resource'];

/** The field of a metric (spec or status) that holds its source, by metric type. */
type SourceField = 'object' | 'pods' | 'resource' | 'external' | 'containerResource';

/** What the five metric sources hold, spec and status side (each has some of these). */
interface MetricSource {
  name?: string;
  container?: string;
  metric?: { name?: string };
  describedObject?: CrossVersionObjectReference;
  target?: MetricTarget;
  current?: MetricValueStatus;
}

/** A metric's source in `field`, read through the fields the five sources share. */
const sourceOf = (metric: MetricSpec | MetricStatus, field: SourceField): MetricSource | undefined => metric[field] as MetricSource | undefined;
const sourceField: Record<string, SourceField> = { Object: 'object', Pods: 'pods', Resource: 'resource', External: 'external', ContainerResource: 'containerResource' };

function validateTarget(target: MetricTarget | undefined, path: string): FieldError[] {
  const errs: FieldError[] = [];
  const types = ['AverageValue', 'Utilization', 'Value'];
  if (!target?.type) errs.push(required(`${path}.type`, 'must specify a metric target type'));
  else if (!types.includes(target.type)) errs.push(notSupported(`${path}.type`, target.type, types));
  if (typeof target?.averageUtilization === 'number' && target.averageUtilization < 1) errs.push(invalid(`${path}.averageUtilization`, target.averageUtilization, 'must be greater than 0'));
  return errs;
}

function validateMetric(m: MetricSpec | undefined, path: string): FieldError[] {
  const errs: FieldError[] = [];
  if (!m?.type) errs.push(required(`${path}.type`, 'must specify a metric source type'));
  if (!metricTypes.includes(m?.type as string)) errs.push(notSupported(`${path}.type`, m?.type ?? '', metricTypes));
  const expected: SourceField | undefined = sourceField[m?.type as string];
  if (expected && !m![expected]) errs.push(required(`${path}.${expected}`, 'must populate information for the given metric source'));
  for (const other of Object.values(sourceField)) if (other !== expected && m?.[other]) errs.push(forbidden(`${path}.${other}`, 'must populate the given metric source only'));
  const src = expected && m ? sourceOf(m, expected) : undefined;
  if (!src || !m) return errs;
  const at = `${path}.${expected}`;
  if (m.type === 'Resource' || m.type === 'ContainerResource') {
    if (!src.name) errs.push(required(`${at}.name`, 'must specify a resource name'));
    if (m.type === 'ContainerResource' && !src.container) errs.push(required(`${at}.container`, 'must specify a container'));
    errs.push(...validateTarget(src.target, `${at}.target`));
    if (src.target?.averageUtilization === undefined && src.target?.averageValue === undefined) {
      errs.push(required(`${at}.target.averageUtilization`, 'must set either a target raw value or a target utilization'));
    }
  } else {
    if (!src.metric?.name) errs.push(required(`${at}.metric.name`, 'must specify a metric name'));
    if (m.type === 'Object') errs.push(...validateReference(src.describedObject, `${at}.describedObject`));
    errs.push(...validateTarget(src.target, `${at}.target`));
  }
  return errs;
}

function validateRules(rules: HPAScalingRules | undefined, path: string): FieldError[] {
  if (!rules) return [];
  const errs: FieldError[] = [];
  const w = rules.stabilizationWindowSeconds;
  if (typeof w === 'number' && w < 0) errs.push(invalid(`${path}.stabilizationWindowSeconds`, w, 'must be greater than or equal to zero'));
  if (typeof w === 'number' && w > 3600) errs.push(invalid(`${path}.stabilizationWindowSeconds`, w, 'must be less than or equal to 3600'));
  if (rules.selectPolicy !== undefined && !['Disabled', 'Max', 'Min'].includes(rules.selectPolicy)) errs.push(notSupported(`${path}.selectPolicy`, rules.selectPolicy, ['Disabled', 'Max', 'Min']));
  if (!rules.policies?.length) errs.push(required(`${path}.policies`, 'must specify at least one Policy'));
  (rules.policies ?? []).forEach((p: HPAScalingPolicy | undefined, i: number) => {
    const at = `${path}.policies[${i}]`;
    if (p?.type !== 'Pods' && p?.type !== 'Percent') errs.push(notSupported(`${at}.type`, p?.type ?? '', ['Percent', 'Pods']));
    if (!((p?.value as number) > 0)) errs.push(invalid(`${at}.value`, p?.value ?? 0, 'must be greater than zero'));
    if (!((p?.periodSeconds as number) > 0)) errs.push(invalid(`${at}.periodSeconds`, p?.periodSeconds ?? 0, 'must be greater than zero'));
    else if (p!.periodSeconds > 1800) errs.push(invalid(`${at}.periodSeconds`, p!.periodSeconds, 'must be less than or equal to 1800'));
  });
  return errs;
}

/** ValidateHorizontalPodAutoscaler (1.32, HPAScaleToZero off: minReplicas ≥ 1 unless it already was 0). */
export function validateHpa(o: KubeObject, old?: KubeObject): FieldError[] {
  const spec: Partial<HorizontalPodAutoscalerSpec> = asStored<HorizontalPodAutoscaler>(o).spec ?? {};
  const errs: FieldError[] = [];
  const oldMin = old && asStored<HorizontalPodAutoscaler>(old).spec?.minReplicas;
  const lower = oldMin === 0 ? 0 : 1;
  const min = spec.minReplicas;
  const max = spec.maxReplicas ?? 0;
  if (typeof min === 'number' && min < lower) errs.push(invalid('spec.minReplicas', min, `must be greater than or equal to ${lower}`));
  if (max < 1) errs.push(invalid('spec.maxReplicas', max, 'must be greater than 0'));
  if (typeof min === 'number' && max < min) errs.push(invalid('spec.maxReplicas', max, 'must be greater than or equal to `minReplicas`'));
  errs.push(...validateReference(spec.scaleTargetRef, 'spec.scaleTargetRef'));
  (spec.metrics ?? []).forEach((m: MetricSpec | undefined, i: number) => errs.push(...validateMetric(m, `spec.metrics[${i}]`)));
  if (min === 0 && !(spec.metrics ?? []).some((m: MetricSpec | undefined) => m?.type === 'Object' || m?.type === 'External')) {
    errs.push(forbidden('spec.metrics', 'must specify at least one Object or External metric to support scaling to zero replicas'));
  }
  if (spec.behavior) {
    errs.push(...validateRules(spec.behavior.scaleUp, 'spec.behavior.scaleUp'));
    errs.push(...validateRules(spec.behavior.scaleDown, 'spec.behavior.scaleDown'));
  }
  return errs;
}

/** The printer's TARGETS cell (formatHPAMetrics): at most two metrics, then "+ N more...". */
function formatTargets(specs: MetricSpec[], statuses: MetricStatus[]): string {
  if (!specs?.length) return '<none>';
  const list = specs.map((m, i) => {
    const status = statuses?.[i];
    const field = sourceField[m.type];
    const src: MetricSource = (field ? sourceOf(m, field) : undefined) ?? {};
    const target: Partial<MetricTarget> = src.target ?? {};
    if (m.type === 'Resource' || m.type === 'ContainerResource') {
      const current = status && sourceOf(status, field!)?.current;
      if (target.averageValue !== undefined) return `${src.name}: ${current?.averageValue ?? '<unknown>'}/${target.averageValue}`;
      const now = typeof current?.averageUtilization === 'number' ? `${current.averageUtilization}%` : '<unknown>';
      return `${src.name}: ${now}/${typeof target.averageUtilization === 'number' ? `${target.averageUtilization}%` : '<auto>'}`;
    }
    const current = status && sourceOf(status, field!)?.current;
    if (target.averageValue !== undefined) return `${current?.averageValue ?? '<unknown>'}/${target.averageValue}${m.type === 'Pods' ? '' : ' (avg)'}`;
    return `${current?.value ?? '<unknown>'}/${target.value ?? '<unknown>'}`;
  });
  return list.length > 2 ? `${list.slice(0, 2).join(', ')} + ${list.length - 2} more...` : list.join(', ');
}

const hpaTable: TableSpec = {
  columns: [
    nameColumn,
    column('Reference', 'string', 'The reference to the resource this autoscaler scales.'),
    column('Targets', 'string', 'The current and target values of the metrics.'),
    column('MinPods', 'string', 'Lower limit for the number of pods that can be set by the autoscaler, default 1.'),
    column('MaxPods', 'integer', 'Upper limit for the number of pods that can be set by the autoscaler; cannot be smaller than MinReplicas.'),
    column('Replicas', 'integer', 'Current number of replicas of pods managed by this autoscaler.'),
    ageColumn,
  ],
  cells: (stored, now) => {
    const o = asStored<HorizontalPodAutoscaler>(stored);
    const ref: Partial<CrossVersionObjectReference> = o.spec?.scaleTargetRef ?? {};
    return [
      o.metadata.name,
      `${ref.kind ?? ''}/${ref.name ?? ''}`,
      formatTargets(o.spec?.metrics ?? [], o.status?.currentMetrics ?? []),
      typeof o.spec?.minReplicas === 'number' ? String(o.spec.minReplicas) : '<unset>',
      o.spec?.maxReplicas ?? 0,
      o.status?.currentReplicas ?? 0,
      age(o.metadata.creationTimestamp, now),
    ];
  },
};

function hpaKind(version: 'v1' | 'v2'): ResourceType {
  const v1 = version === 'v1';
  return defineKind({
    group: 'autoscaling',
    version,
    resource: 'horizontalpodautoscalers',
    kind: 'HorizontalPodAutoscaler',
    namespaced: true,
    shortNames: ['hpa'],
    categories: ['all'],
    bucket: 'horizontalpodautoscalers.autoscaling',
    statusSubresource: true,
    hasGeneration: true,
    fields: ['spec', 'status'],
    table: hpaTable,
    strategy: {
      ...(v1 ? { toStorage: hpaV1ToV2, fromStorage: hpaV2ToV1 } : {}),
      prepareForCreate(o) {
        defaultHpa(o);
        o.status = { desiredReplicas: 0 };
      },
      prepareForUpdate: (o) => defaultHpa(o),
      validateCreate: (o) => validateHpa(o),
      validateUpdate: (o, old) => validateHpa(o, old),
    },
  });
}

export const horizontalPodAutoscalersV2 = hpaKind('v2');
export const horizontalPodAutoscalersV1 = hpaKind('v1');
export const hpaKinds: ResourceType[] = [horizontalPodAutoscalersV2, horizontalPodAutoscalersV1];
