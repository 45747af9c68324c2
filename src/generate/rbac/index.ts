/** The RBAC generator: the model's RBAC rule declarations → config/rbac/role.yaml. */
export { buildRbac, emitRoleYaml, DEFAULT_ROLE_NAME, type PolicyRule, type RoleObject, type RbacOptions } from './build.js';
