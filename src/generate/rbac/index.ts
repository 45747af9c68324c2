/** The RBAC generator: `+kubebuilder:rbac` markers → config/rbac/role.yaml. */
export { buildRbac, emitRoleYaml, DEFAULT_ROLE_NAME, RBAC_MARKER, type PolicyRule, type RoleObject, type RbacOptions } from './build.js';
