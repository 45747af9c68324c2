/**
 * Indexed Jobs (`completionMode: Indexed`): the completion index a pod carries, and
 * `status.completedIndexes` in the API's compressed interval form (`0-2,4,7-8`).
 */
import type { Job } from 'kubernetes-types/batch/v1.js';
import type { PodSpec } from 'kubernetes-types/core/v1.js';
import { asStored } from '../store/kube-object.js';
import type { KubeObject, NewKubeObject } from '../store/object-store.js';

export const completionIndexKey = 'batch.kubernetes.io/job-completion-index';

export function isIndexed(job: KubeObject): boolean {
  return asStored<Job>(job).spec?.completionMode === 'Indexed';
}

/** The completion index of a pod, or undefined when it carries none (or a malformed one). */
export function indexOf(pod: KubeObject): number | undefined {
  const text = pod.metadata.annotations?.[completionIndexKey] ?? pod.metadata.labels?.[completionIndexKey];
  return text !== undefined && /^\d+$/.test(text) ? Number(text) : undefined;
}

export function parseIndexes(text: string | undefined): Set<number> {
  const out = new Set<number>();
  for (const part of (text ?? '').split(',').filter(Boolean)) {
    const [from, to] = part.split('-').map(Number) as [number, number | undefined];
    for (let i = from; i <= (to ?? from); i++) out.add(i);
  }
  return out;
}

export function formatIndexes(indexes: Set<number>): string {
  const sorted = [...indexes].sort((a, b) => a - b);
  const parts: string[] = [];
  for (let i = 0; i < sorted.length; ) {
    let j = i;
    while (j + 1 < sorted.length && sorted[j + 1] === sorted[j]! + 1) j++;
    parts.push(j === i ? `${sorted[i]}` : `${sorted[i]}-${sorted[j]}`);
    i = j + 1;
  }
  return parts.join(',');
}

/** The lowest `count` indexes below `completions` that are neither completed nor running. */
export function missingIndexes(completions: number, completed: Set<number>, running: Set<number>, count: number): number[] {
  const out: number[] = [];
  for (let i = 0; i < completions && out.length < count; i++) if (!completed.has(i) && !running.has(i)) out.push(i);
  return out;
}

/** Adds the index label, annotation, hostname and JOB_COMPLETION_INDEX env as the Job controller does. */
export function stampIndex(pod: NewKubeObject, jobName: string, index: number): void {
  pod.metadata.generateName = `${jobName}-${index}-`;
  pod.metadata.labels = { ...(pod.metadata.labels ?? {}), [completionIndexKey]: String(index) };
  pod.metadata.annotations = { ...(pod.metadata.annotations ?? {}), [completionIndexKey]: String(index) };
  // the Job's pod template: its spec is always there
  const spec = pod.spec as PodSpec;
  spec.hostname ??= `${jobName}-${index}`;
  for (const c of [...(spec.containers ?? []), ...(spec.initContainers ?? [])]) {
    c.env = [...(c.env ?? []), { name: 'JOB_COMPLETION_INDEX', valueFrom: { fieldRef: { fieldPath: `metadata.labels['${completionIndexKey}']` } } }];
  }
}
