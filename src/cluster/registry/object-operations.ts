/**
 * The write and read path every request goes through — HTTP handlers and built-in controllers
 * alike: create, update (incl. /status), patch (merge, JSON, strategic, apply), delete with
 * finalizers and propagation, get and list; system metadata, defaulting, validation, optimistic
 * concurrency and no-op detection (embedded-apiserver.md §3).
 */
import type { OwnerReference } from 'kubernetes-types/meta/v1.js';
import type { ClusterClock } from '../clock/virtual-clock.js';
import { type FieldError, invalid, required } from '../errors/field-errors.js';
import {
  ApiError, alreadyExists, badRequest, conflict, forbidden, internalError, invalidObject, notFound, unsupportedMediaType,
} from '../errors/status-errors.js';
import type { Namespace } from 'kubernetes-types/core/v1.js';
import type { KubeObject, ObjectStore, StoredObjectMeta } from '../store/object-store.js';
import { asStored } from '../store/kube-object.js';
import { builtinListSemantics, type ListSemanticsResolver } from '../patch/field-sets.js';
import { JsonPatchError, applyJsonPatch } from '../patch/json-patch.js';
import { recordUpdate, serverSideApply } from '../patch/managed-fields.js';
import { applyMergePatch } from '../patch/merge-patch.js';
import { applyStrategicMergePatch } from '../patch/strategic-merge-patch.js';
import { rejectUndeclaredApplyFields } from '../patch/undeclared-fields.js';
import { validateName, validateObjectMetaFields } from './object-meta.js';
import { type DeleteOptions, DeleteOperations } from './delete-operations.js';
import { type ResourceType, type WriteContext, groupVersion, patchTypesOf } from './resource-type.js';
import { type SeededRandom, generationChanged, isNoOp, rfc3339 } from './system-metadata.js';
import { TypeDecodeError } from '../schemas/typed-decoding.js';
import type { AdmissionChain, AdmissionVerb } from '../admission/admission-chain.js';
import type { UserInfo } from '../http/authentication.js';
import { copyObject } from '../store/copy-object.js';

export type FieldValidation = 'Strict' | 'Warn' | 'Ignore';

export interface WriteOptions {
  dryRun?: boolean;
  fieldManager?: string;
  fieldValidation?: FieldValidation;
  /** `status` (or `scale`, handled by the caller) for subresource writes. */
  subresource?: string;
  /** Server-side apply: take ownership on conflicts. */
  force?: boolean;
  /** Who asks (the built-in admission plugins read it: ValidatingAdmissionPolicy's `request.userInfo`). */
  user?: UserInfo;
  /**
   * The stored object as the request's version sees it, already converted by a conversion webhook:
   * used in place of the store's copy (which may be in another version) by update, patch and apply.
   */
  current?: KubeObject;
}

export interface WriteResult {
  object: KubeObject;
  /** 200 or 201. */
  code: number;
  warnings: string[];
}

export type { DeleteOptions } from './delete-operations.js';

export type PatchType = 'json' | 'merge' | 'strategic' | 'apply';

export const patchContentTypes: Record<string, PatchType> = {
  'application/json-patch+json': 'json',
  'application/merge-patch+json': 'merge',
  'application/strategic-merge-patch+json': 'strategic',
  'application/apply-patch+yaml': 'apply',
};

/** Per-kind list semantics for apply (CRD kinds provide theirs through the strategy hook). */
export type ListSemanticsFor = (rt: ResourceType) => ListSemanticsResolver;

/** Creates with a generated name tried before a taken name is answered with 409 (the generic store's). */
const maxNameGenerationCreateAttempts = 8;

export class ObjectOperations {
  listSemanticsFor: ListSemanticsFor = () => builtinListSemantics;
  /** The built-in admission plugins (LimitRanger, PodSecurity, …) every create and update runs through. */
  admission: AdmissionChain | undefined;
  private readonly deletion: DeleteOperations;

  constructor(
    private readonly store: ObjectStore,
    private readonly clock: ClusterClock,
    private readonly random: SeededRandom,
  ) {
    this.deletion = new DeleteOperations(store, clock, (rt, o) => this.present(rt, o));
  }

  private context(): WriteContext {
    return { now: this.clock.now(), uid: () => this.random.uuid(), stored: (bucket) => this.store.listShared(bucket) };
  }

  private qr(rt: ResourceType): { group: string; resource: string } {
    return { group: rt.group, resource: rt.resource };
  }

  /** Reads one object through `rt` (converted from storage). */
  get(rt: ResourceType, namespace: string | undefined, name: string): KubeObject {
    const stored = this.store.peek(rt.bucket, rt.namespaced ? namespace : undefined, name);
    if (!stored) throw notFound(this.qr(rt), name);
    return this.present(rt, stored as KubeObject);
  }

  /**
   * What `rt` serves for a stored object, sharing the stored (frozen) parts when the kind needs no
   * conversion on read — only for serializing, never for mutating.
   */
  presentShared(rt: ResourceType, stored: KubeObject): KubeObject {
    if (rt.strategy.fromStorage) return this.present(rt, stored);
    const { apiVersion: _a, kind: _k, metadata, ...rest } = stored;
    return { apiVersion: groupVersion(rt), kind: rt.kind, metadata, ...rest } as KubeObject;
  }

  /** Converts a stored object to what `rt` serves. */
  present(rt: ResourceType, stored: KubeObject): KubeObject {
    return this.presentCopy(rt, copyObject(stored));
  }

  /** present() of an object no one else holds (the copy a store write returns): converted in place, not copied again. */
  private presentCopy(rt: ResourceType, copy: KubeObject): KubeObject {
    const object = rt.strategy.fromStorage ? rt.strategy.fromStorage(copy) : copy;
    object.apiVersion = groupVersion(rt);
    object.kind = rt.kind;
    return reorderTypeMeta(object);
  }

  private checkNamespace(rt: ResourceType, namespace: string | undefined, name: string, forCreate: boolean): void {
    if (!rt.namespaced || !namespace) return;
    const ns = this.store.peek('namespaces', undefined, namespace);
    if (!ns) throw notFound({ group: '', resource: 'namespaces' }, namespace);
    if (forCreate && ns.metadata.deletionTimestamp) {
      throw forbidden(
        `${rt.group ? `${rt.resource}.${rt.group}` : rt.resource} "${name}" is forbidden: unable to create new content in namespace ${namespace} because it is being terminated`,
        this.qr(rt),
        name,
        [{ reason: 'NamespaceTerminating', message: `namespace ${namespace} is being terminated`, field: 'metadata.namespace' }],
      );
    }
  }

  /** Decodes type meta and namespace of a request body and drops unknown fields per fieldValidation. */
  private admitBody(rt: ResourceType, body: unknown, namespace: string | undefined, opts: WriteOptions, warnings: string[], forPatch = false): KubeObject {
    if (body === null || typeof body !== 'object' || Array.isArray(body)) throw badRequest(`Object 'Kind' is missing in '${JSON.stringify(body)}'`);
    const object = copyObject(body) as KubeObject;
    if (object.apiVersion !== undefined && object.apiVersion !== groupVersion(rt)) {
      throw badRequest(`the API version in the data (${object.apiVersion}) does not match the expected API version (${groupVersion(rt)})`);
    }
    if (object.kind !== undefined && object.kind !== rt.kind) throw badRequest(`the kind in the data (${object.kind}) does not match the expected kind (${rt.kind})`);
    object.apiVersion = groupVersion(rt);
    object.kind = rt.kind;
    if (object.metadata === undefined || object.metadata === null) object.metadata = {} as StoredObjectMeta;
    if (typeof object.metadata !== 'object' || Array.isArray(object.metadata)) throw badRequest('metadata: expected an object');
    if (rt.namespaced) {
      if (object.metadata.namespace && namespace && object.metadata.namespace !== namespace) {
        throw badRequest('the namespace of the provided object does not match the namespace sent on the request');
      }
      if (namespace) object.metadata.namespace = namespace;
    } else delete object.metadata.namespace;
    const unknown = this.decodeFields(rt, object, body, forPatch);
    if (unknown.length) {
      const text = unknown.map((u) => `unknown field "${u}"`).join(', ');
      if (opts.fieldValidation === 'Strict') {
        if (forPatch) throw patchDecodeError(body, `strict decoding error: ${text}`);
        throw badRequest(cannotBeHandled(rt, `strict decoding error: ${text}`));
      }
      if (opts.fieldValidation !== 'Ignore') warnings.push(...unknown.map((u) => `unknown field "${u}"`));
    }
    return rt.strategy.toStorage ? rt.strategy.toStorage(object) : object;
  }

  /**
   * The kind's decoding: unknown fields are dropped and returned; a value of the wrong JSON type fails
   * whatever fieldValidation says — 400 on POST/PUT, 422 on the `patch` field for patches (as kube-apiserver).
   */
  private decodeFields(rt: ResourceType, object: KubeObject, body: unknown, forPatch: boolean): string[] {
    try {
      return rt.strategy.dropUnknownFields ? rt.strategy.dropUnknownFields(object) : [];
    } catch (err) {
      if (!(err instanceof TypeDecodeError)) throw err;
      if (forPatch) throw patchDecodeError(body, err.message);
      throw badRequest(cannotBeHandled(rt, err.message));
    }
  }

  private validate(rt: ResourceType, object: KubeObject, old: KubeObject | undefined): void {
    const errs: FieldError[] = [];
    if (!old) errs.push(...validateName(object.metadata, rt.nameRule));
    if (rt.namespaced && !object.metadata.namespace) errs.push(required('metadata.namespace'));
    errs.push(...validateObjectMetaFields(object.metadata, Boolean(old?.metadata.deletionTimestamp), old?.metadata.finalizers ?? []));
    if (old) errs.push(...immutableMetadata(object, old));
    errs.push(...(old ? rt.strategy.validateUpdate?.(object, old) ?? [] : rt.strategy.validateCreate?.(object) ?? []));
    if (errs.length) throw invalidObject(rt.kind, rt.group, object.metadata.name ?? '', errs);
  }

  /**
   * Creates an object. A name generated from generateName that is already taken is generated again and
   * the create retried, up to 8 attempts in all (1.32's RetryGenerateName, the store's
   * maxNameGenerationCreateAttempts); the last attempt's 409 is the answer.
   */
  create(rt: ResourceType, namespace: string | undefined, body: unknown, opts: WriteOptions = {}): WriteResult {
    const metadata = (body as Partial<KubeObject> | null)?.metadata;
    if (metadata?.name || !metadata?.generateName) return this.createOnce(rt, namespace, body, opts);
    for (let attempt = 1; ; attempt++) {
      try {
        return this.createOnce(rt, namespace, copyObject(body), opts);
      } catch (err) {
        const taken = err instanceof ApiError && err.status.reason === 'AlreadyExists';
        if (!taken || attempt >= maxNameGenerationCreateAttempts) throw err;
      }
    }
  }

  private createOnce(rt: ResourceType, namespace: string | undefined, body: unknown, opts: WriteOptions): WriteResult {
    if (rt.terminating) {
      throw new ApiError(405, 'MethodNotAllowed', 'create not allowed while custom resource definition is terminating', { group: rt.group, kind: rt.resource });
    }
    const warnings: string[] = [];
    const object = this.admitBody(rt, body, namespace, opts, warnings);
    const meta = object.metadata;
    if (meta.resourceVersion) throw internalError('resourceVersion should not be set on objects to be created');
    const requestName = meta.name || meta.generateName || '';
    if (!meta.name && meta.generateName) meta.name = `${String(meta.generateName).slice(0, 58)}${this.random.nameSuffix()}`;
    this.checkNamespace(rt, meta.namespace, meta.name ?? '', true);
    const ctx = this.context();
    meta.uid = ctx.uid();
    meta.creationTimestamp = rfc3339(ctx.now);
    delete meta.deletionTimestamp;
    delete meta.deletionGracePeriodSeconds;
    delete meta.selfLink;
    if (rt.hasGeneration || rt.custom) meta.generation = 1;
    else delete meta.generation;
    if (rt.statusSubresource && rt.custom) delete object.status;
    warnings.push(...this.runAdmission('admit', 'CREATE', rt, object, undefined, opts, requestName));
    rt.strategy.prepareForCreate?.(object, ctx);
    warnings.push(...dropDuplicateOwnerReferences(object));
    this.validate(rt, object, undefined);
    if (this.store.peek(rt.bucket, meta.namespace, meta.name)) throw alreadyExists(this.qr(rt), meta.name);
    // validating admission runs after the name is generated (1.32's RetryGenerateName), mutating before
    warnings.push(...this.runAdmission('validate', 'CREATE', rt, object, undefined, opts));
    delete meta.managedFields;
    recordUpdate(object, undefined, this.ownership(rt, opts, 'create'));
    if (opts.dryRun) return { object: this.present(rt, { ...object, metadata: { ...object.metadata, resourceVersion: '' } }), code: 201, warnings };
    const stored = this.store.create(rt.bucket, object);
    return { object: this.presentCopy(rt, stored), code: 201, warnings };
  }

  /** One phase of the built-in admission chain on the object about to be written; returns warnings. */
  private runAdmission(phase: 'admit' | 'validate', operation: AdmissionVerb, rt: ResourceType, object: KubeObject, old: KubeObject | undefined, opts: WriteOptions, name = object.metadata.name ?? ''): string[] {
    if (!this.admission) return [];
    return this.admission[phase]({
      operation,
      rt,
      namespace: rt.namespaced ? object.metadata.namespace : undefined,
      name,
      subresource: opts.subresource,
      object,
      oldObject: old,
      user: opts.user,
      dryRun: Boolean(opts.dryRun),
    });
  }

  private ownership(rt: ResourceType, opts: WriteOptions, _verb: string) {
    return {
      manager: opts.fieldManager ?? 'unknown',
      apiVersion: groupVersion(rt),
      now: this.clock.now(),
      ...(opts.subresource === 'status' || opts.subresource === 'scale' ? { subresource: opts.subresource } : {}),
      statusSubresource: rt.statusSubresource,
      lists: this.listSemanticsFor(rt),
    };
  }

  update(rt: ResourceType, namespace: string | undefined, name: string, body: unknown, opts: WriteOptions = {}): WriteResult {
    const warnings: string[] = [];
    const incoming = this.admitBody(rt, body, namespace, opts, warnings);
    if (incoming.metadata.name !== undefined && incoming.metadata.name !== name) {
      throw badRequest(`the name of the object (${incoming.metadata.name}) does not match the name on the URL (${name})`);
    }
    incoming.metadata.name = name;
    return this.updateWith(rt, namespace, name, opts, warnings, () => incoming);
  }

  /** Shared tail of update and patch: `compute` turns the stored object into the requested one. */
  private updateWith(
    rt: ResourceType,
    namespace: string | undefined,
    name: string,
    opts: WriteOptions,
    warnings: string[],
    compute: (stored: KubeObject) => KubeObject,
    ownershipDone = false,
  ): WriteResult {
    const ns = rt.namespaced ? namespace : undefined;
    const stored = opts.current ? copyObject(opts.current) : this.store.get(rt.bucket, ns, name);
    if (!stored) throw notFound(this.qr(rt), name);
    this.checkNamespace(rt, ns, name, false);
    const requested = compute(stored);
    const rv = requested.metadata.resourceVersion;
    if (rv !== undefined && rv !== '' && rv !== stored.metadata.resourceVersion) throw conflict(this.qr(rt), name);
    let next: KubeObject;
    if (opts.subresource === 'status') {
      next = copyObject(stored);
      if (requested.status === undefined) delete next.status;
      else next.status = requested.status;
      if (ownershipDone && requested.metadata.managedFields) next.metadata.managedFields = requested.metadata.managedFields;
    } else {
      next = requested;
      if (rt.statusSubresource) {
        if (stored.status === undefined) delete next.status;
        else next.status = copyObject(stored.status);
      }
      const meta = next.metadata;
      if (!meta.uid) meta.uid = stored.metadata.uid;
      for (const f of ['creationTimestamp', 'deletionTimestamp', 'deletionGracePeriodSeconds'] as const) {
        if (stored.metadata[f] === undefined) delete meta[f];
        else (meta as Record<string, unknown>)[f] = stored.metadata[f];
      }
      if (meta.managedFields === undefined && stored.metadata.managedFields) meta.managedFields = stored.metadata.managedFields;
      meta.namespace = stored.metadata.namespace;
      if (meta.namespace === undefined) delete meta.namespace;
    }
    next.metadata.resourceVersion = stored.metadata.resourceVersion;
    const ctx = this.context();
    const old = stored;
    warnings.push(...this.runAdmission('admit', 'UPDATE', rt, next, old, opts));
    if (opts.subresource !== 'status') rt.strategy.prepareForUpdate?.(next, stored, ctx);
    if (rt.hasGeneration || rt.custom) {
      next.metadata.generation = (stored.metadata.generation ?? 1) + (generationChanged(rt, next, stored) ? 1 : 0);
    } else delete next.metadata.generation;
    warnings.push(...dropDuplicateOwnerReferences(next));
    this.validate(rt, next, stored);
    warnings.push(...this.runAdmission('validate', 'UPDATE', rt, next, old, opts));
    if (!ownershipDone && !isNoOp(next, stored)) recordUpdate(next, stored, this.ownership(rt, opts, 'update'));
    return this.commitUpdate(rt, next, stored, opts, warnings);
  }

  /**
   * Storage-level read-modify-write (etcd's GuaranteedUpdate) for subresources that change what no
   * other write may, without strategy or validation: pods/binding sets spec.nodeName and PodScheduled.
   */
  guaranteedUpdate(rt: ResourceType, namespace: string | undefined, name: string, mutate: (copy: KubeObject) => void, opts: { dryRun?: boolean } = {}): WriteResult {
    const stored = this.store.get(rt.bucket, rt.namespaced ? namespace : undefined, name);
    if (!stored) throw notFound(this.qr(rt), name);
    const next = copyObject(stored);
    mutate(next);
    return this.commitUpdate(rt, next, stored, opts, []);
  }

  private commitUpdate(rt: ResourceType, next: KubeObject, stored: KubeObject, opts: WriteOptions, warnings: string[]): WriteResult {
    // an in-process write (garbage collector, cleanup) through another version than a webhook-converted
    // object is stored in cannot convert: it changes the metadata and keeps the stored content as it is
    if (rt.conversionWebhook && !opts.current && next.apiVersion !== stored.apiVersion) next = { ...copyObject(stored), metadata: next.metadata };
    if (isNoOp(next, stored)) return { object: this.present(rt, stored), code: 200, warnings };
    if (opts.dryRun) return { object: this.present(rt, next), code: 200, warnings };
    if (readyToRemove(rt, next)) {
      const gone = this.store.delete(rt.bucket, stored.metadata.namespace, stored.metadata.name);
      return { object: this.present(rt, gone ?? next), code: 200, warnings };
    }
    const saved = this.store.update(rt.bucket, next);
    return { object: this.presentCopy(rt, saved), code: 200, warnings };
  }

  patch(rt: ResourceType, namespace: string | undefined, name: string, contentType: string, body: unknown, opts: WriteOptions = {}): WriteResult {
    const type = patchContentTypes[contentType];
    if (!type || !patchTypesOf(rt).includes(contentType)) throw unsupportedMediaType(patchTypesOf(rt));
    if (type === 'apply') return this.apply(rt, namespace, name, body, opts);
    if (type !== 'json' && (body === null || typeof body !== 'object' || Array.isArray(body))) {
      throw badRequest(`json: cannot unmarshal ${Array.isArray(body) ? 'array' : typeof body} into Go value of type map[string]interface {}`);
    }
    const warnings: string[] = [];
    return this.updateWith(rt, namespace, name, opts, warnings, (stored) => {
      const current = this.present(rt, stored);
      let patched: unknown;
      try {
        if (type === 'json') patched = applyJsonPatch(current, body);
        else if (type === 'merge') patched = applyMergePatch(current, body);
        else patched = applyStrategicMergePatch(current, body);
      } catch (err) {
        if (err instanceof ApiError) throw err;
        // the patch handler's NewGenericServerResponse(422, …, isUnexpectedResponse=false) keeps only the generic text
        if (err instanceof JsonPatchError) throw new ApiError(422, 'Invalid', 'the server rejected our request due to an error in our request', {});
        throw badRequest(err instanceof Error ? err.message : String(err));
      }
      const object = this.admitBody(rt, patched, namespace, opts, warnings, true);
      if (object.metadata.name !== name) throw badRequest(`the name of the object (${object.metadata.name}) does not match the name on the URL (${name})`);
      const bodyRv = type === 'json' ? undefined : (body as KubeObject).metadata?.resourceVersion;
      object.metadata.resourceVersion = bodyRv ?? (type === 'json' ? object.metadata.resourceVersion : undefined);
      return object;
    });
  }

  private apply(rt: ResourceType, namespace: string | undefined, name: string, body: unknown, opts: WriteOptions): WriteResult {
    if (!opts.fieldManager) {
      throw new ApiError(422, 'Invalid', 'PatchOptions.meta.k8s.io "" is invalid: fieldManager: Required value: is required for apply patch', {
        group: 'meta.k8s.io',
        kind: 'PatchOptions',
        causes: [{ reason: 'FieldValueRequired', message: 'Required value: is required for apply patch', field: 'fieldManager' }],
      });
    }
    const config = body as KubeObject;
    if (!config || typeof config !== 'object' || Array.isArray(config)) throw badRequest('error decoding YAML: the applied configuration must be an object');
    if (!config.apiVersion || !config.kind) throw badRequest(`invalid object type: ${config.apiVersion ?? ''}, Kind=${config.kind ?? ''}`);
    rejectUndeclaredApplyFields(config, rt.custom ? rt.openAPISchema() : undefined);
    if (config.metadata?.name !== undefined && config.metadata.name !== name) {
      throw badRequest(`the name of the object (${config.metadata.name}) does not match the name on the URL (${name})`);
    }
    const warnings: string[] = [];
    const admitted = this.admitBody(rt, config, namespace, { ...opts, fieldValidation: opts.fieldValidation === 'Strict' ? 'Strict' : opts.fieldValidation }, warnings, true);
    admitted.metadata.name = name;
    const ownership = this.ownership(rt, opts, 'apply');
    const existing = opts.current ?? this.store.get(rt.bucket, rt.namespaced ? namespace : undefined, name);
    if (!existing) {
      const merged = serverSideApply(undefined, admitted, ownership, Boolean(opts.force));
      const managed = merged.metadata.managedFields;
      const result = this.create(rt, namespace, merged, { ...opts, fieldValidation: 'Ignore' });
      if (!opts.dryRun && managed) {
        const stored = this.store.get(rt.bucket, result.object.metadata.namespace, name)!;
        stored.metadata.managedFields = managed;
        const saved = this.store.update(rt.bucket, stored);
        return { object: this.presentCopy(rt, saved), code: 201, warnings };
      }
      if (managed) result.object.metadata.managedFields = managed;
      return { ...result, warnings };
    }
    return this.updateWith(
      rt,
      namespace,
      name,
      opts,
      warnings,
      (stored) => {
        const live = this.present(rt, stored);
        const merged = serverSideApply(live, admitted, ownership, Boolean(opts.force));
        const object = rt.strategy.toStorage ? rt.strategy.toStorage(merged) : merged;
        object.metadata.resourceVersion = admitted.metadata.resourceVersion;
        return object;
      },
      true,
    );
  }

  /** DELETE of one object (§3.6). Returns the object (still there or deleted) or a Success Status. */
  delete(rt: ResourceType, namespace: string | undefined, name: string, options: DeleteOptions = {}): { body: KubeObject | Record<string, unknown>; warnings: string[] } {
    const stored = this.admission ? this.store.peek(rt.bucket, rt.namespaced ? namespace : undefined, name) : undefined;
    const warnings = stored
      ? this.admission!.validate({
          operation: 'DELETE',
          rt,
          namespace: rt.namespaced ? namespace : undefined,
          name,
          subresource: undefined,
          object: undefined,
          oldObject: stored as KubeObject,
          user: options.user,
          dryRun: Boolean(options.dryRun),
        })
      : [];
    const result = this.deletion.delete(rt, namespace, name, options);
    return { ...result, warnings: [...result.warnings, ...warnings] };
  }

  /** PUT namespaces/<n>/finalize: replaces spec.finalizers; the namespace goes once nothing holds it. */
  finalizeNamespace(rt: ResourceType, name: string, body: unknown): KubeObject {
    return this.deletion.finalizeNamespace(rt, name, body);
  }
}

/**
 * A patched object that does not decode: kube-apiserver answers 422 with an empty kind and name
 * (`NewInvalid(schema.GroupKind{}, "", …)`), which kubectl prints as "The request is invalid: patch: …".
 */
function patchDecodeError(patched: unknown, reason: string): ApiError {
  return invalidObject('', '', '', [invalid('patch', JSON.stringify(patched), reason)]);
}

/** kube-apiserver's wrapping of a body it could not decode into the kind (transformDecodeError). */
function cannotBeHandled(rt: ResourceType, reason: string): string {
  return `${rt.kind} in version "${rt.version}" cannot be handled as a ${rt.kind}: ${reason}`;
}

/** Owner references with the same uid are stored once, with a warning (as kube-apiserver 1.32 does). */
function dropDuplicateOwnerReferences(object: KubeObject): string[] {
  const refs: OwnerReference[] = Array.isArray(object.metadata.ownerReferences) ? object.metadata.ownerReferences : [];
  const seen = new Set<string>();
  const kept = refs.filter((r) => {
    if (typeof r?.uid !== 'string' || !seen.has(r.uid)) {
      if (typeof r?.uid === 'string') seen.add(r.uid);
      return true;
    }
    return false;
  });
  if (kept.length === refs.length) return [];
  object.metadata.ownerReferences = kept;
  return [`metadata.ownerReferences: duplicate entries with uid ${[...new Set(refs.map((r) => r?.uid).filter((u, i, all) => all.indexOf(u) !== i))].join(', ')} were dropped`];
}

function immutableMetadata(object: KubeObject, old: KubeObject): FieldError[] {
  const errs: FieldError[] = [];
  if (object.metadata.uid !== old.metadata.uid) errs.push(invalid('metadata.uid', object.metadata.uid, 'field is immutable'));
  if (object.metadata.creationTimestamp !== old.metadata.creationTimestamp) {
    errs.push(invalid('metadata.creationTimestamp', object.metadata.creationTimestamp ?? null, 'field is immutable'));
  }
  return errs;
}

/** apiVersion, kind, metadata first — the order the real server writes. */
export function reorderTypeMeta(object: KubeObject): KubeObject {
  const { apiVersion, kind, metadata, ...rest } = object;
  return { apiVersion, kind, metadata, ...rest } as KubeObject;
}

/**
 * Whether an update leaves a deleting object with nothing left to wait for: no finalizer, no grace period
 * still running (a pod being stopped gracefully stays until its grace ends), and for a namespace no
 * `spec.finalizers` (the namespace controller removes `kubernetes` once the content is gone).
 */
function readyToRemove(rt: ResourceType, next: KubeObject): boolean {
  const meta = next.metadata;
  if (!meta.deletionTimestamp || (meta.finalizers ?? []).length > 0) return false;
  if ((meta.deletionGracePeriodSeconds ?? 0) > 0) return false;
  if (rt.bucket === 'namespaces' && (asStored<Namespace>(next).spec?.finalizers ?? []).length > 0) return false;
  return true;
}
