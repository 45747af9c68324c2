/**
 * The kubelet simulator's documented rule for what a pod does (§7.6), as a pure function of the pod:
 * `sim.kubeforge.io/*` annotations first (durations, exit code, outcome, logs, probes), then a readable default read from the container command
 * (`sleep N` sets the run time, `exit M` / `false` the exit code), then the defaults (1 s for pods
 * controlled by a Job, run forever otherwise).
 */
import type { Container, Pod } from 'kubernetes-types/core/v1.js';
import { asStored } from '../store/kube-object.js';
import type { KubeObject } from '../store/object-store.js';
import { parseGoDuration } from '../../apimachinery/go-duration.js';

export const simAnnotationPrefix = 'sim.kubeforge.io/';

export type Outcome = 'run' | 'hang' | 'pending' | 'unschedulable';

export interface PodBehaviour {
  outcome: Outcome;
  scheduleDelayMs: number;
  startDelayMs: number;
  /** Undefined: runs until deleted. */
  runDurationMs: number | undefined;
  exitCode: number;
  /** Container names that exit with `exitCode` (the others exit 0); undefined: all. */
  failContainers: string[] | undefined;
  stopDelayMs: number;
  logs: string;
  /** `fail`: readiness probes never pass (containers with a readiness probe stay unready). */
  readiness: 'pass' | 'fail';
  /** `fail`: liveness probes fail (containers with one are killed and restarted after failureThreshold probes). */
  liveness: 'pass' | 'fail';
}

/** Go durations (`0s`, `1.5s`, `2m`, `1h30m`, `250ms`, time.ParseDuration's grammar), not negative; a bare number means seconds. */
export function parseDuration(text: string, where: string): number {
  const t = text.trim();
  if (/^\d+(\.\d+)?$/.test(t)) return Math.round(Number(t) * 1000);
  let ms: number | undefined;
  try {
    ms = parseGoDuration(t);
  } catch {
    ms = undefined;
  }
  if (ms === undefined || ms < 0) throw new Error(`${where}: invalid duration ${JSON.stringify(text)} (expected e.g. 5s, 1m30s, 250ms)`);
  return Math.round(ms);
}

/** What the container's command says: total `sleep` seconds and the last `exit` code, if any. */
export function readCommand(container: Pick<Container, 'command' | 'args'> | undefined): { runMs?: number; forever?: boolean; exitCode?: number } {
  const words = [...(container?.command ?? []), ...(container?.args ?? [])].map(String).join(' ');
  const out: { runMs?: number; forever?: boolean; exitCode?: number } = {};
  for (const m of words.matchAll(/\bsleep\s+([^\s;&|]+)/g)) {
    if (m[1] === 'infinity') out.forever = true;
    else {
      try {
        out.runMs = (out.runMs ?? 0) + parseDuration(m[1]!, 'sleep');
      } catch {
        // not a literal duration (e.g. a variable): no opinion
      }
    }
  }
  const exits = [...words.matchAll(/\bexit\s+(\d+)/g)];
  if (exits.length) out.exitCode = Number(exits[exits.length - 1]![1]);
  else if (/(^|[;&|]\s*|\s)false\s*$/.test(words)) out.exitCode = 1;
  return out;
}

const controlledByJob = (pod: KubeObject): boolean =>
  (pod.metadata.ownerReferences ?? []).some((r) => r.controller === true && r.kind === 'Job' && String(r.apiVersion).startsWith('batch/'));

/** The behaviour of `pod`; a malformed annotation is an error naming the pod and the annotation. */
export function podBehaviour(pod: KubeObject): PodBehaviour {
  const a: Record<string, string> = pod.metadata.annotations ?? {};
  const where = (key: string): string => `pod ${pod.metadata.namespace}/${pod.metadata.name}: annotation ${simAnnotationPrefix}${key}`;
  const get = (key: string): string | undefined => a[`${simAnnotationPrefix}${key}`];
  const duration = (key: string, fallback: number | undefined): number | undefined => {
    const v = get(key);
    return v === undefined ? fallback : parseDuration(v, where(key));
  };
  const containers: Container[] = asStored<Pod>(pod).spec?.containers ?? [];
  const commands = containers.map((c) => readCommand(c));
  const fromCommandMs = commands.some((c) => c.forever) ? undefined : commands.reduce<number | undefined>((max, c) => (c.runMs === undefined ? max : Math.max(max ?? 0, c.runMs)), undefined);
  const commandExit = commands.find((c) => c.exitCode !== undefined && c.exitCode !== 0)?.exitCode;
  const explicitExit = commands.some((c) => c.exitCode !== undefined);
  const defaultRun = commands.some((c) => c.forever) ? undefined : fromCommandMs ?? (controlledByJob(pod) || explicitExit ? 1000 : undefined);
  const behaviour: PodBehaviour = {
    outcome: 'run',
    scheduleDelayMs: duration('schedule-delay', 0)!,
    startDelayMs: duration('start-delay', 0)!,
    runDurationMs: duration('run-duration', defaultRun),
    exitCode: 0,
    failContainers: undefined,
    stopDelayMs: duration('stop-delay', 0)!,
    logs: get('logs') ?? '',
    readiness: 'pass',
    liveness: 'pass',
  };
  for (const probe of ['readiness', 'liveness'] as const) {
    const v = get(probe);
    if (v === undefined) continue;
    if (v !== 'pass' && v !== 'fail') throw new Error(`${where(probe)}: expected pass or fail, got ${JSON.stringify(v)}`);
    behaviour[probe] = v;
  }
  const exit = get('exit-code');
  if (exit !== undefined) {
    if (!/^\d+$/.test(exit.trim())) throw new Error(`${where('exit-code')}: expected an integer 0-255, got ${JSON.stringify(exit)}`);
    behaviour.exitCode = Number(exit);
  } else behaviour.exitCode = commandExit ?? 0;
  const fail = get('fail-container');
  if (fail !== undefined) behaviour.failContainers = fail.split(',').map((s) => s.trim()).filter(Boolean);
  const outcome = get('outcome');
  switch (outcome) {
    case undefined:
      break;
    case 'succeed':
      behaviour.exitCode = 0;
      behaviour.runDurationMs ??= 1000;
      break;
    case 'fail':
      if (behaviour.exitCode === 0) behaviour.exitCode = 1;
      behaviour.runDurationMs ??= 1000;
      break;
    case 'crashloop':
      if (behaviour.exitCode === 0) behaviour.exitCode = 1;
      behaviour.runDurationMs ??= 1000;
      break;
    case 'hang':
      behaviour.outcome = 'hang';
      behaviour.runDurationMs = undefined;
      break;
    case 'pending':
    case 'unschedulable':
      behaviour.outcome = outcome;
      break;
    default:
      throw new Error(`${where('outcome')}: unknown outcome ${JSON.stringify(outcome)} (expected succeed, fail, hang, crashloop, pending or unschedulable)`);
  }
  return behaviour;
}
