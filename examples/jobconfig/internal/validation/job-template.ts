/**
 * Defaulting and validation of a Job template (`JobTemplate`), shared by the JobConfig and Job webhooks
 * (reference-operators spec §4.1.3, §4.2): exactly one task template kind, a Pod template checked with the
 * core Pod rules it needs, parallelism, attempts and timeouts — with Furiko's field errors.
 */
import type { PodSpec } from 'kubernetes-types/core/v1.js';
import { CONCURRENCY_POLICIES, type ConcurrencyPolicy } from '../../api/v1alpha1/jobconfig_types.js';
import type { JobTemplate, ParallelismSpec, PodTemplateSpec } from '../../api/v1alpha1/job_types.js';
import { duplicate, forbidden, invalid, notSupported, required, type FieldError } from './field-errors.js';

export const MAX_ATTEMPTS_LIMIT = 50;
const PARALLEL_COMPLETION_STRATEGIES = ['AllSuccessful', 'AnySuccessful'];
const RESTART_POLICIES = ['Always', 'OnFailure', 'Never'];
const WITH_MATRIX_KEY = /^[a-z0-9_-]+$/;
const DNS1123_LABEL = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/;

/** What the webhooks fill into an unset template field. */
export interface TemplateDefaults {
  taskPendingTimeoutSeconds: number;
  /** Jobs default the Pod's restartPolicy to Never; JobConfigs leave it alone. */
  defaultRestartPolicy: boolean;
}

/** Fills in maxAttempts 1, the pending timeout, the completion strategy and (for Jobs) restartPolicy Never. */
export function defaultJobTemplate(template: JobTemplate, defaults: TemplateDefaults): void {
  template.maxAttempts ??= 1;
  template.taskPendingTimeoutSeconds ??= defaults.taskPendingTimeoutSeconds;
  if (template.parallelism && !template.parallelism.completionStrategy) template.parallelism.completionStrategy = 'AllSuccessful';
  const pod = template.taskTemplate?.pod;
  if (defaults.defaultRestartPolicy && pod) {
    pod.spec ??= {} as PodSpec;
    if (!pod.spec.restartPolicy) pod.spec.restartPolicy = 'Never';
  }
}

/** `Required value` when empty, `Unsupported value` when not one of Allow, Forbid, Enqueue. */
export function validateConcurrencyPolicy(policy: ConcurrencyPolicy | undefined, path: string): FieldError[] {
  if (!policy) return [required(path)];
  return CONCURRENCY_POLICIES.includes(policy) ? [] : [notSupported(path, policy, CONCURRENCY_POLICIES)];
}

/** `must be greater than or equal to 0` for a negative number. */
export function validateNonNegative(value: number | undefined, path: string): FieldError[] {
  return value !== undefined && value < 0 ? [invalid(path, value, 'must be greater than or equal to 0')] : [];
}

/** Every problem of a Job template at `path` (`spec.template` of a Job, `spec.template.spec` of a JobConfig). */
export function validateJobTemplate(template: JobTemplate, path: string): FieldError[] {
  const errors = validateTaskTemplate(template, `${path}.taskTemplate`);
  if (template.parallelism) errors.push(...validateParallelism(template.parallelism, `${path}.parallelism`));
  errors.push(...validateNonNegative(template.taskPendingTimeoutSeconds, `${path}.taskPendingTimeoutSeconds`));
  if (template.maxAttempts !== undefined) {
    if (template.maxAttempts <= 0) errors.push(invalid(`${path}.maxAttempts`, template.maxAttempts, 'must be greater than 0'));
    if (template.maxAttempts > MAX_ATTEMPTS_LIMIT) {
      errors.push(invalid(`${path}.maxAttempts`, template.maxAttempts, `must be less than or equal to ${MAX_ATTEMPTS_LIMIT}`));
    }
  }
  errors.push(...validateNonNegative(template.retryDelaySeconds, `${path}.retryDelaySeconds`));
  return errors;
}

function validateTaskTemplate(template: JobTemplate, path: string): FieldError[] {
  const pod = template.taskTemplate?.pod;
  if (!pod) return [required(path, 'must specify a template type')];
  return validatePodTemplate(pod, `${path}.pod`);
}

/** The core Pod rules a task template needs before any Pod is made from it, and no `restartPolicy: Always`. */
export function validatePodTemplate(pod: PodTemplateSpec, path: string): FieldError[] {
  const errors: FieldError[] = [];
  const spec = pod.spec;
  const containers = spec?.containers ?? [];
  if (containers.length === 0) errors.push(required(`${path}.spec.containers`));
  const names = new Set<string>();
  const checkContainer = (kind: 'containers' | 'initContainers') => (container: { name?: string; image?: string }, i: number) => {
    const containerPath = `${path}.spec.${kind}[${i}]`;
    const name = container.name ?? '';
    if (!name) errors.push(required(`${containerPath}.name`));
    else if (!DNS1123_LABEL.test(name) || name.length > 63) {
      errors.push(invalid(`${containerPath}.name`, name, "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')"));
    } else if (names.has(name)) errors.push(duplicate(`${containerPath}.name`, name));
    names.add(name);
    if (!container.image) errors.push(required(`${containerPath}.image`));
  };
  (spec?.initContainers ?? []).forEach(checkContainer('initContainers'));
  containers.forEach(checkContainer('containers'));
  const restartPolicy = spec?.restartPolicy;
  if (restartPolicy && !RESTART_POLICIES.includes(restartPolicy)) errors.push(notSupported(`${path}.spec.restartPolicy`, restartPolicy, RESTART_POLICIES));
  if (restartPolicy === 'Always') errors.push(invalid(`${path}.spec.restartPolicy`, restartPolicy, 'restartPolicy cannot be Always'));
  return errors;
}

/** Exactly one of withCount (> 0), withKeys (no empty key) and withMatrix (valid keys, no empty value). */
export function validateParallelism(spec: ParallelismSpec, path: string): FieldError[] {
  const errors: FieldError[] = [];
  let kinds = 0;
  const tooMany = (kindPath: string) => {
    if (kinds >= 1) {
      errors.push(forbidden(kindPath, 'cannot specify more than 1 parallelism type'));
      return true;
    }
    kinds++;
    return false;
  };
  if (spec.withCount !== undefined && spec.withCount !== null && !tooMany(`${path}.withCount`)) {
    if (spec.withCount <= 0) errors.push(invalid(`${path}.withCount`, spec.withCount, 'must be greater than 0'));
  }
  if (spec.withKeys?.length && !tooMany(`${path}.withKeys`)) {
    spec.withKeys.forEach((key, i) => {
      if (!key) errors.push(required(`${path}.withKeys[${i}]`, 'key cannot be empty'));
    });
  }
  if (spec.withMatrix && Object.keys(spec.withMatrix).length && !tooMany(`${path}.withMatrix`)) {
    for (const key of Object.keys(spec.withMatrix).sort()) {
      if (!WITH_MATRIX_KEY.test(key)) {
        errors.push(invalid(`${path}.withMatrix`, key, `withMatrix key must match regexp: ${WITH_MATRIX_KEY.source}`));
        continue;
      }
      for (const value of spec.withMatrix[key] ?? []) {
        if (!value) errors.push(required(`${path}.withMatrix[${key}]`, 'value cannot be empty'));
      }
    }
  }
  if (kinds === 0) errors.push(required(path, 'must specify a parallelism type'));
  const strategy = spec.completionStrategy;
  if (!strategy) errors.push(required(`${path}.completionStrategy`));
  else if (!PARALLEL_COMPLETION_STRATEGIES.includes(strategy)) errors.push(notSupported(`${path}.completionStrategy`, strategy, PARALLEL_COMPLETION_STRATEGIES));
  return errors;
}
