/**
 * admissionregistration.k8s.io/v1 ValidatingAdmissionPolicy and ValidatingAdmissionPolicyBinding with
 * the 1.32 defaults (failurePolicy Fail, matchPolicy Equivalent, empty selectors, rule scope `*`) and
 * validation (required parts, enums, CEL expressions compiled with the admission variables). The
 * ValidatingAdmissionPolicy admission plugin evaluates them; the policy status controller writes
 * status.observedGeneration and status.typeChecking.
 */
import type { AuditAnnotation, MatchCondition, Validation, ValidatingAdmissionPolicy, ValidatingAdmissionPolicyBinding, Variable } from 'kubernetes-types/admissionregistration/v1.js';
import { type FieldError, duplicate, forbidden, invalid, notSupported, required } from '../../errors/field-errors.js';
import type { KubeObject } from '../../store/object-store.js';
import { asStored } from '../../store/kube-object.js';
import { compileAdmissionExpression } from '../../admission/admission-cel.js';
import { defineKind } from '../define-kind.js';
import { age, ageColumn, column, nameColumn } from '../table-format.js';

const isObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);
/** A decoded list field (absent or not a list: empty), its items read as `T` where they are objects. */
const list = <T = unknown>(v: unknown): Array<T | undefined> => (Array.isArray(v) ? v : []);
/** Whether a decoded field holds one of `values`. */
const isOneOf = (values: readonly string[], v: unknown): boolean => (values as readonly unknown[]).includes(v);

const reasons = ['Unauthorized', 'Forbidden', 'Invalid', 'RequestEntityTooLarge'];
const operations = ['*', 'CREATE', 'UPDATE', 'DELETE', 'CONNECT'];

function defaultMatchResources(m: unknown): void {
  if (!isObject(m)) return;
  m.matchPolicy ??= 'Equivalent';
  m.namespaceSelector ??= {};
  m.objectSelector ??= {};
  for (const r of [...list(m.resourceRules), ...list(m.excludeResourceRules)]) if (isObject(r)) r.scope ??= '*';
}

function defaultPolicy(o: KubeObject): void {
  if (!isObject(o.spec)) return;
  o.spec.failurePolicy ??= 'Fail';
  defaultMatchResources(o.spec.matchConstraints);
}

function defaultBinding(o: KubeObject): void {
  if (!isObject(o.spec)) return;
  defaultMatchResources(o.spec.matchResources);
}

function compileErrors(expression: unknown, path: string): FieldError[] {
  if (typeof expression !== 'string' || expression.trim() === '') return [required(path, 'expression is not specified')];
  const compiled = compileAdmissionExpression(expression);
  return compiled.ok ? [] : [invalid(path, expression, `compilation failed: ${compiled.issue}`)];
}

function validateRules(rules: unknown, path: string): FieldError[] {
  const errs: FieldError[] = [];
  list(rules).forEach((r, i) => {
    const p = `${path}[${i}]`;
    if (!isObject(r)) return;
    if (!list(r.operations).length) errs.push(required(`${p}.operations`));
    list(r.operations).forEach((op, j) => {
      if (!isOneOf(operations, op)) errs.push(notSupported(`${p}.operations[${j}]`, op, operations));
    });
    if (!list(r.apiGroups).length) errs.push(required(`${p}.apiGroups`));
    if (!list(r.apiVersions).length) errs.push(required(`${p}.apiVersions`));
    if (!list(r.resources).length) errs.push(required(`${p}.resources`));
    if (r.scope !== undefined && !isOneOf(['*', 'Cluster', 'Namespaced'], r.scope)) errs.push(notSupported(`${p}.scope`, r.scope, ['*', 'Cluster', 'Namespaced']));
  });
  return errs;
}

function validateMatchResources(m: unknown, path: string, forPolicy: boolean): FieldError[] {
  if (!isObject(m)) return forPolicy ? [required(path)] : [];
  const errs: FieldError[] = [];
  if (forPolicy && !list(m.resourceRules).length) errs.push(required(`${path}.resourceRules`));
  errs.push(...validateRules(m.resourceRules, `${path}.resourceRules`), ...validateRules(m.excludeResourceRules, `${path}.excludeResourceRules`));
  if (!isOneOf(['Exact', 'Equivalent'], m.matchPolicy)) errs.push(notSupported(`${path}.matchPolicy`, m.matchPolicy ?? '', ['Equivalent', 'Exact']));
  return errs;
}

export function validatePolicy(o: KubeObject): FieldError[] {
  const spec: Record<string, unknown> = isObject(o.spec) ? o.spec : {};
  const errs: FieldError[] = [];
  if (!isOneOf(['Fail', 'Ignore'], spec.failurePolicy)) errs.push(notSupported('spec.failurePolicy', spec.failurePolicy ?? '', ['Fail', 'Ignore']));
  if (spec.paramKind !== undefined) {
    if (!isObject(spec.paramKind) || !spec.paramKind.apiVersion) errs.push(required('spec.paramKind.apiVersion'));
    if (!isObject(spec.paramKind) || !spec.paramKind.kind) errs.push(required('spec.paramKind.kind'));
  }
  errs.push(...validateMatchResources(spec.matchConstraints, 'spec.matchConstraints', true));
  if (!list(spec.validations).length && !list(spec.auditAnnotations).length) {
    errs.push(required('spec.validations', 'validations or auditAnnotations must contain at least one item'));
  }
  const names = new Set<string | undefined>();
  list<MatchCondition>(spec.matchConditions).forEach((c, i) => {
    const p = `spec.matchConditions[${i}]`;
    if (!c?.name) errs.push(required(`${p}.name`));
    else if (names.has(c.name)) errs.push(duplicate(`${p}.name`, c.name));
    names.add(c?.name);
    errs.push(...compileErrors(c?.expression, `${p}.expression`));
  });
  const variableNames = new Set<string | undefined>();
  list<Variable>(spec.variables).forEach((v, i) => {
    const p = `spec.variables[${i}]`;
    if (!v?.name) errs.push(required(`${p}.name`));
    else if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(v.name)) errs.push(invalid(`${p}.name`, v.name, 'name is not a valid CEL identifier'));
    else if (variableNames.has(v.name)) errs.push(duplicate(`${p}.name`, v.name));
    variableNames.add(v?.name);
    errs.push(...compileErrors(v?.expression, `${p}.expression`));
  });
  list<Validation>(spec.validations).forEach((v, i) => {
    const p = `spec.validations[${i}]`;
    errs.push(...compileErrors(v?.expression, `${p}.expression`));
    if (typeof v?.messageExpression === 'string' && v.messageExpression.trim() !== '') {
      const compiled = compileAdmissionExpression(v.messageExpression);
      if (!compiled.ok) errs.push(invalid(`${p}.messageExpression`, v.messageExpression, `compilation failed: ${compiled.issue}`));
    }
    if (typeof v?.message === 'string' && v.message.includes('\n')) errs.push(invalid(`${p}.message`, v.message, 'message must not contain line breaks'));
    if (v?.reason !== undefined && !isOneOf(reasons, v.reason)) errs.push(notSupported(`${p}.reason`, v.reason, reasons));
  });
  list<AuditAnnotation>(spec.auditAnnotations).forEach((a, i) => {
    const p = `spec.auditAnnotations[${i}]`;
    if (!a?.key) errs.push(required(`${p}.key`));
    errs.push(...compileErrors(a?.valueExpression, `${p}.valueExpression`));
  });
  return errs;
}

const validationActions = ['Audit', 'Deny', 'Warn'];

export function validateBinding(o: KubeObject): FieldError[] {
  const spec: Record<string, unknown> = isObject(o.spec) ? o.spec : {};
  const errs: FieldError[] = [];
  if (!spec.policyName) errs.push(required('spec.policyName'));
  const actions: unknown[] = list(spec.validationActions);
  const seen = new Set<unknown>();
  actions.forEach((a, i) => {
    if (!validationActions.includes(a as string)) errs.push(notSupported(`spec.validationActions[${i}]`, a, validationActions));
    if (seen.has(a)) errs.push(duplicate(`spec.validationActions[${i}]`, a));
    seen.add(a);
  });
  if (seen.has('Deny') && seen.has('Warn')) {
    errs.push(invalid('spec.validationActions', actions, 'must not contain both Deny and Warn (repeating the same validation failure information in the API response and headers serves no purpose)'));
  }
  if (actions.length === 0) errs.push(required('spec.validationActions', 'at least one validation action is required'));
  if (spec.paramRef !== undefined) {
    const ref: Record<string, unknown> = isObject(spec.paramRef) ? spec.paramRef : {};
    if (ref.name && ref.selector) errs.push(forbidden('spec.paramRef.name', 'name and selector are mutually exclusive'));
    if (!ref.name && !ref.selector) errs.push(required('spec.paramRef', 'one of name or selector must be specified'));
    if (!ref.parameterNotFoundAction) errs.push(required('spec.paramRef.parameterNotFoundAction'));
    else if (!isOneOf(['Allow', 'Deny'], ref.parameterNotFoundAction)) errs.push(notSupported('spec.paramRef.parameterNotFoundAction', ref.parameterNotFoundAction, ['Allow', 'Deny']));
  }
  errs.push(...validateMatchResources(spec.matchResources, 'spec.matchResources', false));
  return errs;
}

export const validatingAdmissionPolicies = defineKind({
  group: 'admissionregistration.k8s.io',
  resource: 'validatingadmissionpolicies',
  kind: 'ValidatingAdmissionPolicy',
  namespaced: false,
  categories: ['api-extensions'],
  statusSubresource: true,
  hasGeneration: true,
  fields: ['spec', 'status'],
  table: {
    columns: [
      nameColumn,
      column('Validations', 'integer', 'Validations indicates the number of validation rules defined in this configuration'),
      column('ParamKind', 'string', 'ParamKind specifies the kind of resources used to parameterize this policy'),
      ageColumn,
    ],
    cells: (o, now) => {
      const policy = asStored<ValidatingAdmissionPolicy>(o);
      const pk = policy.spec?.paramKind;
      return [o.metadata.name, (policy.spec?.validations ?? []).length, pk ? `${pk.apiVersion}/${pk.kind}` : '<unset>', age(o.metadata.creationTimestamp, now)];
    },
  },
  strategy: {
    prepareForCreate(o) {
      delete o.status;
      defaultPolicy(o);
    },
    prepareForUpdate: (o) => defaultPolicy(o),
    validateCreate: validatePolicy,
    validateUpdate: validatePolicy,
  },
});

export const validatingAdmissionPolicyBindings = defineKind({
  group: 'admissionregistration.k8s.io',
  resource: 'validatingadmissionpolicybindings',
  kind: 'ValidatingAdmissionPolicyBinding',
  namespaced: false,
  categories: ['api-extensions'],
  hasGeneration: true,
  fields: ['spec'],
  table: {
    columns: [
      nameColumn,
      column('PolicyName', 'string', 'PolicyName references a ValidatingAdmissionPolicy name which the ValidatingAdmissionPolicyBinding binds to.'),
      column('ParamRef', 'string', 'ParamRef specifies the parameter resource used to configure the admission control policy.'),
      ageColumn,
    ],
    cells: (o, now) => {
      const spec = asStored<ValidatingAdmissionPolicyBinding>(o).spec;
      const ref = spec?.paramRef;
      const refText = ref ? (ref.name ? `${ref.namespace ? `${ref.namespace}/` : ''}${ref.name}` : '*/*') : '<unset>';
      return [o.metadata.name, spec?.policyName ?? '', refText, age(o.metadata.creationTimestamp, now)];
    },
  },
  strategy: {
    prepareForCreate: (o) => defaultBinding(o),
    prepareForUpdate: (o) => defaultBinding(o),
    validateCreate: validateBinding,
    validateUpdate: validateBinding,
  },
});

export const admissionPolicyKinds = [validatingAdmissionPolicies, validatingAdmissionPolicyBindings];
