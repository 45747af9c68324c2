/**
 * Admission webhooks around the write path of HTTP requests: the object the write would store is
 * computed with a dry run, sent to every matching mutating webhook in turn (their JSON patches
 * applied), then the final object to every validating webhook; only then is the write done for
 * real. Writes made in-process by the built-in controllers do not call webhooks.
 */
import type { MutatingWebhook } from 'kubernetes-types/admissionregistration/v1.js';
import type { Service } from 'kubernetes-types/core/v1.js';
import { randomUUID } from 'node:crypto';
import type { UserInfo } from '../http/authentication.js';
import { applyJsonPatch } from '../patch/json-patch.js';
import { ApiError } from '../errors/status-errors.js';
import type { ObjectOperations, WriteOptions, WriteResult } from '../registry/object-operations.js';
import type { ResourceType } from '../registry/resource-type.js';
import { deepEqual } from '../registry/system-metadata.js';
import { asStored } from '../store/kube-object.js';
import type { KubeObject, ObjectStore } from '../store/object-store.js';
import { type AdmissionReview, type ServiceResolver, callWebhook, deniedError } from './webhook-caller.js';
import { processBackend } from '../controllers/service-backends.js';
import { type AdmissionAttributes, type AdmissionOperation, anyWebhookConfigured, matchingWebhooks } from './webhook-matching.js';
import { copyObject } from '../store/copy-object.js';

export interface AdmissionRequestContext {
  rt: ResourceType;
  namespace?: string;
  name?: string;
  subresource?: string;
  user: UserInfo;
  dryRun: boolean;
}

const optionsKind: Record<AdmissionOperation, string> = { CREATE: 'CreateOptions', UPDATE: 'UpdateOptions', DELETE: 'DeleteOptions' };

/** The other served versions of a resource, and conversion of an object between them (custom resources). */
export interface ResourceVersions {
  equivalents(rt: ResourceType): string[];
  convert(rt: ResourceType, object: KubeObject, version: string): Promise<KubeObject>;
}

export class WebhookAdmission {
  /**
   * Where `clientConfig.service` points: a ready pod the Service selects that runs as a process (its
   * pod IP and targetPort, the certificate verified for `<service>.<namespace>.svc` as kube-apiserver
   * does); else the Service's matching port's targetPort on 127.0.0.1 (a manager run locally listens
   * there, e.g. kubebuilder's 9443).
   */
  resolveService: ServiceResolver = (namespace, name, port) => {
    const backend = processBackend(this.store, namespace, name, port);
    if (backend) return { url: `https://${backend.ip}:${backend.port}`, serverName: backend.serverName };
    const svc = this.store.peek('services', namespace, name);
    const entry = ((svc && asStored<Service>(svc).spec?.ports) ?? []).find((p: { port?: number }) => p.port === port);
    const target = entry?.targetPort ?? entry?.port;
    return typeof target === 'number' ? `https://127.0.0.1:${target}` : undefined;
  };

  /** Set by the HTTP layer: lets webhooks registered for another version of a resource see it in theirs. */
  versions: ResourceVersions | undefined;

  constructor(private readonly store: ObjectStore) {}

  private matching(kind: 'mutating' | 'validating', c: AdmissionRequestContext, a: AdmissionAttributes) {
    return matchingWebhooks(this.store, kind, a, this.versions?.equivalents(c.rt) ?? []);
  }

  /** An object as a webhook registered for `version` sees it. */
  private async inVersion(c: AdmissionRequestContext, object: KubeObject | undefined, version: string | undefined): Promise<KubeObject | undefined> {
    if (!object || !version || !this.versions) return object;
    return this.versions.convert(c.rt, object, version);
  }

  private attributes(op: AdmissionOperation, c: AdmissionRequestContext, object?: KubeObject, old?: KubeObject): AdmissionAttributes {
    return {
      operation: op,
      group: c.rt.group,
      version: c.rt.version,
      resource: c.rt.resource,
      ...(c.subresource ? { subresource: c.subresource } : {}),
      ...(c.namespace ? { namespace: c.namespace } : {}),
      namespaced: c.rt.namespaced,
      ...(object?.metadata?.labels ? { objectLabels: object.metadata.labels } : {}),
      ...(old?.metadata?.labels ? { oldObjectLabels: old.metadata.labels } : {}),
    };
  }

  /** Whether any webhook configuration is stored at all (none: nothing applies, whatever the request). */
  configured(): boolean {
    return anyWebhookConfigured(this.store);
  }

  /** Whether any webhook could apply (cheap check before dry runs). */
  applies(op: AdmissionOperation, c: AdmissionRequestContext, object?: KubeObject, old?: KubeObject): boolean {
    const a = this.attributes(op, c, object, old);
    return this.matching('mutating', c, a).length > 0 || this.matching('validating', c, a).length > 0;
  }

  private review(op: AdmissionOperation, c: AdmissionRequestContext, object: KubeObject | undefined, old: KubeObject | undefined, version = c.rt.version): AdmissionReview {
    const requestKind = { group: c.rt.group, version: c.rt.version, kind: c.rt.kind };
    const requestResource = { group: c.rt.group, version: c.rt.version, resource: c.rt.resource };
    return {
      apiVersion: 'admission.k8s.io/v1',
      kind: 'AdmissionReview',
      request: {
        uid: randomUUID(),
        kind: { ...requestKind, version },
        resource: { ...requestResource, version },
        ...(c.subresource ? { subResource: c.subresource, requestSubResource: c.subresource } : {}),
        requestKind,
        requestResource,
        name: c.name ?? object?.metadata?.name ?? '',
        ...(c.namespace ? { namespace: c.namespace } : {}),
        operation: op,
        userInfo: { username: c.user.username, groups: c.user.groups },
        object: object ?? null,
        oldObject: old ?? null,
        dryRun: c.dryRun,
        options: { apiVersion: 'meta.k8s.io/v1', kind: optionsKind[op] },
      },
    };
  }

  /** Runs the mutating webhooks in order; returns the (possibly patched) object and warnings. */
  async mutate(op: AdmissionOperation, c: AdmissionRequestContext, object: KubeObject | undefined, old: KubeObject | undefined): Promise<{ object: KubeObject | undefined; warnings: string[] }> {
    const warnings: string[] = [];
    let current = object;
    for (const m of this.matching('mutating', c, this.attributes(op, c, current, old))) {
      this.checkDryRun(m.webhook, c);
      const seen = await this.inVersion(c, current, m.equivalentVersion);
      const response = await callWebhook(m, this.review(op, c, seen, await this.inVersion(c, old, m.equivalentVersion), m.equivalentVersion), this.resolveService);
      if (!response) continue;
      warnings.push(...(response.warnings ?? []));
      if (!response.allowed) throw deniedError(m.webhook.name, response);
      if (response.patch && seen) {
        if (response.patchType && response.patchType !== 'JSONPatch') {
          throw new ApiError(500, 'InternalError', `Internal error occurred: admission webhook "${m.webhook.name}" returned an unsupported patchType ${response.patchType}`);
        }
        try {
          current = applyJsonPatch(seen, JSON.parse(Buffer.from(response.patch, 'base64').toString('utf8'))) as KubeObject;
        } catch (err) {
          throw new ApiError(500, 'InternalError', `Internal error occurred: admission webhook "${m.webhook.name}" returned a patch that does not apply: ${(err as Error).message}`);
        }
        // the patched object goes on in the request's version
        if (m.equivalentVersion) current = await this.inVersion(c, current, c.rt.version);
      }
    }
    return { object: current, warnings };
  }

  /** Runs the validating webhooks; throws the denial of the first that refuses. */
  async validate(op: AdmissionOperation, c: AdmissionRequestContext, object: KubeObject | undefined, old: KubeObject | undefined): Promise<string[]> {
    const warnings: string[] = [];
    for (const m of this.matching('validating', c, this.attributes(op, c, object, old))) {
      this.checkDryRun(m.webhook, c);
      const review = this.review(op, c, await this.inVersion(c, object, m.equivalentVersion), await this.inVersion(c, old, m.equivalentVersion), m.equivalentVersion);
      const response = await callWebhook(m, review, this.resolveService);
      if (!response) continue;
      warnings.push(...(response.warnings ?? []));
      if (!response.allowed) throw deniedError(m.webhook.name, response);
    }
    return warnings;
  }

  private checkDryRun(webhook: MutatingWebhook, c: AdmissionRequestContext): void {
    if (c.dryRun && webhook.sideEffects !== 'None' && webhook.sideEffects !== 'NoneOnDryRun') {
      throw new ApiError(400, 'BadRequest', `admission webhook "${webhook.name}" has side effects and does not support dry run`);
    }
  }
}

/** The object a dry run returned, as a request body again (server-set fields dropped). */
function asRequestBody(object: KubeObject): KubeObject {
  const copy = copyObject(object);
  for (const f of ['uid', 'creationTimestamp', 'resourceVersion', 'generation', 'managedFields', 'deletionTimestamp', 'deletionGracePeriodSeconds'] as const) delete copy.metadata[f];
  return copy;
}

/**
 * A write under admission: `dry` computes what would be stored, `real(body?)` performs it (with the
 * mutated object as full body when a webhook changed something).
 */
export async function admittedWrite(
  admission: WebhookAdmission,
  op: 'CREATE' | 'UPDATE',
  c: AdmissionRequestContext,
  ops: ObjectOperations,
  candidate: KubeObject | undefined,
  old: KubeObject | undefined,
  dry: () => WriteResult,
  real: (mutatedBody: KubeObject | undefined) => WriteResult | Promise<WriteResult>,
): Promise<WriteResult> {
  if (!admission.applies(op, c, candidate, old)) return real(undefined);
  const preview = dry().object;
  const mutated = await admission.mutate(op, c, preview, old);
  let body: KubeObject | undefined;
  if (mutated.object && !deepEqual(mutated.object, preview)) {
    body = op === 'CREATE' ? asRequestBody(mutated.object) : { ...mutated.object, metadata: { ...mutated.object.metadata, resourceVersion: old?.metadata.resourceVersion } };
  }
  const final = body ? (op === 'CREATE' ? ops.create(c.rt, c.namespace, body, { dryRun: true, fieldValidation: 'Ignore' }).object : preview) : preview;
  const warnings = [...mutated.warnings, ...(await admission.validate(op, c, body && op === 'UPDATE' ? body : final, old))];
  const result = await real(body);
  return { ...result, warnings: [...result.warnings, ...warnings] };
}

export type { WriteOptions };
