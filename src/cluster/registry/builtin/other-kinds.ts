/**
 * Built-in kinds outside core and batch: coordination.k8s.io Leases, rbac.authorization.k8s.io
 * roles and bindings, and (from service-kind.ts and apps-kinds.ts) v1 Services and apps/v1 Deployments.
 */
import type { PolicyRule, Subject } from 'kubernetes-types/rbac/v1.js';
import { type FieldError, invalid, notSupported, required } from '../../errors/field-errors.js';
import type { KubeObject } from '../../store/object-store.js';
import { asStored } from '../../store/kube-object.js';
import type { Lease } from 'kubernetes-types/coordination/v1.js';
import type { RoleBinding } from 'kubernetes-types/rbac/v1.js';
import { defineKind } from '../define-kind.js';
import type { ResourceType } from '../resource-type.js';
import { age, ageColumn, column, nameColumn } from '../table-format.js';
import { deployments } from './apps-kinds.js';
import { services } from './service-kind.js';

export const leases = defineKind({
  group: 'coordination.k8s.io',
  resource: 'leases',
  kind: 'Lease',
  namespaced: true,
  fields: ['spec'],
  table: {
    columns: [nameColumn, column('Holder', 'string', 'The holder of the lease.'), ageColumn],
    cells: (o, now) => [o.metadata.name, asStored<Lease>(o).spec?.holderIdentity ?? '', age(o.metadata.creationTimestamp, now)],
  },
  strategy: {
    validateCreate: validateLease,
    validateUpdate: validateLease,
  },
});

function validateLease(o: KubeObject): FieldError[] {
  const errs: FieldError[] = [];
  const spec = asStored<Lease>(o).spec;
  const d = spec?.leaseDurationSeconds;
  if (d !== undefined && d !== null && !(d > 0)) errs.push(invalid('spec.leaseDurationSeconds', d, 'must be greater than 0'));
  const t = spec?.leaseTransitions;
  if (t !== undefined && t !== null && t < 0) errs.push(invalid('spec.leaseTransitions', t, 'must be greater than or equal to 0'));
  return errs;
}

function validateRules(rules: unknown, clusterRole: boolean): FieldError[] {
  const errs: FieldError[] = [];
  if (!Array.isArray(rules)) return errs;
  rules.forEach((r: PolicyRule | undefined, i) => {
    const p = `rules[${i}]`;
    if (!Array.isArray(r?.verbs) || r.verbs.length === 0) errs.push(required(`${p}.verbs`, 'verbs must contain at least one value'));
    const nonResource = Array.isArray(r?.nonResourceURLs) && r.nonResourceURLs.length > 0;
    if (nonResource) {
      if (!clusterRole) errs.push(invalid(`${p}.nonResourceURLs`, r.nonResourceURLs, 'namespaced rules cannot apply to non-resource URLs'));
      if ((r.resources ?? []).length || (r.apiGroups ?? []).length) errs.push(invalid(`${p}.nonResourceURLs`, r.nonResourceURLs, 'rules cannot apply to both regular resources and non-resource URLs'));
    } else {
      if (!Array.isArray(r?.apiGroups) || r.apiGroups.length === 0) errs.push(required(`${p}.apiGroups`, 'resource rules must supply at least one api group'));
      if (!Array.isArray(r?.resources) || r.resources.length === 0) errs.push(required(`${p}.resources`, 'resource rules must supply at least one resource'));
    }
  });
  return errs;
}

function validateBinding(o: KubeObject, clusterBinding: boolean): FieldError[] {
  const errs: FieldError[] = [];
  const ref = asStored<RoleBinding>(o).roleRef;
  if (!ref) return [required('roleRef')];
  if (ref.apiGroup !== 'rbac.authorization.k8s.io') errs.push(notSupported('roleRef.apiGroup', ref.apiGroup ?? '', ['rbac.authorization.k8s.io']));
  const kinds = clusterBinding ? ['ClusterRole'] : ['Role', 'ClusterRole'];
  if (!kinds.includes(ref.kind)) errs.push(notSupported('roleRef.kind', ref.kind ?? '', kinds));
  if (!ref.name) errs.push(required('roleRef.name'));
  (Array.isArray(o.subjects) ? o.subjects : []).forEach((s: Subject | undefined, i: number) => {
    const p = `subjects[${i}]`;
    if (!['User', 'Group', 'ServiceAccount'].includes(s?.kind as string)) errs.push(notSupported(`${p}.kind`, s?.kind ?? '', ['ServiceAccount', 'User', 'Group']));
    if (!s?.name) errs.push(required(`${p}.name`));
    if (s?.kind === 'ServiceAccount') {
      if (s.apiGroup) errs.push(notSupported(`${p}.apiGroup`, s.apiGroup, ['']));
      if (!s.namespace && clusterBinding) errs.push(required(`${p}.namespace`));
    }
    if ((s?.kind === 'User' || s?.kind === 'Group') && s.apiGroup !== 'rbac.authorization.k8s.io') errs.push(notSupported(`${p}.apiGroup`, s.apiGroup ?? '', ['rbac.authorization.k8s.io']));
  });
  return errs;
}

function roleRefImmutable(o: KubeObject, old: KubeObject): FieldError[] {
  return JSON.stringify(o.roleRef) === JSON.stringify(old.roleRef) ? [] : [invalid('roleRef', o.roleRef, 'cannot change roleRef')];
}

const createdAtTable = {
  columns: [nameColumn, column('Created At', 'date', 'CreationTimestamp')],
  cells: (o: KubeObject) => [o.metadata.name, o.metadata.creationTimestamp],
};

const bindingTable = {
  columns: [
    nameColumn,
    column('Role', 'string', 'RoleRef is the reference to the role.'),
    ageColumn,
    column('Users', 'string', 'Users in the binding.', 1),
    column('Groups', 'string', 'Groups in the binding.', 1),
    column('ServiceAccounts', 'string', 'ServiceAccounts in the binding.', 1),
  ],
  cells: (o: KubeObject, now: number) => {
    const binding = asStored<RoleBinding>(o);
    const subjects: Subject[] = binding.subjects ?? [];
    const of = (k: string, f: (s: Subject) => string): string => subjects.filter((s) => s.kind === k).map(f).join(', ');
    return [o.metadata.name, `${binding.roleRef?.kind}/${binding.roleRef?.name}`, age(o.metadata.creationTimestamp, now), of('User', (s) => s.name), of('Group', (s) => s.name), of('ServiceAccount', (s) => `${s.namespace ?? ''}/${s.name}`)];
  },
};

const rbac = 'rbac.authorization.k8s.io';
const rbacVerbs = ['create', 'delete', 'deletecollection', 'get', 'list', 'patch', 'update', 'watch'];

export const roles = defineKind({ group: rbac, resource: 'roles', kind: 'Role', namespaced: true, nameRule: 'path-segment', verbs: rbacVerbs, fields: ['rules:list'], table: createdAtTable, strategy: { validateCreate: (o) => validateRules(o.rules, false), validateUpdate: (o) => validateRules(o.rules, false) } });
export const clusterRoles = defineKind({ group: rbac, resource: 'clusterroles', kind: 'ClusterRole', namespaced: false, nameRule: 'path-segment', verbs: rbacVerbs, fields: ['rules:list', 'aggregationRule'], table: createdAtTable, strategy: { validateCreate: (o) => validateRules(o.rules, true), validateUpdate: (o) => validateRules(o.rules, true) } });
export const roleBindings = defineKind({ group: rbac, resource: 'rolebindings', kind: 'RoleBinding', namespaced: true, nameRule: 'path-segment', verbs: rbacVerbs, fields: ['roleRef', 'subjects:list'], table: bindingTable, strategy: { validateCreate: (o) => validateBinding(o, false), validateUpdate: (o, old) => [...validateBinding(o, false), ...roleRefImmutable(o, old)] } });
export const clusterRoleBindings = defineKind({ group: rbac, resource: 'clusterrolebindings', kind: 'ClusterRoleBinding', namespaced: false, nameRule: 'path-segment', verbs: rbacVerbs, fields: ['roleRef', 'subjects:list'], table: bindingTable, strategy: { validateCreate: (o) => validateBinding(o, true), validateUpdate: (o, old) => [...validateBinding(o, true), ...roleRefImmutable(o, old)] } });

export const otherKinds: ResourceType[] = [services, leases, roles, clusterRoles, roleBindings, clusterRoleBindings, deployments];
