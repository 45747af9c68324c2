/**
 * `furiko logs <job>`, as Furiko's: the logs of one task Pod of a Job — the latest retry of its only task
 * unless `--index` (parallel index: a number, a key, `k=v[,k2=v2]` or its JSON) and `--retry-index` pick
 * another; tasks still Starting are not candidates. The Pod log options are kubectl's (`-c`, `-f`, `-p`,
 * `--limit-bytes`, `-t/--tail`), read through the API server's pods/log.
 */
import type { Writable } from 'node:stream';
import type { Job, ParallelIndex, TaskRef } from '../../api/v1alpha1/job_types.js';
import type { FurikoClient } from './kube-client.js';

export interface LogsFlags {
  container?: string;
  follow?: boolean;
  previous?: boolean;
  limitBytes?: string;
  tail?: string;
  index?: string;
  retryIndex?: string;
}

/** Furiko's ParseParallelIndex: JSON, else a number (indexNumber), else a key, else `k=v,…` (matrixValues). */
export function parseParallelIndex(text: string): ParallelIndex {
  if (text === '') throw new Error('cannot parse empty string as parallel index');
  try {
    const parsed: unknown = JSON.parse(text);
    if (parsed !== null && typeof parsed === 'object' && !Array.isArray(parsed)) return parsed as ParallelIndex;
  } catch {
    // not JSON
  }
  if (/^[+-]?\d+$/.test(text)) return { indexNumber: Number(text) };
  if (!text.includes('=')) return { indexKey: text };
  const matrixValues: Record<string, string> = {};
  for (const pair of text.split(',')) {
    const at = pair.indexOf('=');
    matrixValues[at < 0 ? pair : pair.slice(0, at)] = at < 0 ? '' : pair.slice(at + 1);
  }
  return { matrixValues };
}

/** A parallel index as one comparable string (the default index is `{indexNumber: 0}`, as Furiko's GetDefaultIndex). */
function indexKey(index: ParallelIndex | undefined): string {
  const { indexNumber, indexKey: key, matrixValues } = index ?? { indexNumber: 0 };
  const matrix = matrixValues ? Object.keys(matrixValues).sort().map((k) => [k, matrixValues[k]]) : undefined;
  return JSON.stringify({ n: indexNumber ?? null, k: key || null, m: matrix && matrix.length ? matrix : null });
}

/** The task whose logs to load (Furiko's selectTask); an Error with Furiko's message when there is none. */
export function selectTask(job: Job, flags: { index?: ParallelIndex; retryIndex?: number }): TaskRef {
  const name = job.metadata!.name!;
  const tasks = job.status?.tasks ?? [];
  if (tasks.length === 0) throw new Error(`cannot load logs for ${name}: no tasks created yet, try again later`);
  const byIndex = new Map<string, Map<number, TaskRef>>();
  for (const task of tasks) {
    if (task.status.state === 'Starting') continue;
    const key = indexKey(task.parallelIndex);
    if (!byIndex.has(key)) byIndex.set(key, new Map());
    byIndex.get(key)!.set(task.retryIndex, task);
  }
  const pickRetry = (retries: Map<number, TaskRef>): TaskRef | undefined =>
    flags.retryIndex !== undefined ? retries.get(flags.retryIndex) : retries.get(Math.max(...retries.keys()));
  if (flags.index) {
    const retries = byIndex.get(indexKey(flags.index));
    const task = retries && pickRetry(retries);
    if (!task) throw new Error(`cannot load logs for ${name}: no started tasks found for the given index${flags.retryIndex !== undefined ? ` for retry ${flags.retryIndex}` : ''}`);
    return task;
  }
  if (byIndex.size === 0) throw new Error(`cannot load logs for ${name}: no tasks started running yet, try again later`);
  if (!job.spec.template?.parallelism && byIndex.size === 1) {
    const task = pickRetry([...byIndex.values()][0]!);
    if (!task) throw new Error(`cannot load logs for ${name}: no started tasks found for retry ${flags.retryIndex}`);
    return task;
  }
  throw new Error(`multiple tasks found for ${name}, use --index to select a specific task to load`);
}

/** Runs `logs`: writes the chosen task Pod's log to `out` (following it with `-f` until it ends). */
export async function showLogs(name: string, flags: LogsFlags, client: FurikoClient, out: Writable): Promise<void> {
  const integer = (flag: string, value: string | undefined): number | undefined => {
    if (value === undefined) return undefined;
    if (!/^-?\d+$/.test(value)) throw new Error(`invalid value for --${flag}: cannot parse ${value} as int`);
    return Number(value);
  };
  const index = flags.index !== undefined ? parseParallelIndex(flags.index) : undefined;
  if (index) {
    const kinds = [index.indexNumber !== undefined, Boolean(index.indexKey), Object.keys(index.matrixValues ?? {}).length > 0].filter(Boolean).length;
    if (kinds !== 1) throw new Error(`invalid value for --index: exactly one of (indexNumber, indexKey, matrixValues) must be defined, got ${kinds} kinds`);
  }
  const retryIndex = integer('retry-index', flags.retryIndex);
  if (retryIndex !== undefined && retryIndex < 0) throw new Error('invalid retry index, must be greater or equal to 0');
  const limitBytes = integer('limit-bytes', flags.limitBytes);
  const tail = integer('tail', flags.tail);

  const job = await client.getJob(name).catch((err: Error) => {
    throw new Error(`cannot get job: ${err.message}`);
  });
  const task = selectTask(job, { ...(index ? { index } : {}), ...(retryIndex !== undefined ? { retryIndex } : {}) });
  await client
    .podLogs(task.name, out, {
      ...(flags.container ? { container: flags.container } : {}),
      follow: Boolean(flags.follow),
      previous: Boolean(flags.previous),
      ...(limitBytes !== undefined && limitBytes > 0 ? { limitBytes } : {}),
      ...(tail !== undefined && tail > 0 ? { tailLines: tail } : {}),
    })
    .catch((err: Error) => {
      throw new Error(`cannot stream pod logs for ${task.name}: ${err.message}`);
    });
}
