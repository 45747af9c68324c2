/**
 * The ValidatingAdmissionPolicy admission plugin (1.32): for every ValidatingAdmissionPolicyBinding whose
 * policy's matchConstraints (and the binding's matchResources) match the request and whose
 * matchConditions hold, the policy's variables and validations are evaluated in CEL with `object`,
 * `oldObject`, `request`, `params` (from the binding's paramRef: by name or selector, once per
 * parameter), `namespaceObject` and `variables`. A failed validation acts per the binding's
 * validationActions: Deny refuses ("ValidatingAdmissionPolicy 'p' with binding 'b' denied request: …",
 * status code from the validation's reason: Invalid 422, Forbidden 403, Unauthorized 401,
 * RequestEntityTooLarge 413), Warn adds a Warning header, Audit is recorded nowhere (no audit log;
 * auditAnnotations are evaluated only for their errors). Errors (an expression failing, a parameter
 * missing) follow the policy's failurePolicy. `authorizer` asks the cluster's RBAC (authorizer-library.ts).
 */
import type { LabelSelector } from 'kubernetes-types/meta/v1.js';
import type { MatchResources, NamedRuleWithOperations, ValidatingAdmissionPolicy, ValidatingAdmissionPolicyBinding, Validation } from 'kubernetes-types/admissionregistration/v1.js';
import { ApiError, qualified } from '../../errors/status-errors.js';
import { labelSelectorToString, matchesLabels, parseLabelSelector } from '../../selectors/label-selector.js';
import { asStored } from '../../store/kube-object.js';
import type { KubeObject, Stored } from '../../store/object-store.js';
import type { AdmissionPlugin, AdmissionRequest, AdmissionServices } from '../admission-chain.js';
import { compileAdmissionExpression, evaluationError, toAdmissionValue } from '../admission-cel.js';
import { Authorizer } from '../authorizer-library.js';

const policyBucket = 'validatingadmissionpolicies.admissionregistration.k8s.io';
const bindingBucket = 'validatingadmissionpolicybindings.admissionregistration.k8s.io';

const reasonCodes: Record<string, number> = { Unauthorized: 401, Forbidden: 403, Invalid: 422, RequestEntityTooLarge: 413 };

const listMatches = (items: unknown, value: string): boolean => Array.isArray(items) && items.some((v) => v === '*' || v === value);

/**
 * Whether a rule matches; with matchPolicy Equivalent a request through another served version of the
 * same group/resource matches a rule naming one of its versions (`servedVersions`).
 */
/** A policy rule: kubernetes-types' NamedRuleWithOperations leaves out the fields of the Rule it embeds in Go. */
type PolicyRule = NamedRuleWithOperations & { resources?: string[]; scope?: string };

function ruleMatches(rule: PolicyRule, request: AdmissionRequest, servedVersions: string[] = []): boolean {
  const { rt } = request;
  if (!listMatches(rule.operations, request.operation)) return false;
  if (!listMatches(rule.apiGroups, rt.group)) return false;
  if (!listMatches(rule.apiVersions, rt.version) && !servedVersions.some((v) => listMatches(rule.apiVersions, v))) return false;
  const target = request.subresource ? `${rt.resource}/${request.subresource}` : rt.resource;
  const resources: string[] = Array.isArray(rule.resources) ? rule.resources : [];
  const resourceOk = resources.some(
    (r) => r === '*/*' || r === target || (r === '*' && !request.subresource) || (request.subresource && r === `*/${request.subresource}`) || (request.subresource && r === `${rt.resource}/*`),
  );
  if (!resourceOk) return false;
  const names: string[] = Array.isArray(rule.resourceNames) ? rule.resourceNames : [];
  if (names.length && !names.includes(request.name)) return false;
  const scope = rule.scope ?? '*';
  return scope === '*' || (scope === 'Namespaced' ? rt.namespaced : !rt.namespaced);
}

function selectorMatches(selector: LabelSelector | undefined, labels: Record<string, string> | undefined): boolean {
  if (!selector || Object.keys(selector).length === 0) return true;
  return matchesLabels(parseLabelSelector(labelSelectorToString(selector as never)), labels ?? {});
}

/**
 * What one validation decided: pass, fail (its reason), an evaluation error (under failurePolicy Fail it
 * acts through the binding's validationActions, as a failure does), or a configuration error (a parameter
 * or paramKind missing: under Fail it always denies).
 */
type Decision = { kind: 'pass' } | { kind: 'fail'; message: string; reason: string } | { kind: 'error'; message: string } | { kind: 'config'; message: string };

export class ValidatingAdmissionPolicyPlugin implements AdmissionPlugin {
  constructor(private readonly services: AdmissionServices) {}

  private namespaceOf(request: AdmissionRequest): KubeObject | undefined {
    return request.namespace ? (this.services.store.peek('namespaces', undefined, request.namespace) as KubeObject | undefined) : undefined;
  }

  private matchResources(m: MatchResources | undefined, request: AdmissionRequest): boolean {
    if (!m) return true;
    const equivalent = m.matchPolicy !== 'Exact' ? this.services.catalog.versionsOf(request.rt.group, request.rt.resource).map((t) => t.version) : [];
    if (Array.isArray(m.resourceRules) && m.resourceRules.length && !m.resourceRules.some((r) => ruleMatches(r, request, equivalent))) return false;
    if (Array.isArray(m.excludeResourceRules) && m.excludeResourceRules.some((r) => ruleMatches(r, request, equivalent))) return false;
    if (request.rt.namespaced && request.namespace) {
      if (!selectorMatches(m.namespaceSelector, this.namespaceOf(request)?.metadata.labels)) return false;
    } else if (request.rt.group === '' && request.rt.resource === 'namespaces') {
      if (!selectorMatches(m.namespaceSelector, (request.object ?? request.oldObject)?.metadata.labels)) return false;
    }
    return selectorMatches(m.objectSelector, request.object?.metadata.labels) || selectorMatches(m.objectSelector, request.oldObject?.metadata.labels);
  }

  validate(request: AdmissionRequest): string[] {
    const bindings = this.services.store.listShared(bindingBucket);
    if (bindings.length === 0) return [];
    const warnings: string[] = [];
    for (const storedBinding of bindings) {
      const binding = asStored<ValidatingAdmissionPolicyBinding>(storedBinding);
      const storedPolicy = this.services.store.peek(policyBucket, undefined, binding.spec?.policyName ?? '') as KubeObject | undefined;
      if (!storedPolicy) continue;
      const policy = asStored<ValidatingAdmissionPolicy>(storedPolicy);
      if (!this.matchResources(policy.spec?.matchConstraints, request)) continue;
      if (binding.spec?.matchResources && !this.matchResources(binding.spec.matchResources, request)) continue;
      const actions: string[] = binding.spec?.validationActions ?? [];
      for (const decision of this.evaluate(policy, binding, request)) {
        if (decision.kind === 'pass') continue;
        const failurePolicy = policy.spec?.failurePolicy ?? 'Fail';
        if ((decision.kind === 'error' || decision.kind === 'config') && failurePolicy === 'Ignore') continue;
        const message = decision.message;
        const reason = decision.kind === 'fail' ? decision.reason : 'Invalid';
        if (decision.kind === 'config' || actions.includes('Deny')) throw this.denied(request, policy, binding, message, reason);
        if (actions.includes('Warn')) warnings.push(`Validation failed for ValidatingAdmissionPolicy '${policy.metadata.name}' with binding '${binding.metadata.name}': ${message}`);
      }
    }
    return warnings;
  }

  private denied(request: AdmissionRequest, policy: Stored<ValidatingAdmissionPolicy>, binding: Stored<ValidatingAdmissionPolicyBinding>, message: string, reason: string): ApiError {
    const text = `ValidatingAdmissionPolicy '${policy.metadata.name}' with binding '${binding.metadata.name}' denied request: ${message}`;
    const qr = { group: request.rt.group, resource: request.rt.resource };
    const name = request.name || 'Unknown';
    return new ApiError(reasonCodes[reason] ?? 422, reason, `${qualified(qr)} "${name}" is forbidden: ${text}`, { name, group: qr.group, kind: qr.resource, causes: [{ message: text }] });
  }

  /** The parameters the binding selects (undefined entries: no paramKind), or a configuration error. */
  private params(policy: Stored<ValidatingAdmissionPolicy>, binding: Stored<ValidatingAdmissionPolicyBinding>, request: AdmissionRequest): Array<KubeObject | null> | { error: string } | 'allow' {
    const paramKind = policy.spec?.paramKind;
    if (!paramKind) return [null];
    const ref = binding.spec?.paramRef;
    if (!ref) return { error: `failed to configure binding: paramRef is required when paramKind is set (policy '${policy.metadata.name}')` };
    const [group, version] = String(paramKind.apiVersion).includes('/') ? String(paramKind.apiVersion).split('/') : ['', String(paramKind.apiVersion)];
    const rt = this.services.catalog.all().find((t) => t.group === group && t.version === version && t.kind === paramKind.kind);
    if (!rt) return { error: `failed to configure policy: failed to find resource referenced by paramKind: '${paramKind.apiVersion}/${paramKind.kind}'` };
    let namespace: string | undefined;
    if (rt.namespaced) {
      namespace = ref.namespace || request.namespace;
      if (!namespace) return { error: 'failed to configure binding: cannot use namespaced paramRef in policy binding that matches cluster-scoped resources' };
    }
    let found: KubeObject[];
    if (ref.name) {
      const one = this.services.store.peek(rt.bucket, namespace, ref.name) as KubeObject | undefined;
      found = one ? [one] : [];
    } else {
      found = this.services.store.listShared(rt.bucket, namespace).filter((o) => selectorMatches(ref.selector ?? {}, o.metadata.labels));
    }
    if (found.length === 0) {
      if (ref.parameterNotFoundAction === 'Deny') return { error: 'failed to configure binding: no params found for policy binding with `Deny` parameterNotFoundAction' };
      return 'allow';
    }
    return found;
  }

  private evaluate(policy: Stored<ValidatingAdmissionPolicy>, binding: Stored<ValidatingAdmissionPolicyBinding>, request: AdmissionRequest): Decision[] {
    const params = this.params(policy, binding, request);
    if (params === 'allow') return [];
    if ('error' in params) return [{ kind: 'config', message: params.error }];
    const base = {
      object: toAdmissionValue(request.object ?? null),
      oldObject: toAdmissionValue(request.oldObject ?? null),
      request: toAdmissionValue(requestVariable(request)),
      namespaceObject: toAdmissionValue(this.namespaceOf(request) ?? null),
      authorizer: new Authorizer(request.user ?? { username: '', groups: [] }, this.services.authorize ?? (() => true), {
        group: request.rt.group,
        version: request.rt.version,
        resource: request.rt.resource,
        subresource: request.subresource ?? '',
        namespace: request.namespace ?? '',
        name: request.name,
      }),
    };
    const decisions: Decision[] = [];
    for (const param of params) {
      const context: Record<string, unknown> = { ...base, params: toAdmissionValue(param), variables: {} };
      const matched = this.matchConditions(policy, context);
      if (matched !== true) {
        if (matched !== false) decisions.push(matched);
        continue;
      }
      const variables = context.variables as Record<string, unknown>;
      const variableErrors = new Map<string, string>();
      for (const v of policy.spec?.variables ?? []) {
        const compiled = compileAdmissionExpression(v.expression);
        if (!compiled.ok) {
          variableErrors.set(v.name, compiled.issue);
          continue;
        }
        try {
          variables[v.name] = compiled.program(context);
        } catch (err) {
          variableErrors.set(v.name, evaluationError(err));
        }
      }
      for (const validation of policy.spec?.validations ?? []) decisions.push(this.validation(validation, context, variableErrors));
      decisions.push(...auditAnnotationErrors(policy, context));
    }
    return decisions;
  }

  /** true when every matchCondition holds, false when one does not, an error decision when one fails. */
  private matchConditions(policy: Stored<ValidatingAdmissionPolicy>, context: Record<string, unknown>): boolean | Decision {
    for (const condition of policy.spec?.matchConditions ?? []) {
      const compiled = compileAdmissionExpression(condition.expression);
      if (!compiled.ok) return { kind: 'error', message: `compilation failed: ${compiled.issue}` };
      try {
        if (compiled.program(context) !== true) return false;
      } catch (err) {
        return { kind: 'error', message: `failed to evaluate matchCondition '${condition.name}': ${evaluationError(err)}` };
      }
    }
    return true;
  }

  private validation(v: Validation, context: Record<string, unknown>, variableErrors: Map<string, string>): Decision {
    const compiled = compileAdmissionExpression(v.expression);
    if (!compiled.ok) return { kind: 'error', message: `compilation error: ${compiled.issue}` };
    let result: unknown;
    try {
      result = compiled.program(context);
    } catch (err) {
      const missing = [...variableErrors.keys()].find((name) => String(v.expression).includes(`variables.${name}`));
      const why = missing ? `composited variable "${missing}" fails to evaluate: ${variableErrors.get(missing)}` : evaluationError(err);
      return { kind: 'error', message: `expression '${v.expression}' resulted in error: ${why}` };
    }
    if (result === true) return { kind: 'pass' };
    if (result !== false) return { kind: 'error', message: `expression '${v.expression}' resulted in error: validation failed due to: expression must evaluate to bool` };
    return { kind: 'fail', message: failureMessage(v, context), reason: v.reason ?? 'Invalid' };
  }
}

/**
 * auditAnnotations: their values are recorded nowhere (no audit log), but a valueExpression that fails
 * denies under failurePolicy Fail whatever the binding's actions, as 1.32 does.
 */
function auditAnnotationErrors(policy: Stored<ValidatingAdmissionPolicy>, context: Record<string, unknown>): Decision[] {
  const out: Decision[] = [];
  for (const annotation of policy.spec?.auditAnnotations ?? []) {
    const compiled = compileAdmissionExpression(annotation.valueExpression);
    if (!compiled.ok) continue;
    try {
      const value = compiled.program(context);
      if (value !== null && typeof value !== 'string') {
        out.push({ kind: 'config', message: `valueExpression '${annotation.valueExpression}' resulted in unsupported return type: ${typeof value === 'bigint' ? 'int' : typeof value}. Return type must be either string or null.` });
      }
    } catch (err) {
      out.push({ kind: 'config', message: `expression '${annotation.valueExpression}' resulted in error: ${evaluationError(err)}` });
    }
  }
  return out;
}

/** messageExpression's result when it gives a non-empty single-line string, else message, else "failed expression: <expression>". */
function failureMessage(v: Validation, context: Record<string, unknown>): string {
  const fallback = typeof v.message === 'string' && v.message !== '' ? v.message : `failed expression: ${String(v.expression).trim()}`;
  if (typeof v.messageExpression !== 'string' || v.messageExpression === '') return fallback;
  const compiled = compileAdmissionExpression(v.messageExpression);
  if (!compiled.ok) return fallback;
  try {
    const m = compiled.program(context);
    if (typeof m === 'string' && m.trim() !== '' && !m.includes('\n')) return m.trim();
  } catch {
    // an evaluation error of messageExpression falls back to message
  }
  return fallback;
}

/** The `request` variable (admission.k8s.io AdmissionRequest without the objects). */
function requestVariable(request: AdmissionRequest): Record<string, unknown> {
  const { rt } = request;
  const kind = { group: rt.group, version: rt.version, kind: rt.kind };
  const resource = { group: rt.group, version: rt.version, resource: rt.resource };
  return {
    kind,
    resource,
    subResource: request.subresource ?? '',
    requestKind: kind,
    requestResource: resource,
    requestSubResource: request.subresource ?? '',
    name: request.name,
    namespace: request.namespace ?? '',
    operation: request.operation,
    userInfo: { username: request.user?.username ?? '', groups: request.user?.groups ?? [] },
    dryRun: request.dryRun,
    options: { apiVersion: 'meta.k8s.io/v1', kind: request.operation === 'CREATE' ? 'CreateOptions' : request.operation === 'UPDATE' ? 'UpdateOptions' : 'DeleteOptions' },
  };
}
