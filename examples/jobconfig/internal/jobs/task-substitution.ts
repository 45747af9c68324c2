/**
 * Context-variable substitution into a task's PodSpec (reference-operators spec §4.5): `${key}` is replaced
 * literally from the Job's substitutions, then the `job.*` variables, then the `task.*` variables (highest
 * precedence first, each map in ascending key order — KF-F6), and every leftover `${jobconfig.…}`,
 * `${job.…}`, `${task.…}` or `${option.…}` becomes the empty string. Only images, commands, args and env
 * values of containers and init containers are touched.
 */
import type { Container, PodSpec } from 'kubernetes-types/core/v1.js';
import type { Job, ParallelIndex } from '../../api/v1alpha1/job_types.js';

/** Where a task stands: its Pod name and namespace, retry index and parallel index. */
export interface TaskIdentity {
  name: string;
  namespace: string;
  retryIndex: number;
  parallelIndex: ParallelIndex;
}

const LEFTOVER_PREFIXES = ['jobconfig', 'job', 'task', 'option'];

/** The `job.*` context variables (`job.max_attempts` only when maxAttempts is set). */
export function jobVariables(job: Job): Record<string, string> {
  const vars: Record<string, string> = {
    'job.uid': job.metadata?.uid ?? '',
    'job.name': job.metadata?.name ?? '',
    'job.namespace': job.metadata?.namespace ?? '',
    'job.type': job.spec.type ?? '',
  };
  const maxAttempts = job.spec.template?.maxAttempts;
  if (maxAttempts !== undefined) vars['job.max_attempts'] = String(maxAttempts);
  return vars;
}

/** The `task.*` context variables: retry index (0-based, Q-F7) and exactly one kind of index variable. */
export function taskVariables(task: TaskIdentity): Record<string, string> {
  const vars: Record<string, string> = { 'task.name': task.name, 'task.namespace': task.namespace, 'task.retry_index': String(task.retryIndex) };
  const index = task.parallelIndex;
  if (index.indexNumber !== undefined) vars['task.index_num'] = String(index.indexNumber);
  else if (index.indexKey !== undefined && index.indexKey !== '') vars['task.index_key'] = index.indexKey;
  else for (const [key, value] of Object.entries(index.matrixValues ?? {})) vars[`task.index_matrix.${key}`] = value;
  return vars;
}

/** A substituter over the given maps, most important first. */
export function makeSubstituter(maps: ReadonlyArray<Record<string, string>>): (text: string) => string {
  const ordered = maps.map((map) => Object.keys(map).sort().map((key) => [`\${${key}}`, map[key]!] as const));
  const leftovers = LEFTOVER_PREFIXES.map((prefix) => new RegExp(`\\$\\{${prefix}\\.[^}]+\\}`, 'g'));
  return (text) => {
    let out = text;
    for (const pairs of ordered) for (const [search, value] of pairs) out = out.split(search).join(value);
    for (const leftover of leftovers) out = out.replace(leftover, '');
    return out;
  };
}

function substituteContainer(container: Container, substitute: (text: string) => string): Container {
  const out: Container = { ...container };
  if (out.image !== undefined) out.image = substitute(out.image);
  if (out.command) out.command = out.command.map(substitute);
  if (out.args) out.args = out.args.map(substitute);
  if (out.env) out.env = out.env.map((env) => (env.value !== undefined ? { ...env, value: substitute(env.value) } : { ...env }));
  return out;
}

/** A copy of `spec` with the Job's and the task's variables substituted. */
export function substitutePodSpec(spec: PodSpec, job: Job, task: TaskIdentity): PodSpec {
  const substitute = makeSubstituter([job.spec.substitutions ?? {}, jobVariables(job), taskVariables(task)]);
  const out: PodSpec = structuredClone(spec);
  out.containers = (out.containers ?? []).map((c) => substituteContainer(c, substitute));
  if (out.initContainers) out.initContainers = out.initContainers.map((c) => substituteContainer(c, substitute));
  return out;
}
