/**
 * Requests for custom resources whose CRD converts through a webhook (`conversion.strategy: Webhook`).
 * The object path runs in the request's version as for any kind — defaulting, validation, admission,
 * managedFields (the entry records the request's apiVersion) — against the stored object converted to
 * that version; the storage boundary converts: what is written is converted to the storage version and
 * committed if the store has not moved meanwhile, and every object read (get, list, watch events, the
 * answers of writes and deletes) is converted from the version it is stored in, as kube-apiserver's
 * storage codec does. Objects already in the wanted version need no call.
 */
import type { CustomResourceDefinition, CustomResourceDefinitionVersion } from 'kubernetes-types/apiextensions/v1.js';
import { ApiError, alreadyExists, conflict, notFound, pathNotFound } from '../errors/status-errors.js';
import type { ObjectOperations, WriteOptions, WriteResult } from '../registry/object-operations.js';
import type { ResourceType } from '../registry/resource-type.js';
import type { ResourceCatalog } from '../registry/resource-catalog.js';
import { type ManagedFieldsEntry, reconcileOtherVersionEntries } from '../patch/managed-fields.js';
import { isNoOp } from '../registry/system-metadata.js';
import { asStored } from '../store/kube-object.js';
import type { KubeObject, ObjectStore } from '../store/object-store.js';
import { type ConversionSettings, convertThroughWebhook, defaultConversionTimeoutMs, usesConversionWebhook } from '../crd/conversion-webhook.js';
import { type ResourceVersions, type WebhookAdmission, admittedWrite } from '../admission/webhook-admission.js';
import { listObjects, servedFromWatchCache } from './list-request.js';
import { requestedResourceVersion } from '../store/freshness.js';
import type { HandlerResult, ResourceHandler, ResourceRequestContext } from './resource-handler.js';
import type { WatchHub } from './watch.js';
import { copyObject } from '../store/copy-object.js';

const crdBucket = 'customresourcedefinitions.apiextensions.k8s.io';

/** Patches retried when the object changed while its conversions were under way (the patcher's retries). */
const maxPatchAttempts = 5;

export class ConvertingRequests {
  /** How long a conversion webhook may take (tests shorten it). */
  timeoutMs = defaultConversionTimeoutMs;

  constructor(
    private readonly catalog: ResourceCatalog,
    private readonly store: ObjectStore,
    private readonly ops: ObjectOperations,
    private readonly watches: WatchHub,
    private readonly admission: WebhookAdmission,
    private readonly http: ResourceHandler,
  ) {}

  private get settings(): ConversionSettings {
    return { resolve: this.admission.resolveService, timeoutMs: this.timeoutMs };
  }

  /** Converts `object` to `version` of the CRD's group (no call when it is in that version already). */
  convert(crd: KubeObject, object: KubeObject, version: string): Promise<KubeObject> {
    return convertThroughWebhook(crd, object, `${asStored<CustomResourceDefinition>(crd).spec.group}/${version}`, this.settings);
  }

  /** A stored object as `rt` serves it: converted, then read-time defaults. */
  async readAs(rt: ResourceType, crd: KubeObject, stored: KubeObject): Promise<KubeObject> {
    return this.ops.present(rt, await this.convert(crd, copyObject(stored), rt.version));
  }

  async handle(rt: ResourceType, crd: KubeObject, ctx: ResourceRequestContext): Promise<HandlerResult | undefined> {
    const { info } = ctx;
    const subresource = info.subresource;
    if (subresource === 'scale' && rt.scale) return this.scale(rt, ctx);
    if (subresource !== undefined && (subresource !== 'status' || !rt.statusSubresource)) return undefined;
    switch (info.verb) {
      case 'get':
        await this.http.freshness?.waitUntilFresh(requestedResourceVersion(ctx.query.get('resourceVersion')));
        return this.http.respondObject(rt, ctx, await this.readAs(rt, crd, this.stored(rt, ctx)));
      case 'list': {
        const query = this.http.listQuery(rt, ctx);
        if (servedFromWatchCache(query)) await this.http.freshness?.waitUntilFresh(requestedResourceVersion(query.resourceVersion));
        const page = listObjects(this.store, rt, query);
        const objects = await Promise.all(page.items.map((stored) => this.readAs(rt, crd, stored)));
        return this.http.listResponse(rt, ctx, page, objects.map((object) => ({ stored: object, object })));
      }
      case 'watch':
        return undefined;
      case 'create':
        return this.create(rt, crd, ctx);
      case 'update':
      case 'patch':
        return this.write(rt, crd, ctx);
      case 'delete':
        return this.delete(rt, crd, ctx);
      case 'deletecollection':
        return subresource ? undefined : this.deleteCollection(rt, crd, ctx);
      default:
        return undefined;
    }
  }

  /**
   * The scale subresource: autoscaling/v1 Scale is the same in every version, so it is served through the
   * version the object is stored in (its replicas paths), with no conversion at all.
   */
  private scale(rt: ResourceType, ctx: ResourceRequestContext): HandlerResult | Promise<HandlerResult> | undefined {
    const raw = this.stored(rt, ctx);
    const storedType = this.catalog.find(rt.group, raw.apiVersion!.slice(rt.group.length + 1), rt.resource);
    return storedType?.scale ? this.http.scale(storedType, ctx) : undefined;
  }

  /** The raw stored object the request names (404 when there is none). */
  private stored(rt: ResourceType, ctx: ResourceRequestContext): KubeObject {
    const stored = this.store.get(rt.bucket, rt.namespaced ? ctx.info.namespace : undefined, ctx.info.name!);
    if (!stored) throw notFound({ group: rt.group, resource: rt.resource }, ctx.info.name!);
    return stored;
  }

  /** The version objects are stored in (validation lets a CRD have exactly one). */
  private storageVersion(crd: KubeObject): string {
    const versions: CustomResourceDefinitionVersion[] = asStored<CustomResourceDefinition>(crd).spec.versions ?? [];
    return versions.find((v) => v?.storage === true)?.name as string;
  }

  private async create(rt: ResourceType, crd: KubeObject, ctx: ResourceRequestContext): Promise<HandlerResult> {
    const ns = ctx.info.namespace;
    if (rt.namespaced && ns === undefined) throw pathNotFound();
    const body = this.http.decodeBody(ctx, rt) as KubeObject;
    const opts = this.http.writeOptions(ctx);
    const duplicates = this.http.duplicateFieldWarnings(rt, ctx, body, opts);
    const r = await admittedWrite(
      this.admission, 'CREATE', this.http.admissionContext(rt, ctx, opts), this.ops, body, undefined,
      () => this.ops.create(rt, ns, body, { ...opts, dryRun: true }),
      (mutated) => this.commitCreate(rt, crd, this.ops.create(rt, ns, mutated ?? body, { ...opts, ...(mutated ? { fieldValidation: 'Ignore' as const } : {}), dryRun: true }), opts),
    );
    return { code: r.code, body: r.object, warnings: [...duplicates, ...r.warnings] };
  }

  /** Stores what a dry-run create computed, converted to the storage version; answers in the request's version. */
  private async commitCreate(rt: ResourceType, crd: KubeObject, dry: WriteResult, opts: WriteOptions): Promise<WriteResult> {
    const object = copyObject(dry.object);
    delete object.metadata.resourceVersion;
    const converted = await this.convert(crd, object, this.storageVersion(crd));
    if (opts.dryRun) return { ...dry, object: await this.readAs(rt, crd, converted) };
    if (this.store.peek(rt.bucket, object.metadata.namespace, object.metadata.name)) throw alreadyExists({ group: rt.group, resource: rt.resource }, object.metadata.name);
    const saved = this.store.create(rt.bucket, converted);
    return { ...dry, object: await this.readAs(rt, crd, saved) };
  }

  /** Update and patch (merge, JSON, apply), of the object or its status, retried when the object moved meanwhile. */
  private async write(rt: ResourceType, crd: KubeObject, ctx: ResourceRequestContext): Promise<HandlerResult> {
    const { info } = ctx;
    const opts: WriteOptions = { ...this.http.writeOptions(ctx), ...(info.subresource ? { subresource: info.subresource } : {}) };
    const body = info.verb === 'update' ? this.http.decodeBody(ctx, rt) : this.patchBody(ctx);
    const type = this.http.contentType(ctx);
    const duplicates = info.verb === 'update' ? this.http.duplicateFieldWarnings(rt, ctx, body, opts) : [];
    for (let attempt = 1; ; attempt++) {
      try {
        const answer = await this.writeOnce(rt, crd, ctx, body, type, opts);
        return { ...answer, warnings: [...duplicates, ...(answer.warnings ?? [])] };
      } catch (err) {
        const moved = err instanceof StoreMoved;
        if (!moved) throw err;
        if (info.verb === 'update' || attempt >= maxPatchAttempts) throw conflict({ group: rt.group, resource: rt.resource }, info.name!);
      }
    }
  }

  private patchBody(ctx: ResourceRequestContext): unknown {
    return this.http.contentType(ctx) === 'application/apply-patch+yaml' ? this.http.decodeApplyPatch(ctx.body) : this.http.decodeJson(ctx.body);
  }

  private async writeOnce(rt: ResourceType, crd: KubeObject, ctx: ResourceRequestContext, body: unknown, type: string, opts: WriteOptions): Promise<HandlerResult> {
    const { info } = ctx;
    const ns = rt.namespaced ? info.namespace : undefined;
    const raw = this.store.get(rt.bucket, ns, info.name!);
    if (!raw && !(info.verb === 'patch' && type === 'application/apply-patch+yaml')) throw notFound({ group: rt.group, resource: rt.resource }, info.name!);
    const current = raw ? await this.readAs(rt, crd, raw) : undefined;
    // the object path sees the managers of the request's version only; the others are compared in theirs
    const entries = (current?.metadata.managedFields ?? []) as ManagedFieldsEntry[];
    const inRequestVersion = (e: ManagedFieldsEntry): boolean => e.apiVersion === current?.apiVersion;
    const sameVersion = current && copyObject(current);
    if (sameVersion) {
      const mine = entries.filter(inRequestVersion);
      if (mine.length) sameVersion.metadata.managedFields = mine;
      else delete sameVersion.metadata.managedFields;
    }
    const withCurrent: WriteOptions = { ...opts, ...(sameVersion ? { current: sameVersion } : {}) };
    const dryWrite = (candidate?: KubeObject): WriteResult => {
      if (candidate) return current ? this.ops.update(rt, info.namespace, info.name!, candidate, { ...withCurrent, fieldValidation: 'Ignore', dryRun: true }) : this.ops.create(rt, info.namespace, candidate, { ...opts, fieldValidation: 'Ignore', dryRun: true });
      if (info.verb === 'update') return this.ops.update(rt, info.namespace, info.name!, body, { ...withCurrent, dryRun: true });
      return this.ops.patch(rt, info.namespace, info.name!, type, body, { ...withCurrent, dryRun: true });
    };
    const c = this.http.admissionContext(rt, ctx, opts);
    const apply = info.verb === 'patch' && type === 'application/apply-patch+yaml' ? { force: Boolean(opts.force) } : undefined;
    const r = await admittedWrite(this.admission, current ? 'UPDATE' : 'CREATE', c, this.ops, info.verb === 'update' ? (body as KubeObject) : current, current, () => dryWrite(), async (mutated) => {
      const dry = dryWrite(mutated);
      if (!raw || !current) return this.commitCreate(rt, crd, dry, opts);
      const otherVersions = entries.filter((e) => !inRequestVersion(e));
      if (otherVersions.length) dry.object.metadata.managedFields = await this.managedFieldsAcrossVersions(rt, crd, current, dry.object, entries, opts.subresource, mutated ? undefined : apply);
      return this.commitUpdate(rt, crd, raw, dry, opts);
    });
    return { code: r.code, body: r.object, warnings: r.warnings };
  }

  /**
   * The managedFields after a write: the request version's entries as the object path computed them, and
   * those of other versions reconciled in their own version (the object before and after the write
   * converted to it), each kept at its place in the list.
   */
  private async managedFieldsAcrossVersions(rt: ResourceType, crd: KubeObject, before: KubeObject, after: KubeObject, entries: ManagedFieldsEntry[], subresource: string | undefined, apply: { force: boolean } | undefined): Promise<ManagedFieldsEntry[] | undefined> {
    const computed = (after.metadata.managedFields ?? []) as ManagedFieldsEntry[];
    const reconciled = new Map<ManagedFieldsEntry, ManagedFieldsEntry | undefined>();
    for (const apiVersion of new Set(entries.map((e) => e.apiVersion).filter((v) => v !== before.apiVersion))) {
      const version = apiVersion.split('/')[1] ?? apiVersion;
      const other = this.catalog.find(rt.group, version, rt.resource) ?? rt;
      const group = entries.filter((e) => e.apiVersion === apiVersion);
      const kept = reconcileOtherVersionEntries(group, await this.convert(crd, before, version), await this.convert(crd, after, version), {
        ...(subresource ? { subresource } : {}),
        statusSubresource: other.statusSubresource,
        lists: this.ops.listSemanticsFor(other),
      }, apply);
      group.forEach((e, i) => reconciled.set(e, kept[i]));
    }
    const sameEntry = (a: ManagedFieldsEntry, b: ManagedFieldsEntry): boolean => a.manager === b.manager && a.operation === b.operation && (a.subresource ?? '') === (b.subresource ?? '') && a.apiVersion === b.apiVersion;
    const used = new Set<ManagedFieldsEntry>();
    const out: ManagedFieldsEntry[] = [];
    for (const e of entries) {
      if (reconciled.has(e)) {
        const kept = reconciled.get(e);
        if (kept) out.push(kept);
        continue;
      }
      const now = computed.find((c) => !used.has(c) && sameEntry(c, e));
      if (now) {
        used.add(now);
        out.push(now);
      }
    }
    out.push(...computed.filter((c) => !used.has(c)));
    return out.length ? out : undefined;
  }

  /**
   * Stores what a dry-run update computed, converted to the storage version — unless that is what is
   * stored already (an object stored in an older version is rewritten, as storage migration wants).
   */
  private async commitUpdate(rt: ResourceType, crd: KubeObject, raw: KubeObject, dry: WriteResult, opts: WriteOptions): Promise<WriteResult> {
    const converted = await this.convert(crd, copyObject(dry.object), this.storageVersion(crd));
    converted.metadata.resourceVersion = raw.metadata.resourceVersion;
    if (opts.dryRun || isNoOp(converted, raw)) return { ...dry, object: await this.readAs(rt, crd, opts.dryRun ? converted : raw) };
    const now = this.store.peek(rt.bucket, raw.metadata.namespace, raw.metadata.name);
    if (now?.metadata.resourceVersion !== raw.metadata.resourceVersion) throw new StoreMoved();
    const meta = converted.metadata;
    if (meta.deletionTimestamp && (meta.finalizers ?? []).length === 0) {
      const gone = this.store.delete(rt.bucket, meta.namespace, meta.name);
      return { ...dry, object: await this.readAs(rt, crd, gone ?? converted) };
    }
    const saved = this.store.update(rt.bucket, converted);
    return { ...dry, object: await this.readAs(rt, crd, saved) };
  }

  private async delete(rt: ResourceType, crd: KubeObject, ctx: ResourceRequestContext): Promise<HandlerResult> {
    const { info } = ctx;
    const raw = this.stored(rt, ctx);
    const options = this.http.deleteOptions(ctx);
    const c = this.http.admissionContext(rt, ctx, { dryRun: Boolean(options.dryRun) });
    let warnings: string[] = [];
    if (this.admission.applies('DELETE', c, undefined, raw)) {
      const old = await this.readAs(rt, crd, raw);
      warnings = [...(await this.admission.mutate('DELETE', c, undefined, old)).warnings, ...(await this.admission.validate('DELETE', c, undefined, old))];
    }
    const r = this.ops.delete(rt, info.namespace, info.name!, options);
    return { code: 200, body: await this.deleteAnswer(rt, crd, raw, r.body, Boolean(options.dryRun)), warnings: [...r.warnings, ...warnings] };
  }

  /** What a delete answers: a Status, or the object (still held by finalizers, or as it went) in the request's version. */
  private async deleteAnswer(rt: ResourceType, crd: KubeObject, raw: KubeObject, body: KubeObject | Record<string, unknown>, dryRun: boolean): Promise<KubeObject | Record<string, unknown>> {
    if ((body as KubeObject).kind !== rt.kind) return body;
    const still = dryRun ? undefined : this.store.get(rt.bucket, raw.metadata.namespace, raw.metadata.name);
    // the delete answered the stored data under the request's apiVersion: it is in the stored version
    return this.readAs(rt, crd, still ?? ({ ...(body as KubeObject), apiVersion: raw.apiVersion } as KubeObject));
  }

  /** DELETE of a collection: each object as DELETE of one would answer it, in the request's version. */
  private async deleteCollection(rt: ResourceType, crd: KubeObject, ctx: ResourceRequestContext): Promise<HandlerResult> {
    const page = listObjects(this.store, rt, { ...this.http.listQuery(rt, ctx), limit: 0 });
    const options = this.http.deleteOptions(ctx);
    const items: unknown[] = [];
    for (const raw of page.items) {
      try {
        const r = this.ops.delete(rt, raw.metadata.namespace, raw.metadata.name, options);
        const answer = await this.deleteAnswer(rt, crd, raw, r.body, Boolean(options.dryRun));
        if ((answer as KubeObject).kind !== 'Status') items.push(answer);
      } catch (err) {
        if (!(err instanceof ApiError && err.code === 404)) throw err;
      }
    }
    return { code: 200, body: { kind: rt.listKind, apiVersion: `${rt.group}/${rt.version}`, metadata: { resourceVersion: String(this.store.resourceVersion) }, items } };
  }

  /**
   * The versions of custom resources for admission webhooks registered for another version of the same
   * resource (matchPolicy Equivalent): the CRD's other served versions, and conversion — through the
   * webhook, or the apiVersion rewrite of the None strategy.
   */
  resourceVersions(): ResourceVersions {
    const crdOf = (rt: ResourceType): KubeObject | undefined => (rt.custom ? (this.store.peek(crdBucket, undefined, rt.bucket) as KubeObject | undefined) : undefined);
    return {
      equivalents: (rt) => ((crdOf(rt)?.spec as CustomResourceDefinition['spec'] | undefined)?.versions ?? []).filter((v) => v?.served && v.name !== rt.version).map((v) => String(v.name)),
      convert: async (rt, object, version) => {
        const crd = crdOf(rt);
        if (!crd) return object;
        if (usesConversionWebhook(crd)) return this.convert(crd, object, version);
        return { ...copyObject(object), apiVersion: `${rt.group}/${version}` };
      },
    };
  }

  /** What the watch of `rt` needs to convert its events. */
  watchConversion(rt: ResourceType, crd: KubeObject): (stored: KubeObject) => Promise<KubeObject> {
    return (stored) => this.readAs(rt, crd, stored);
  }

  /**
   * Rewrites every object of the CRD in its storage version — a no-op update through the conversion
   * path, as kube-storage-version-migrator does — and returns how many were rewritten.
   */
  async rewriteInStorageVersion(crd: KubeObject): Promise<number> {
    const { spec } = asStored<CustomResourceDefinition>(crd);
    const bucket = `${spec.names.plural}.${spec.group}`;
    const target = `${spec.group}/${this.storageVersion(crd)}`;
    let rewritten = 0;
    // an object written meanwhile is converted again from what it became (the migrator retries conflicts)
    for (let pass = 0; pass < maxPatchAttempts; pass++) {
      const left = this.store.list(bucket).filter((o) => o.apiVersion !== target);
      if (left.length === 0) break;
      for (const stored of left) {
        const converted = spec.conversion?.strategy === 'Webhook' ? await this.convert(crd, copyObject(stored), this.storageVersion(crd)) : { ...copyObject(stored), apiVersion: target };
        const now = this.store.peek(bucket, stored.metadata.namespace, stored.metadata.name);
        if (now?.metadata.resourceVersion !== stored.metadata.resourceVersion) continue;
        this.store.update(bucket, converted);
        rewritten++;
      }
    }
    return rewritten;
  }
}

/** The stored object changed while a write's conversions were under way. */
class StoreMoved extends ApiError {
  constructor() {
    super(409, 'Conflict', 'the object changed during conversion');
  }
}

