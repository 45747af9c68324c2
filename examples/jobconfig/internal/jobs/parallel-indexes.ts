/**
 * The parallel indexes of a Furiko Job (reference-operators spec §4.1.3, §6.3): which indexes a template asks
 * for, in Furiko's order, and how an index is written on a task Pod (its JSON annotation) and read back.
 */
import type { ParallelIndex, ParallelismSpec } from '../../api/v1alpha1/job_types.js';

/** The single index of a non-parallel Job. */
export function defaultIndex(): ParallelIndex {
  return { indexNumber: 0 };
}

/**
 * Every index the parallelism asks for: withCount → 0…n-1; withKeys → each key in order; withMatrix → every
 * combination with the keys sorted ascending and the last key varying fastest; nothing → the default index.
 */
export function generateIndexes(parallelism: ParallelismSpec | undefined): ParallelIndex[] {
  if (parallelism?.withCount !== undefined) return Array.from({ length: parallelism.withCount }, (_, i) => ({ indexNumber: i }));
  if (parallelism?.withKeys?.length) return parallelism.withKeys.map((indexKey) => ({ indexKey }));
  if (parallelism?.withMatrix && Object.keys(parallelism.withMatrix).length) return matrixIndexes(parallelism.withMatrix);
  return [defaultIndex()];
}

function matrixIndexes(matrix: Record<string, string[]>): ParallelIndex[] {
  let combinations: Array<Record<string, string>> = [{}];
  for (const key of Object.keys(matrix).sort()) {
    combinations = combinations.flatMap((partial) => (matrix[key] ?? []).map((value) => ({ ...partial, [key]: value })));
  }
  return combinations.map((matrixValues) => ({ matrixValues }));
}

/** The `task-parallel-index` annotation: Go's JSON of the index (omitempty fields, map keys sorted). */
export function parallelIndexJson(index: ParallelIndex): string {
  const out: Record<string, unknown> = {};
  if (index.indexNumber !== undefined) out.indexNumber = index.indexNumber;
  if (index.indexKey) out.indexKey = index.indexKey;
  if (index.matrixValues && Object.keys(index.matrixValues).length) {
    out.matrixValues = Object.fromEntries(Object.entries(index.matrixValues).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
  }
  return JSON.stringify(out);
}

/** Reads the annotation back; undefined when absent or not JSON of an object. */
export function parseParallelIndex(json: string | undefined): ParallelIndex | undefined {
  if (json === undefined) return undefined;
  try {
    const value: unknown = JSON.parse(json);
    if (typeof value !== 'object' || value === null || Array.isArray(value)) return undefined;
    const raw = value as Record<string, unknown>;
    const index: ParallelIndex = {};
    if (typeof raw.indexNumber === 'number') index.indexNumber = raw.indexNumber;
    if (typeof raw.indexKey === 'string') index.indexKey = raw.indexKey;
    if (typeof raw.matrixValues === 'object' && raw.matrixValues !== null) index.matrixValues = raw.matrixValues as Record<string, string>;
    return index;
  } catch {
    return undefined;
  }
}
