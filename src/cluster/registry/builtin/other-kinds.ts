/**
 * Built-in kinds outside core and batch: coordination.k8s.io Leases, rbac.authorization.k8s.io
 * roles and bindings, v1 Services, and (from apps-kinds.ts) apps/v1 Deployments.
 */
import { type FieldError, invalid, notSupported, required } from '../../errors/field-errors.js';
import type { KubeObject } from '../../store/object-store.js';
import { defineKind } from '../define-kind.js';
import type { ResourceType } from '../resource-type.js';
import { age, ageColumn, column, nameColumn } from '../table-format.js';
import { deployments } from './apps-kinds.js';

export const leases = defineKind({
  group: 'coordination.k8s.io',
  resource: 'leases',
  kind: 'Lease',
  namespaced: true,
  fields: ['spec'],
  table: {
    columns: [nameColumn, column('Holder', 'string', 'The holder of the lease.'), ageColumn],
    cells: (o, now) => [o.metadata.name, o.spec?.holderIdentity ?? '', age(o.metadata.creationTimestamp, now)],
  },
  strategy: {
    validateCreate: validateLease,
    validateUpdate: validateLease,
  },
});

function validateLease(o: KubeObject): FieldError[] {
  const errs: FieldError[] = [];
  const d = o.spec?.leaseDurationSeconds;
  if (d !== undefined && d !== null && !(d > 0)) errs.push(invalid('spec.leaseDurationSeconds', d, 'must be greater than 0'));
  const t = o.spec?.leaseTransitions;
  if (t !== undefined && t !== null && t < 0) errs.push(invalid('spec.leaseTransitions', t, 'must be greater than or equal to 0'));
  return errs;
}

function validateRules(rules: unknown, clusterRole: boolean): FieldError[] {
  const errs: FieldError[] = [];
  if (!Array.isArray(rules)) return errs;
  rules.forEach((r: any, i) => {
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
  const ref = o.roleRef;
  if (!ref) return [required('roleRef')];
  if (ref.apiGroup !== 'rbac.authorization.k8s.io') errs.push(notSupported('roleRef.apiGroup', ref.apiGroup ?? '', ['rbac.authorization.k8s.io']));
  const kinds = clusterBinding ? ['ClusterRole'] : ['Role', 'ClusterRole'];
  if (!kinds.includes(ref.kind)) errs.push(notSupported('roleRef.kind', ref.kind ?? '', kinds));
  if (!ref.name) errs.push(required('roleRef.name'));
  (Array.isArray(o.subjects) ? o.subjects : []).forEach((s: any, i: number) => {
    const p = `subjects[${i}]`;
    if (!['User', 'Group', 'ServiceAccount'].includes(s?.kind)) errs.push(notSupported(`${p}.kind`, s?.kind ?? '', ['ServiceAccount', 'User', 'Group']));
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
    const subjects: any[] = o.subjects ?? [];
    const of = (k: string, f: (s: any) => string): string => subjects.filter((s) => s.kind === k).map(f).join(', ');
    return [o.metadata.name, `${o.roleRef?.kind}/${o.roleRef?.name}`, age(o.metadata.creationTimestamp, now), of('User', (s) => s.name), of('Group', (s) => s.name), of('ServiceAccount', (s) => `${s.namespace ?? ''}/${s.name}`)];
  },
};

const rbac = 'rbac.authorization.k8s.io';
const rbacVerbs = ['create', 'delete', 'deletecollection', 'get', 'list', 'patch', 'update', 'watch'];

export const roles = defineKind({ group: rbac, resource: 'roles', kind: 'Role', namespaced: true, nameRule: 'path-segment', verbs: rbacVerbs, fields: ['rules:list'], table: createdAtTable, strategy: { validateCreate: (o) => validateRules(o.rules, false), validateUpdate: (o) => validateRules(o.rules, false) } });
export const clusterRoles = defineKind({ group: rbac, resource: 'clusterroles', kind: 'ClusterRole', namespaced: false, nameRule: 'path-segment', verbs: rbacVerbs, fields: ['rules:list', 'aggregationRule'], table: createdAtTable, strategy: { validateCreate: (o) => validateRules(o.rules, true), validateUpdate: (o) => validateRules(o.rules, true) } });
export const roleBindings = defineKind({ group: rbac, resource: 'rolebindings', kind: 'RoleBinding', namespaced: true, nameRule: 'path-segment', verbs: rbacVerbs, fields: ['roleRef', 'subjects:list'], table: bindingTable, strategy: { validateCreate: (o) => validateBinding(o, false), validateUpdate: (o, old) => [...validateBinding(o, false), ...roleRefImmutable(o, old)] } });
export const clusterRoleBindings = defineKind({ group: rbac, resource: 'clusterrolebindings', kind: 'ClusterRoleBinding', namespaced: false, nameRule: 'path-segment', verbs: rbacVerbs, fields: ['roleRef', 'subjects:list'], table: bindingTable, strategy: { validateCreate: (o) => validateBinding(o, true), validateUpdate: (o, old) => [...validateBinding(o, true), ...roleRefImmutable(o, old)] } });

/** v1 Services, stored only (no proxying): the cluster IP in 10.96.0.0/16 is derived from the (seeded) uid. */
function clusterIpFor(uid: string): string {
  const hex = uid.replace(/-/g, '');
  return `10.96.${parseInt(hex.slice(0, 2), 16)}.${(parseInt(hex.slice(2, 4), 16) % 254) + 1}`;
}

function validateService(o: KubeObject): FieldError[] {
  const errs: FieldError[] = [];
  const type = o.spec?.type ?? 'ClusterIP';
  const types = ['ClusterIP', 'NodePort', 'LoadBalancer', 'ExternalName'];
  if (!types.includes(type)) errs.push(notSupported('spec.type', type, types));
  const ports: any[] = o.spec?.ports ?? [];
  if (type !== 'ExternalName' && ports.length === 0 && o.spec?.clusterIP !== 'None') errs.push(required('spec.ports'));
  ports.forEach((p, i) => {
    if (typeof p?.port !== 'number' || p.port < 1 || p.port > 65535) errs.push(invalid(`spec.ports[${i}].port`, p?.port ?? 0, 'must be between 1 and 65535, inclusive'));
    if (ports.length > 1 && !p?.name) errs.push(required(`spec.ports[${i}].name`));
  });
  return errs;
}

export const services = defineKind({
  resource: 'services',
  kind: 'Service',
  namespaced: true,
  shortNames: ['svc'],
  categories: ['all'],
  statusSubresource: true,
  returnsDeletedObject: true,
  nameRule: 'label',
  verbs: ['create', 'delete', 'deletecollection', 'get', 'list', 'patch', 'update', 'watch'],
  fields: ['spec', 'status'],
  table: {
    columns: [
      nameColumn,
      column('Type', 'string', 'The type of service.'),
      column('Cluster-IP', 'string', 'The cluster IP of the service.'),
      column('External-IP', 'string', 'The external IP of the service.'),
      column('Port(s)', 'string', 'The ports of the service.'),
      ageColumn,
      column('Selector', 'string', 'The selector of the service.', 1),
    ],
    cells: (o, now) => [
      o.metadata.name,
      o.spec?.type ?? 'ClusterIP',
      o.spec?.clusterIP ?? '<none>',
      '<none>',
      (o.spec?.ports ?? []).map((p: any) => `${p.port}/${p.protocol ?? 'TCP'}`).join(',') || '<none>',
      age(o.metadata.creationTimestamp, now),
      Object.entries(o.spec?.selector ?? {}).map(([k, v]) => `${k}=${v}`).join(',') || '<none>',
    ],
  },
  strategy: {
    prepareForCreate(o) {
      const spec = (o.spec ??= {});
      spec.type ??= 'ClusterIP';
      spec.sessionAffinity ??= 'None';
      if (spec.type !== 'ExternalName') {
        spec.clusterIP ||= clusterIpFor(o.metadata.uid);
        spec.clusterIPs ??= [spec.clusterIP];
        spec.ipFamilies ??= ['IPv4'];
        spec.ipFamilyPolicy ??= 'SingleStack';
        spec.internalTrafficPolicy ??= 'Cluster';
      }
      for (const p of spec.ports ?? []) {
        p.protocol ??= 'TCP';
        p.targetPort ??= p.port;
      }
      o.status = { loadBalancer: {} };
    },
    prepareForUpdate(o, old) {
      const spec = (o.spec ??= {});
      spec.clusterIP ??= old.spec?.clusterIP;
      spec.clusterIPs ??= old.spec?.clusterIPs;
      for (const p of spec.ports ?? []) {
        p.protocol ??= 'TCP';
        p.targetPort ??= p.port;
      }
    },
    validateCreate: validateService,
    validateUpdate(o, old) {
      const errs = validateService(o);
      if (old.spec?.clusterIP && o.spec?.clusterIP !== old.spec.clusterIP) errs.push(invalid('spec.clusterIPs[0]', o.spec?.clusterIP ?? '', 'may not change once set'));
      return errs;
    },
  },
});

export const otherKinds: ResourceType[] = [services, leases, roles, clusterRoles, roleBindings, clusterRoleBindings, deployments];
