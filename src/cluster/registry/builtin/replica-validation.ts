/**
 * Validation shared by Deployments, ReplicaSets and ReplicationControllers, worded as 1.32's
 * pkg/apis/apps/validation and pkg/apis/core/validation word it: selectors (required, non-empty, valid
 * operators), the template's labels matching the selector, restartPolicy Always, no
 * activeDeadlineSeconds, container ports, non-negative counts and Deployment strategies.
 */
import type { DeploymentStrategy } from 'kubernetes-types/apps/v1.js';
import type { Container, ContainerPort, PodSpec, PodTemplateSpec } from 'kubernetes-types/core/v1.js';
import { type FieldError, GoSyntaxValue, forbidden, goQuote, invalid, notSupported, required } from '../../errors/field-errors.js';
import { type LabelSelectorObject, isEmptySelector, requirementsOf, selectorMatches } from '../../selectors/label-selector-object.js';
import { validatePodSpec } from './core-kinds.js';
import { dns1123LabelErrors, validateObjectMetaFields } from '../object-meta.js';

/** A Go map[string]string as %#v prints it (keys sorted). */
export function goStringMap(map: Record<string, string> | undefined): string {
  if (!map) return 'map[string]string(nil)';
  const entries = Object.keys(map).sort().map((k) => `${goQuote(k)}:${goQuote(String(map[k]))}`);
  return `map[string]string{${entries.join(', ')}}`;
}

/** A metav1.LabelSelector as %#v prints it in a field error. */
export function goLabelSelector(selector: LabelSelectorObject | undefined): GoSyntaxValue {
  if (!selector) return new GoSyntaxValue('null');
  const expressions = selector.matchExpressions
    ? `[]v1.LabelSelectorRequirement{${selector.matchExpressions
        .map((e) => `v1.LabelSelectorRequirement{Key:${goQuote(e.key)}, Operator:${goQuote(e.operator)}, Values:${e.values ? `[]string{${e.values.map(goQuote).join(', ')}}` : '[]string(nil)'}}`)
        .join(', ')}}`
    : '[]v1.LabelSelectorRequirement(nil)';
  return new GoSyntaxValue(`v1.LabelSelector{MatchLabels:${goStringMap(selector.matchLabels)}, MatchExpressions:${expressions}}`);
}

export function nonNegative(value: unknown, path: string): FieldError[] {
  return typeof value === 'number' && value < 0 ? [invalid(path, value, 'must be greater than or equal to 0')] : [];
}

/** ValidateLabelSelector plus the "empty selector" rule of the apps kinds. */
export function validateLabelSelector(selector: LabelSelectorObject | undefined, path: string): FieldError[] {
  if (!selector) return [required(path)];
  const errs: FieldError[] = [];
  (selector.matchExpressions ?? []).forEach((e, i) => {
    const p = `${path}.matchExpressions[${i}]`;
    if (e.operator === 'In' || e.operator === 'NotIn') {
      if (!e.values?.length) errs.push(required(`${p}.values`, "must be specified when `operator` is 'In' or 'NotIn'"));
    } else if (e.operator === 'Exists' || e.operator === 'DoesNotExist') {
      if (e.values?.length) errs.push(forbidden(`${p}.values`, "may not be specified when `operator` is 'Exists' or 'DoesNotExist'"));
    } else errs.push(invalid(`${p}.operator`, e.operator, 'not a valid selector operator'));
  });
  if (isEmptySelector(selector)) errs.push(invalid(path, goLabelSelector(selector), 'empty selector is invalid for deployment'));
  return errs;
}

/** Container names (DNS-1123 labels) and ports (ValidatePorts): the number range and the protocol. */
function validateContainers(spec: PodSpec | undefined, path: string): FieldError[] {
  const errs: FieldError[] = [];
  (Array.isArray(spec?.containers) ? spec.containers : []).forEach((c: Container | undefined, i: number) => {
    if (typeof c?.name === 'string' && c.name !== '') for (const m of dns1123LabelErrors(c.name)) errs.push(invalid(`${path}.containers[${i}].name`, c.name, m));
    (Array.isArray(c?.ports) ? c!.ports : []).forEach((port: ContainerPort | undefined, j: number) => {
      const p = `${path}.containers[${i}].ports[${j}]`;
      if (typeof port?.containerPort !== 'number') errs.push(required(`${p}.containerPort`));
      else if (port.containerPort < 1 || port.containerPort > 65535) errs.push(invalid(`${p}.containerPort`, port.containerPort, 'must be between 1 and 65535, inclusive'));
      if (port?.protocol !== undefined && !['SCTP', 'TCP', 'UDP'].includes(port.protocol)) errs.push(notSupported(`${p}.protocol`, port.protocol, ['SCTP', 'TCP', 'UDP']));
    });
  });
  return errs;
}

/**
 * ValidatePodTemplateSpecForReplicaSet / ForRC: labels matched by the selector, the pod spec, restartPolicy
 * Always and no activeDeadlineSeconds. `selector` undefined: an invalid selector (not checked against labels).
 */
export function validateReplicaTemplate(templateIn: PodTemplateSpec | undefined, selector: LabelSelectorObject | undefined, path: string, controllerKind: 'ReplicaSet' | 'ReplicationController'): FieldError[] {
  // a Deployment's or ReplicaSet's template is a struct, never nil: a missing one is validated as empty
  if (templateIn === undefined && controllerKind === 'ReplicationController') return [required(path)];
  const template: PodTemplateSpec = templateIn && typeof templateIn === 'object' ? templateIn : {};
  const errs: FieldError[] = [];
  const labels: Record<string, string> | undefined = template.metadata?.labels;
  if (selector && !isEmptySelector(selector) && requirementsOf(selector) && !selectorMatches(selector, labels)) {
    errs.push(invalid(`${path}.metadata.labels`, new GoSyntaxValue(goStringMap(labels)), '`selector` does not match template `labels`'));
  }
  // the template's labels and annotations are validated as an object's (ValidatePodTemplateSpec)
  const meta = template.metadata && typeof template.metadata === 'object' ? template.metadata : {};
  errs.push(...validateObjectMetaFields({ labels: meta.labels, annotations: meta.annotations }).map((e) => ({ ...e, field: `${path}.${e.field}` })));
  errs.push(...validatePodSpec(template.spec ?? {}, `${path}.spec`));
  errs.push(...validateContainers(template.spec, `${path}.spec`));
  const restartPolicy = template.spec?.restartPolicy;
  if (restartPolicy !== undefined && restartPolicy !== 'Always' && ['OnFailure', 'Never'].includes(restartPolicy)) {
    errs.push(notSupported(`${path}.spec.restartPolicy`, restartPolicy, ['Always']));
  }
  if (template.spec?.activeDeadlineSeconds !== undefined && template.spec?.activeDeadlineSeconds !== null) {
    errs.push(
      controllerKind === 'ReplicaSet'
        ? invalid(`${path}.spec.activeDeadlineSeconds`, template.spec.activeDeadlineSeconds, 'activeDeadlineSeconds in ReplicaSet is not Supported')
        : forbidden(`${path}.spec.activeDeadlineSeconds`, 'activeDeadlineSeconds in ReplicationController is not Supported'),
    );
  }
  return errs;
}

/** An IntOrString as %#v prints it (intstr.IntOrString{Type:…, IntVal:…, StrVal:…}). */
function goIntOrString(value: unknown): GoSyntaxValue {
  return typeof value === 'string'
    ? new GoSyntaxValue(`intstr.IntOrString{Type:1, IntVal:0, StrVal:${goQuote(value)}}`)
    : new GoSyntaxValue(`intstr.IntOrString{Type:0, IntVal:${Number(value ?? 0)}, StrVal:""}`);
}

const percent = /^[0-9]+%$/;
/** The value of an int-or-percent (percent as the number before '%'); 0 when unset. */
const intOrPercentValue = (v: unknown): number => (typeof v === 'string' ? (percent.test(v) ? Number(v.slice(0, -1)) : 0) : Number(v ?? 0));

function validatePositiveIntOrPercent(value: unknown, path: string): FieldError[] {
  if (typeof value === 'string') {
    return percent.test(value)
      ? []
      : [invalid(path, goIntOrString(value), "a valid percent string must be a numeric string followed by an ending '%' (e.g. '1%',  or '93%', regex used for validation is '[0-9]+%')")];
  }
  return nonNegative(value, path);
}

/** ValidateDeploymentStrategy. */
export function validateDeploymentStrategy(strategy: DeploymentStrategy | undefined, path: string): FieldError[] {
  const errs: FieldError[] = [];
  if (strategy?.type === 'Recreate') {
    if (strategy.rollingUpdate) errs.push(forbidden(`${path}.rollingUpdate`, "may not be specified when strategy `type` is 'Recreate'"));
  } else if (strategy?.type === 'RollingUpdate') {
    const ru = strategy.rollingUpdate;
    if (!ru) return [required(`${path}.rollingUpdate`, 'this should be defaulted and never be nil')];
    const p = `${path}.rollingUpdate`;
    errs.push(...validatePositiveIntOrPercent(ru.maxUnavailable, `${p}.maxUnavailable`));
    errs.push(...validatePositiveIntOrPercent(ru.maxSurge, `${p}.maxSurge`));
    if (intOrPercentValue(ru.maxUnavailable) === 0 && intOrPercentValue(ru.maxSurge) === 0) {
      errs.push(invalid(`${p}.maxUnavailable`, goIntOrString(ru.maxUnavailable), 'may not be 0 when `maxSurge` is 0'));
    }
    if (typeof ru.maxUnavailable === 'string' && percent.test(ru.maxUnavailable) && intOrPercentValue(ru.maxUnavailable) > 100) {
      errs.push(invalid(`${p}.maxUnavailable`, goIntOrString(ru.maxUnavailable), 'must not be greater than 100%'));
    }
  } else {
    errs.push(notSupported(path, new GoSyntaxValue(`apps.DeploymentStrategy{Type:${goQuote(strategy?.type ?? '')}, RollingUpdate:(*apps.RollingUpdateDeployment)(nil)}`), ['Recreate', 'RollingUpdate']));
  }
  return errs;
}
