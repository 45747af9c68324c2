/**
 * Objects every cluster starts with: the four system namespaces (§3.8) and the RBAC bootstrap
 * policy (§8.4), its aggregated roles already filled.
 */
import type { ObjectOperations } from './registry/object-operations.js';
import type { ResourceCatalog } from './registry/resource-catalog.js';
import { bootstrapClusterRoleBindings, bootstrapClusterRoles, bootstrapRoleBindings, bootstrapRoles } from './rbac/bootstrap-policy.js';
import { aggregatedRules } from './rbac/aggregation-controller.js';
import { bootstrapKubernetesService } from './kubernetes-service.js';

export const systemNamespaces = ['default', 'kube-node-lease', 'kube-public', 'kube-system'];

export function bootstrapObjects(catalog: ResourceCatalog, operations: ObjectOperations): void {
  const namespaces = catalog.find('', 'v1', 'namespaces')!;
  const written = { fieldManager: 'kube-apiserver' };
  for (const name of systemNamespaces) {
    operations.create(namespaces, undefined, { apiVersion: 'v1', kind: 'Namespace', metadata: { name } }, written);
  }
  const clusterRoles = catalog.find('rbac.authorization.k8s.io', 'v1', 'clusterroles')!;
  const bindings = catalog.find('rbac.authorization.k8s.io', 'v1', 'clusterrolebindings')!;
  const roles = bootstrapClusterRoles();
  // Aggregate in dependency order (view feeds edit, edit feeds admin) so the first state is complete.
  for (const name of ['view', 'edit', 'admin']) {
    const role = roles.find((r) => r.metadata.name === name)!;
    role.rules = aggregatedRules(role, roles);
  }
  for (const role of roles) operations.create(clusterRoles, undefined, role, written);
  for (const binding of bootstrapClusterRoleBindings()) operations.create(bindings, undefined, binding, written);
  const namespacedRoles = catalog.find('rbac.authorization.k8s.io', 'v1', 'roles')!;
  const roleBindings = catalog.find('rbac.authorization.k8s.io', 'v1', 'rolebindings')!;
  for (const role of bootstrapRoles()) operations.create(namespacedRoles, role.metadata.namespace, role, written);
  for (const binding of bootstrapRoleBindings()) operations.create(roleBindings, binding.metadata.namespace, binding, written);
  bootstrapKubernetesService(catalog, operations);
}
