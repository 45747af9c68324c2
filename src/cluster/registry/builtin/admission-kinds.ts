/**
 * admissionregistration.k8s.io/v1 Mutating- and ValidatingWebhookConfiguration: stored with the
 * API server's defaults and validation; src/cluster/admission calls the webhooks they describe.
 */
import type { MutatingWebhook, ValidatingWebhookConfiguration } from 'kubernetes-types/admissionregistration/v1.js';
import { type FieldError, invalid, notSupported, required } from '../../errors/field-errors.js';
import type { KubeObject } from '../../store/object-store.js';
import { asStored } from '../../store/kube-object.js';
import { defineKind } from '../define-kind.js';
import { dns1123SubdomainErrors } from '../object-meta.js';
import type { ResourceType } from '../resource-type.js';
import { age, ageColumn, column, nameColumn } from '../table-format.js';

function defaultWebhooks(o: KubeObject, mutating: boolean): void {
  for (const w of Array.isArray(o.webhooks) ? o.webhooks : []) {
    if (!w || typeof w !== 'object') continue;
    w.failurePolicy ??= 'Fail';
    w.matchPolicy ??= 'Equivalent';
    w.namespaceSelector ??= {};
    w.objectSelector ??= {};
    w.timeoutSeconds ??= 10;
    if (mutating) w.reinvocationPolicy ??= 'Never';
    for (const r of w.rules ?? []) r.scope ??= '*';
    if (w.clientConfig?.service) w.clientConfig.service.port ??= 443;
  }
}

function validateWebhooks(o: KubeObject, mutating: boolean): FieldError[] {
  const errs: FieldError[] = [];
  const seen = new Set<string>();
  (Array.isArray(o.webhooks) ? o.webhooks : []).forEach((w: MutatingWebhook | undefined, i: number) => {
    const p = `webhooks[${i}]`;
    if (!w?.name) errs.push(required(`${p}.name`));
    else {
      for (const m of dns1123SubdomainErrors(w.name)) errs.push(invalid(`${p}.name`, w.name, m));
      if (String(w.name).split('.').length < 3) errs.push(invalid(`${p}.name`, w.name, 'should be a domain with at least three segments separated by dots'));
      if (seen.has(w.name)) errs.push({ type: 'FieldValueDuplicate', field: `${p}.name`, value: w.name });
      seen.add(w.name);
    }
    if (!Array.isArray(w?.admissionReviewVersions) || w.admissionReviewVersions.length === 0) {
      errs.push(required(`${p}.admissionReviewVersions`, 'must specify one of v1, v1beta1'));
    }
    if (!['None', 'NoneOnDryRun'].includes(w?.sideEffects as string)) errs.push(notSupported(`${p}.sideEffects`, w?.sideEffects ?? '', ['None', 'NoneOnDryRun']));
    if (!['Fail', 'Ignore'].includes(w?.failurePolicy as string)) errs.push(notSupported(`${p}.failurePolicy`, w?.failurePolicy ?? '', ['Fail', 'Ignore']));
    if (typeof w?.timeoutSeconds === 'number' && (w.timeoutSeconds < 1 || w.timeoutSeconds > 30)) {
      errs.push(invalid(`${p}.timeoutSeconds`, w.timeoutSeconds, 'the timeout value must be between 1 and 30 seconds'));
    }
    const cc = w?.clientConfig ?? {};
    if (cc.url && cc.service) errs.push(required(`${p}.clientConfig`, 'exactly one of url or service is required'));
    if (!cc.url && !cc.service) errs.push(required(`${p}.clientConfig`, 'exactly one of url or service is required'));
    if (cc.url && !String(cc.url).startsWith('https://')) errs.push(invalid(`${p}.clientConfig.url`, cc.url, "'https' is the only allowed URL scheme"));
    if (mutating && w?.reinvocationPolicy && !['Never', 'IfNeeded'].includes(w.reinvocationPolicy)) {
      errs.push(notSupported(`${p}.reinvocationPolicy`, w.reinvocationPolicy, ['Never', 'IfNeeded']));
    }
  });
  return errs;
}

function webhookKind(kind: string, resource: string, mutating: boolean): ResourceType {
  return defineKind({
    group: 'admissionregistration.k8s.io',
    resource,
    kind,
    namespaced: false,
    fields: ['webhooks:list'],
    table: {
      columns: [nameColumn, column('Webhooks', 'integer', 'Webhooks indicates the number of webhooks.'), ageColumn],
      cells: (o, now) => [o.metadata.name, (asStored<ValidatingWebhookConfiguration>(o).webhooks ?? []).length, age(o.metadata.creationTimestamp, now)],
    },
    strategy: {
      prepareForCreate: (o) => defaultWebhooks(o, mutating),
      prepareForUpdate: (o) => defaultWebhooks(o, mutating),
      validateCreate: (o) => validateWebhooks(o, mutating),
      validateUpdate: (o) => validateWebhooks(o, mutating),
    },
  });
}

export const admissionKinds: ResourceType[] = [
  webhookKind('MutatingWebhookConfiguration', 'mutatingwebhookconfigurations', true),
  webhookKind('ValidatingWebhookConfiguration', 'validatingwebhookconfigurations', false),
];
