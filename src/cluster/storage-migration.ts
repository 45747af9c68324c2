/**
 * Storage-version migration of one CRD inside the local cluster, as kube-storage-version-migrator
 * does it over the API: every object not yet stored in the current storage version is rewritten in it
 * (through the conversion webhook when the CRD has one), then `status.storedVersions` is trimmed to the
 * storage version — the step that lets a later release drop the old version.
 */
import type { ConvertingRequests } from './http/converting-requests.js';
import type { ObjectOperations } from './registry/object-operations.js';
import type { ResourceCatalog } from './registry/resource-catalog.js';
import type { CustomResourceDefinition } from 'kubernetes-types/apiextensions/v1.js';
import type { ObjectStore, Stored } from './store/object-store.js';

export interface StorageMigrationResult {
  /** Objects rewritten (those already in the storage version are left alone). */
  rewritten: number;
  storageVersion: string;
  /** status.storedVersions after the migration. */
  storedVersions: string[];
}

const crdBucket = 'customresourcedefinitions.apiextensions.k8s.io';

export async function migrateStorage(
  parts: { store: ObjectStore; operations: ObjectOperations; catalog: ResourceCatalog; converting: ConvertingRequests },
  crdName: string,
): Promise<StorageMigrationResult> {
  const crd: Stored<Partial<CustomResourceDefinition>> | undefined = parts.store.get(crdBucket, undefined, crdName);
  if (!crd) throw new Error(`customresourcedefinitions.apiextensions.k8s.io "${crdName}" not found`);
  const storageVersion: string | undefined = (crd.spec?.versions ?? []).find((v) => v?.storage === true)?.name;
  if (!storageVersion) throw new Error(`customresourcedefinition ${crdName} has no storage version`);
  const rewritten = await parts.converting.rewriteInStorageVersion(crd);
  const rt = parts.catalog.find('apiextensions.k8s.io', 'v1', 'customresourcedefinitions')!;
  const latest = parts.store.get(crdBucket, undefined, crdName)!;
  const trimmed = { ...latest, status: { ...(latest.status ?? {}), storedVersions: [storageVersion] } };
  const saved: Stored<Partial<CustomResourceDefinition>> = parts.operations.update(rt, undefined, crdName, trimmed, { subresource: 'status', fieldManager: 'storage-version-migrator' }).object;
  return { rewritten, storageVersion, storedVersions: saved.status?.storedVersions ?? [] };
}
