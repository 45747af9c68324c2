/**
 * Objects every cluster starts with: the four system namespaces (§3.8).
 */
import type { ObjectOperations } from './registry/object-operations.js';
import type { ResourceCatalog } from './registry/resource-catalog.js';

export const systemNamespaces = ['default', 'kube-node-lease', 'kube-public', 'kube-system'];

export function bootstrapObjects(catalog: ResourceCatalog, operations: ObjectOperations): void {
  const namespaces = catalog.find('', 'v1', 'namespaces')!;
  for (const name of systemNamespaces) {
    operations.create(namespaces, undefined, { apiVersion: 'v1', kind: 'Namespace', metadata: { name } }, { fieldManager: 'kube-apiserver' });
  }
}
