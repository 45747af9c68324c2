/**
 * Table responses (`as=Table;g=meta.k8s.io`): column definitions of the kind, one row per object,
 * and the row object as PartialObjectMetadata, the full object or nothing (`includeObject`).
 */
import type { ResourceType } from '../registry/resource-type.js';
import type { KubeObject } from '../store/object-store.js';

export type IncludeObject = 'Metadata' | 'Object' | 'None';

export function partialObjectMetadata(object: KubeObject): Record<string, unknown> {
  return { kind: 'PartialObjectMetadata', apiVersion: 'meta.k8s.io/v1', metadata: object.metadata };
}

export function tableRow(rt: ResourceType, object: KubeObject, storageForm: KubeObject, now: number, include: IncludeObject): Record<string, unknown> {
  const row: Record<string, unknown> = { cells: rt.table.cells(storageForm, now) };
  if (include === 'Object') row.object = object;
  else if (include === 'Metadata') row.object = partialObjectMetadata(object);
  return row;
}

export function buildTable(
  rt: ResourceType,
  rows: Array<{ object: KubeObject; stored: KubeObject }>,
  options: { now: number; include: IncludeObject; version: string; resourceVersion?: string; continueToken?: string; withColumns?: boolean; remaining?: number },
): Record<string, unknown> {
  const metadata: Record<string, unknown> = {};
  if (options.resourceVersion !== undefined) metadata.resourceVersion = options.resourceVersion;
  if (options.continueToken !== undefined) metadata.continue = options.continueToken;
  if (options.remaining !== undefined) metadata.remainingItemCount = options.remaining;
  const table: Record<string, unknown> = { kind: 'Table', apiVersion: `meta.k8s.io/${options.version}`, metadata };
  if (options.withColumns !== false) table.columnDefinitions = rt.table.columns;
  table.rows = rows.map((r) => tableRow(rt, r.object, r.stored, options.now, options.include));
  return table;
}
