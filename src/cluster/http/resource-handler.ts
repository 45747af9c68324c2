/**
 * REST handling of resource paths: maps verb + subresource to the object operations, decodes
 * bodies (JSON, YAML for apply, protobuf for built-in kinds), reads query options, and
 * shapes responses (object, list, Table, Scale, Status).
 */
import type { IncomingHttpHeaders } from 'node:http';
import type { DeleteOptions as MetaDeleteOptions } from 'kubernetes-types/meta/v1.js';
import { validateDeleteOptions } from './delete-options-validation.js';
import type { Scale } from 'kubernetes-types/autoscaling/v1.js';
import { ApiError, badRequest, invalidObject, methodNotAllowed, notFound, pathNotFound, unsupportedMediaType } from '../errors/status-errors.js';
import { forbidden, invalid } from '../errors/field-errors.js';
import type { DeleteOptions, FieldValidation, ObjectOperations, WriteOptions } from '../registry/object-operations.js';
import type { ResourceCatalog } from '../registry/resource-catalog.js';
import { type ResourceType, groupVersion } from '../registry/resource-type.js';
import { parseFieldSelector, checkFieldSelector } from '../selectors/field-selector.js';
import { parseLabelSelector, labelSelectorToString } from '../selectors/label-selector.js';
import type { KubeObject, ObjectStore } from '../store/object-store.js';
import { type ListPage, listObjects, servedFromWatchCache } from './list-request.js';
import { type FreshnessWaiter, requestedResourceVersion } from '../store/freshness.js';
import { ProtobufBodyError, decodeKubernetesProtobuf, decodesKind } from '../protobuf/kubernetes-messages.js';
import { negotiateResource } from './negotiation.js';
import { type ResourceRequest, queryBool } from './request-info.js';
import { buildTable, type IncludeObject } from './table.js';
import type { WatchHub } from './watch.js';
import type { UserInfo } from './authentication.js';
import { type AdmissionRequestContext, type WebhookAdmission, admittedWrite } from '../admission/webhook-admission.js';
import type { ServerResponse } from 'node:http';
import { duplicateFields, strictDecodingReasons } from './json-duplicate-fields.js';
import { applyMergePatch } from '../patch/merge-patch.js';
import { applyStrategicMergePatch } from '../patch/strategic-merge-patch.js';
import { TypeDecodeError } from '../schemas/typed-decoding.js';
import { ConvertingRequests } from './converting-requests.js';
import { usesConversionWebhook } from '../crd/conversion-webhook.js';
import { BodyDecodeError, decodeJsonText, decodeYamlText, unrecognizedObjectMessage } from './body-decoding.js';
import { copyObject } from '../store/copy-object.js';

const crdBucket = 'customresourcedefinitions.apiextensions.k8s.io';

/** What a DELETE's body holds (in any group version, meta/v1's message). */
const deleteOptionsKind = { group: 'meta.k8s.io', version: 'v1', kind: 'DeleteOptions', custom: false };

export interface HandlerResult {
  code: number;
  body: unknown;
  warnings?: string[];
}

export interface ResourceRequestContext {
  info: ResourceRequest;
  query: URLSearchParams;
  headers: IncomingHttpHeaders;
  body: Buffer;
  res: ServerResponse;
  /** The authenticated user (reviews, tokens, audit). */
  user: UserInfo;
}

/** Subresource handlers that live outside the generic path (TokenRequest, pod logs). */
export type SubresourceHandler = (rt: ResourceType, ctx: ResourceRequestContext) => HandlerResult | Promise<HandlerResult>;

export class ResourceHandler {
  /** Handlers of `<group>/<resource>/<subresource>` (TokenRequest, pod logs). */
  readonly subresourceHandlers = new Map<string, SubresourceHandler>();
  /** Handlers replacing create for virtual, create-only resources (`<group>/<resource>`: access reviews). */
  readonly createHandlers = new Map<string, SubresourceHandler>();
  /** Rewrites of a create body from the requester (`<group>/<resource>`: a CSR's spec.username, groups, …). */
  readonly createStamps = new Map<string, (body: KubeObject, user: UserInfo) => void>();
  /** Read-only resources answered from outside the store (`<group>/<resource>`: componentstatuses). */
  readonly virtualReads = new Map<string, { objects: () => KubeObject[]; warning?: string }>();
  /**
   * Checks the object a write would store before it is stored, for RBAC kinds only (escalation
   * prevention, §8.6); unset when authorization is `alwaysAllow`.
   */
  rbacWriteGuard: ((user: UserInfo, rt: ResourceType, object: KubeObject, old: KubeObject | undefined) => void) | undefined;
  /** Parks gets and cache-served lists asking for a resourceVersion the store has not reached (up to 3 s). */
  freshness: FreshnessWaiter | undefined;

  constructor(
    private readonly catalog: ResourceCatalog,
    private readonly store: ObjectStore,
    private readonly ops: ObjectOperations,
    private readonly watches: WatchHub,
    private readonly now: () => number,
    private readonly admission: WebhookAdmission,
  ) {
    this.converting = new ConvertingRequests(catalog, store, ops, watches, admission, this);
    admission.versions = this.converting.resourceVersions();
  }

  /** Requests for custom resources whose CRD converts through a webhook. */
  readonly converting: ConvertingRequests;

  /** The CRD of `rt` when it converts through a webhook. */
  private conversionWebhookCrd(rt: ResourceType): KubeObject | undefined {
    if (!rt.custom) return undefined;
    const crd = this.store.peek(crdBucket, undefined, rt.bucket) as KubeObject | undefined;
    return usesConversionWebhook(crd) ? crd : undefined;
  }

  /** Resolves the resource type or throws the 404 the real server gives. */
  resolve(info: ResourceRequest): ResourceType {
    const rt = this.catalog.find(info.group, info.version, info.resource);
    if (!rt) throw pathNotFound();
    if (info.namespace !== undefined && !rt.namespaced) throw pathNotFound();
    return rt;
  }

  async handle(ctx: ResourceRequestContext): Promise<HandlerResult | undefined> {
    const { info } = ctx;
    const rt = this.resolve(info);
    if (info.name !== undefined) checkPathSegmentName(info.name);
    const webhookCrd = this.conversionWebhookCrd(rt);
    if (info.subresource) return (webhookCrd && (await this.converting.handle(rt, webhookCrd, ctx))) || this.handleSubresource(rt, ctx);
    if (rt.namespaced && info.namespace === undefined && info.name !== undefined) throw pathNotFound();
    if (!rt.verbs.includes(info.verb)) throw methodNotAllowed(info.verb, { group: rt.group, resource: rt.resource });
    const itemVerb = ['get', 'update', 'patch', 'delete'].includes(info.verb);
    if ((info.verb === 'create' && info.name !== undefined) || (itemVerb && info.name === undefined)) {
      throw new ApiError(405, 'MethodNotAllowed', 'the server does not allow this method on the requested resource', {});
    }
    if (webhookCrd) {
      const answer = await this.converting.handle(rt, webhookCrd, ctx);
      if (answer) return answer;
    }
    const virtualRead = this.virtualReads.get(`${rt.group}/${rt.resource}`);
    if (virtualRead && (info.verb === 'get' || info.verb === 'list')) return this.readVirtual(rt, ctx, virtualRead);
    switch (info.verb) {
      case 'get':
        await this.freshness?.waitUntilFresh(requestedResourceVersion(ctx.query.get('resourceVersion')));
        return this.respondObject(rt, ctx, this.ops.get(rt, info.namespace, info.name!));
      case 'list': {
        const query = this.listQuery(rt, ctx);
        if (servedFromWatchCache(query)) await this.freshness?.waitUntilFresh(requestedResourceVersion(query.resourceVersion));
        return this.list(rt, ctx);
      }
      case 'watch':
        this.watch(rt, ctx, webhookCrd && this.converting.watchConversion(rt, webhookCrd));
        return undefined;
      case 'create': {
        if (rt.namespaced && info.namespace === undefined) throw pathNotFound();
        const virtual = this.createHandlers.get(`${rt.group}/${rt.resource}`);
        if (virtual) return virtual(rt, ctx);
        const body = this.decodeBody(ctx, rt) as KubeObject;
        this.createStamps.get(`${rt.group}/${rt.resource}`)?.(body, ctx.user);
        const opts = this.writeOptions(ctx);
        const duplicates = this.duplicateFieldWarnings(rt, ctx, body, opts);
        this.guardRbacWrite(rt, ctx, () => body, undefined);
        const r = await admittedWrite(
          this.admission, 'CREATE', this.admissionContext(rt, ctx, opts), this.ops, body, undefined,
          () => this.ops.create(rt, info.namespace, body, { ...opts, dryRun: true }),
          (mutated) => this.ops.create(rt, info.namespace, mutated ?? body, mutated ? { ...opts, fieldValidation: 'Ignore' } : opts),
        );
        return { code: r.code, body: r.object, warnings: [...duplicates, ...(r.warnings ?? [])] };
      }
      case 'update':
        return this.update(rt, ctx, this.writeOptions(ctx));
      case 'patch':
        return this.patch(rt, ctx, this.writeOptions(ctx));
      case 'delete': {
        const options = this.deleteOptions(ctx);
        const old = this.ops.get(rt, info.namespace, info.name!);
        const c = this.admissionContext(rt, ctx, { dryRun: Boolean(options.dryRun) });
        let warnings: string[] = [];
        if (this.admission.applies('DELETE', c, undefined, old)) {
          warnings = [...(await this.admission.mutate('DELETE', c, undefined, old)).warnings, ...(await this.admission.validate('DELETE', c, undefined, old))];
        }
        const r = this.ops.delete(rt, info.namespace, info.name!, options);
        return { code: 200, body: r.body, warnings: [...r.warnings, ...warnings] };
      }
      case 'deletecollection':
        return this.deleteCollection(rt, ctx);
      default:
        throw methodNotAllowed(info.verb, { group: rt.group, resource: rt.resource });
    }
  }

  admissionContext(rt: ResourceType, ctx: ResourceRequestContext, opts: { dryRun?: boolean; subresource?: string }): AdmissionRequestContext {
    return {
      rt,
      ...(ctx.info.namespace !== undefined ? { namespace: ctx.info.namespace } : {}),
      ...(ctx.info.name !== undefined ? { name: ctx.info.name } : {}),
      ...(opts.subresource ? { subresource: opts.subresource } : {}),
      user: ctx.user,
      dryRun: Boolean(opts.dryRun),
    };
  }

  /** Runs the RBAC write guard on what `candidate()` computes (only for rbac.authorization.k8s.io). */
  private guardRbacWrite(rt: ResourceType, ctx: ResourceRequestContext, candidate: () => KubeObject, old: KubeObject | undefined): void {
    if (!this.rbacWriteGuard || rt.group !== 'rbac.authorization.k8s.io' || ctx.info.subresource) return;
    const object = candidate();
    const metadata = { ...(object?.metadata ?? {}), ...(rt.namespaced && ctx.info.namespace ? { namespace: ctx.info.namespace } : {}) };
    this.rbacWriteGuard(ctx.user, rt, { ...object, metadata } as KubeObject, old);
  }

  private async update(rt: ResourceType, ctx: ResourceRequestContext, opts: WriteOptions): Promise<HandlerResult> {
    const { info } = ctx;
    const body = this.decodeBody(ctx, rt) as KubeObject;
    const duplicates = this.duplicateFieldWarnings(rt, ctx, body, opts);
    this.guardRbacWrite(rt, ctx, () => ({ ...body, metadata: { ...body?.metadata, name: info.name } }) as KubeObject, this.store.peek(rt.bucket, rt.namespaced ? info.namespace : undefined, info.name!) as KubeObject | undefined);
    const old = this.admission.applies('UPDATE', this.admissionContext(rt, ctx, opts), body) ? this.ops.get(rt, info.namespace, info.name!) : undefined;
    const r = await admittedWrite(
      this.admission, 'UPDATE', this.admissionContext(rt, ctx, opts), this.ops, body, old,
      () => this.ops.update(rt, info.namespace, info.name!, body, { ...opts, dryRun: true }),
      (mutated) => this.ops.update(rt, info.namespace, info.name!, mutated ?? body, mutated ? { ...opts, fieldValidation: 'Ignore' } : opts),
    );
    return { code: r.code, body: r.object, warnings: [...duplicates, ...(r.warnings ?? [])] };
  }

  private handleSubresource(rt: ResourceType, ctx: ResourceRequestContext): HandlerResult | Promise<HandlerResult> {
    const { info } = ctx;
    const sub = info.subresource!;
    const custom = this.subresourceHandlers.get(`${rt.group}/${rt.resource}/${sub}`);
    if (custom) return custom(rt, ctx);
    if (sub === 'status' && rt.statusSubresource) {
      const opts = { ...this.writeOptions(ctx), subresource: 'status' };
      if (info.verb === 'get') return { code: 200, body: this.ops.get(rt, info.namespace, info.name!) };
      if (info.verb === 'update') return this.update(rt, ctx, opts);
      if (info.verb === 'patch') return this.patch(rt, ctx, opts);
      throw methodNotAllowed(info.verb, { group: rt.group, resource: `${rt.resource}/status` });
    }
    if (sub === 'scale' && rt.scale) return this.scale(rt, ctx);
    if (sub === 'finalize' && rt.otherSubresources.includes('finalize') && info.verb === 'update') {
      return { code: 200, body: this.ops.finalizeNamespace(rt, info.name!, this.decodeBody(ctx, rt)) };
    }
    throw pathNotFound();
  }

  writeOptions(ctx: ResourceRequestContext): WriteOptions {
    const q = ctx.query;
    const fv = q.get('fieldValidation');
    if (fv !== null && fv !== '' && !['Strict', 'Warn', 'Ignore'].includes(fv)) {
      throw badRequest(`fieldValidation: Unsupported value: "${fv}": supported values: "Ignore", "Strict", "Warn"`);
    }
    const dryRun = q.getAll('dryRun');
    if (dryRun.some((d) => d !== 'All')) throw badRequest(`dryRun: Unsupported value: "${dryRun.find((d) => d !== 'All')}": supported values: "All"`);
    const ua = String(ctx.headers['user-agent'] ?? '');
    const fieldManager = q.get('fieldManager') ?? (ctx.info.verb === 'patch' && isApply(ctx) ? undefined : ua.split('/')[0] || 'unknown');
    return {
      dryRun: dryRun.length > 0,
      ...(fieldManager !== undefined ? { fieldManager } : {}),
      fieldValidation: (fv || 'Warn') as FieldValidation,
      force: queryBool(q.get('force')),
      user: ctx.user,
    };
  }

  deleteOptions(ctx: ResourceRequestContext): DeleteOptions {
    const q = ctx.query;
    // client-go sends the options as protobuf when it talks protobuf (kubectl drain --disable-eviction)
    const body: MetaDeleteOptions = ctx.body.length ? ((this.decodeBody(ctx, deleteOptionsKind) ?? {}) as MetaDeleteOptions) : {};
    const options: DeleteOptions = {};
    const policy = body.propagationPolicy ?? q.get('propagationPolicy') ?? undefined;
    const orphan = body.orphanDependents ?? (q.has('orphanDependents') ? queryBool(q.get('orphanDependents')) : undefined);
    validateDeleteOptions({ propagationPolicy: policy, orphanDependents: orphan });
    if (policy !== undefined) {
      options.propagationPolicy = policy as DeleteOptions['propagationPolicy'];
    } else {
      if (orphan === true) options.propagationPolicy = 'Orphan';
      if (orphan === false) options.propagationPolicy = 'Background';
    }
    const grace = body.gracePeriodSeconds ?? (q.has('gracePeriodSeconds') ? Number(q.get('gracePeriodSeconds')) : undefined);
    if (grace !== undefined) options.gracePeriodSeconds = grace;
    if (body.preconditions) options.preconditions = body.preconditions;
    options.dryRun = (Array.isArray(body.dryRun) && body.dryRun.includes('All')) || q.getAll('dryRun').includes('All');
    options.user = ctx.user;
    return options;
  }

  contentType(ctx: ResourceRequestContext): string {
    return String(ctx.headers['content-type'] ?? 'application/json').split(';')[0]!.trim().toLowerCase();
  }

  /** A patch or scale body as JSON; a body that does not decode is a 400. */
  decodeJson(body: Buffer): unknown {
    try {
      return decodeJsonText(body.toString('utf8'));
    } catch (err) {
      if (err instanceof BodyDecodeError) throw badRequest(err.message);
      throw err;
    }
  }

  /** An apply patch (YAML or JSON); a body that does not decode is a 400 "error decoding YAML: …". */
  decodeApplyPatch(body: Buffer): unknown {
    try {
      return decodeYamlText(body.toString('utf8'), { uniqueKeys: true });
    } catch (err) {
      if (err instanceof BodyDecodeError) throw badRequest(`error decoding YAML: ${err.message}`);
      throw err;
    }
  }

  /**
   * Keys given twice in a JSON create/update body (sigs.k8s.io/json keeps the last): under Strict a 400
   * `strict decoding error: duplicate field "…"` (with the unknown fields, as one list), under Warn one
   * warning each. A body that does not decode into the kind is left for the decoder's own error.
   */
  duplicateFieldWarnings(rt: ResourceType, ctx: ResourceRequestContext, body: unknown, opts: WriteOptions): string[] {
    if (opts.fieldValidation === 'Ignore' || !['application/json', ''].includes(this.contentType(ctx))) return [];
    const duplicates = duplicateFields(ctx.body.toString('utf8'), body).map((path) => `duplicate field "${path}"`);
    if (duplicates.length === 0 || opts.fieldValidation !== 'Strict') return duplicates;
    let unknown: string[];
    try {
      unknown = rt.strategy.dropUnknownFields?.(copyObject(body) as KubeObject) ?? [];
    } catch (err) {
      if (err instanceof TypeDecodeError) return [];
      throw err;
    }
    const reasons = strictDecodingReasons(duplicates, unknown);
    throw badRequest(`${rt.kind} in version "${rt.version}" cannot be handled as a ${rt.kind}: strict decoding error: ${reasons}`);
  }

  /**
   * Keys given twice in a merge or strategic-merge patch: warnings under Warn; under Strict the 422 a
   * patched object that does not decode gets (`patch: Invalid value: "<patched>": strict decoding error:
   * duplicate field "…", unknown field "…"`). Anything else wrong with the patch is left to the patch path.
   */
  private patchDuplicateWarnings(rt: ResourceType, ctx: ResourceRequestContext, type: string, body: unknown, opts: WriteOptions): string[] {
    if (opts.fieldValidation === 'Ignore' || (type !== 'application/merge-patch+json' && type !== 'application/strategic-merge-patch+json')) return [];
    const duplicates = duplicateFields(ctx.body.toString('utf8'), body).map((path) => `duplicate field "${path}"`);
    if (duplicates.length === 0 || opts.fieldValidation !== 'Strict' || body === null || typeof body !== 'object' || Array.isArray(body)) return duplicates;
    const stored = this.store.peek(rt.bucket, rt.namespaced ? ctx.info.namespace : undefined, ctx.info.name!);
    if (!stored) return duplicates;
    let patched: unknown;
    let unknown: string[];
    try {
      const current = this.ops.present(rt, stored as KubeObject);
      patched = type === 'application/merge-patch+json' ? applyMergePatch(current, body) : applyStrategicMergePatch(current, body);
      unknown = rt.strategy.dropUnknownFields?.(copyObject(patched) as KubeObject) ?? [];
    } catch {
      return duplicates;
    }
    const reasons = strictDecodingReasons(duplicates, unknown);
    throw invalidObject('', '', '', [invalid('patch', JSON.stringify(patched), `strict decoding error: ${reasons}`)]);
  }

  /**
   * The request body as JSON. `expected` is the endpoint's type: it names the type in protobuf decoding
   * errors and fills an envelope without a kind. Custom resources take no protobuf (415, as a real server),
   * nor do the built-in kinds without generated message tables (apiextensions.k8s.io, apiregistration.k8s.io).
   */
  decodeBody(ctx: ResourceRequestContext, expected?: Pick<ResourceType, 'group' | 'version' | 'kind' | 'custom'>): unknown {
    const type = this.contentType(ctx);
    if (type === 'application/json' || type === '' || type === 'application/yaml') {
      try {
        return type === 'application/yaml' ? decodeYamlText(ctx.body.toString('utf8')) : decodeJsonText(ctx.body.toString('utf8'));
      } catch (err) {
        if (!(err instanceof BodyDecodeError)) throw err;
        throw badRequest(expected ? unrecognizedObjectMessage(expected.kind, err.message, ctx.body) : err.message);
      }
    }
    const endpoint = expected && { apiVersion: expected.group ? `${expected.group}/${expected.version}` : expected.version, kind: expected.kind };
    const takesProtobuf = !expected || (!expected.custom && decodesKind(endpoint!));
    if (type === 'application/vnd.kubernetes.protobuf' && takesProtobuf) {
      try {
        return decodeKubernetesProtobuf(ctx.body, endpoint ?? { apiVersion: '', kind: '' });
      } catch (err) {
        if (err instanceof ProtobufBodyError) throw badRequest(err.message);
        throw err;
      }
    }
    throw unsupportedMediaType(takesProtobuf ? ['application/json', 'application/yaml', 'application/vnd.kubernetes.protobuf'] : ['application/json', 'application/yaml']);
  }

  private async patch(rt: ResourceType, ctx: ResourceRequestContext, opts: WriteOptions): Promise<HandlerResult> {
    const type = this.contentType(ctx);
    let body: unknown;
    if (type === 'application/apply-patch+yaml') body = this.decodeApplyPatch(ctx.body);
    else body = this.decodeJson(ctx.body);
    const duplicates = this.patchDuplicateWarnings(rt, ctx, type, body, opts);
    const { info } = ctx;
    const c = this.admissionContext(rt, ctx, opts);
    const old = this.store.peek(rt.bucket, rt.namespaced ? info.namespace : undefined, info.name!);
    const current = old ? this.ops.present(rt, old as KubeObject) : undefined;
    this.guardRbacWrite(rt, ctx, () => this.ops.patch(rt, info.namespace, info.name!, type, body, { ...opts, dryRun: true }).object, current);
    const r = await admittedWrite(
      this.admission, current ? 'UPDATE' : 'CREATE', c, this.ops, current, current,
      () => this.ops.patch(rt, info.namespace, info.name!, type, body, { ...opts, dryRun: true }),
      (mutated) =>
        mutated
          ? current
            ? this.ops.update(rt, info.namespace, info.name!, mutated, { ...opts, fieldValidation: 'Ignore' })
            : this.ops.create(rt, info.namespace, mutated, { ...opts, fieldValidation: 'Ignore' })
          : this.ops.patch(rt, info.namespace, info.name!, type, body, opts),
    );
    return { code: r.code, body: r.object, warnings: [...duplicates, ...(r.warnings ?? [])] };
  }

  listQuery(rt: ResourceType, ctx: ResourceRequestContext) {
    const q = ctx.query;
    const fieldSelector = parseFieldSelector(q.get('fieldSelector') ?? undefined);
    checkFieldSelector(rt, fieldSelector);
    const limit = q.get('limit');
    return {
      ...(ctx.info.namespace !== undefined ? { namespace: ctx.info.namespace } : {}),
      labelSelector: parseLabelSelector(q.get('labelSelector') ?? undefined),
      fieldSelector,
      ...(limit ? { limit: Number(limit) } : {}),
      ...(q.get('continue') ? { continueToken: q.get('continue')! } : {}),
      ...(q.get('resourceVersion') ? { resourceVersion: q.get('resourceVersion')! } : {}),
      ...(q.get('resourceVersionMatch') ? { resourceVersionMatch: q.get('resourceVersionMatch')! } : {}),
    };
  }

  private list(rt: ResourceType, ctx: ResourceRequestContext): HandlerResult {
    const page = listObjects(this.store, rt, this.listQuery(rt, ctx));
    return this.listResponse(rt, ctx, page, page.items.map((stored) => ({ stored, object: this.ops.presentShared(rt, stored) })));
  }

  /** A list answer (items, Table or metadata) of the page's objects as `rt` serves them. */
  listResponse(rt: ResourceType, ctx: ResourceRequestContext, page: ListPage, rows: { stored: KubeObject; object: KubeObject }[]): HandlerResult {
    const { shape, tableVersion } = negotiateResource(ctx.headers.accept, rt.custom);
    if (shape === 'table') {
      return {
        code: 200,
        body: buildTable(rt, rows, {
          now: this.now(),
          include: this.includeObject(ctx),
          version: tableVersion ?? 'v1',
          resourceVersion: page.resourceVersion,
          continueToken: page.continueToken ?? '',
          ...(page.remainingItemCount !== undefined ? { remaining: page.remainingItemCount } : {}),
        }),
      };
    }
    const metadata: Record<string, unknown> = { resourceVersion: page.resourceVersion };
    if (page.continueToken) metadata.continue = page.continueToken;
    if (page.remainingItemCount !== undefined) metadata.remainingItemCount = page.remainingItemCount;
    if (shape === 'metadata') {
      return { code: 200, body: { kind: 'PartialObjectMetadataList', apiVersion: 'meta.k8s.io/v1', metadata, items: rows.map((r) => ({ kind: 'PartialObjectMetadata', apiVersion: 'meta.k8s.io/v1', metadata: r.object.metadata })) } };
    }
    return { code: 200, body: { kind: rt.listKind, apiVersion: groupVersion(rt), metadata, items: rows.map((r) => r.object) } };
  }

  includeObject(ctx: ResourceRequestContext): IncludeObject {
    const v = ctx.query.get('includeObject');
    return v === 'Object' || v === 'None' ? v : 'Metadata';
  }

  /** GET/LIST of a virtual resource: its current objects, as an object, a list or a Table. */
  private readVirtual(rt: ResourceType, ctx: ResourceRequestContext, read: { objects: () => KubeObject[]; warning?: string }): HandlerResult {
    const warnings = read.warning ? [read.warning] : [];
    const objects = read.objects();
    if (ctx.info.verb === 'get') {
      const found = objects.find((o) => o.metadata.name === ctx.info.name);
      if (!found) throw notFound({ group: rt.group, resource: rt.resource }, ctx.info.name!);
      return { ...this.respondObject(rt, ctx, found), warnings };
    }
    const { shape, tableVersion } = negotiateResource(ctx.headers.accept, rt.custom);
    if (shape === 'table') {
      return { code: 200, warnings, body: buildTable(rt, objects.map((o) => ({ object: o, stored: o })), { now: this.now(), include: this.includeObject(ctx), version: tableVersion ?? 'v1', resourceVersion: '' }) };
    }
    return { code: 200, warnings, body: { kind: rt.listKind, apiVersion: groupVersion(rt), metadata: {}, items: objects } };
  }

  respondObject(rt: ResourceType, ctx: ResourceRequestContext, object: KubeObject): HandlerResult {
    const { shape, tableVersion } = negotiateResource(ctx.headers.accept, rt.custom);
    if (shape === 'table') {
      const stored = rt.strategy.toStorage ? rt.strategy.toStorage(copyObject(object)) : object;
      return { code: 200, body: buildTable(rt, [{ object, stored }], { now: this.now(), include: this.includeObject(ctx), version: tableVersion ?? 'v1', resourceVersion: object.metadata.resourceVersion }) };
    }
    if (shape === 'metadata') return { code: 200, body: { kind: 'PartialObjectMetadata', apiVersion: 'meta.k8s.io/v1', metadata: object.metadata } };
    return { code: 200, body: object };
  }

  private watch(rt: ResourceType, ctx: ResourceRequestContext, convert?: (stored: KubeObject) => Promise<KubeObject>): void {
    const q = ctx.query;
    const query = this.listQuery(rt, ctx);
    const { shape, tableVersion } = negotiateResource(ctx.headers.accept, rt.custom);
    const timeout = q.get('timeoutSeconds');
    const rv = q.get('resourceVersion') ?? undefined;
    const initialEvents = q.has('sendInitialEvents') ? queryBool(q.get('sendInitialEvents')) : undefined;
    if (initialEvents !== undefined && (q.get('resourceVersionMatch') !== 'NotOlderThan' || !queryBool(q.get('allowWatchBookmarks')))) {
      const errs = [];
      if (q.get('resourceVersionMatch') !== 'NotOlderThan') errs.push(invalid('resourceVersionMatch', q.get('resourceVersionMatch') ?? '', "sendInitialEvents requires setting resourceVersionMatch to NotOlderThan"));
      if (!queryBool(q.get('allowWatchBookmarks'))) errs.push(forbidden('allowWatchBookmarks', 'sendInitialEvents requires setting allowWatchBookmarks to true'));
      throw invalidObject('ListOptions', 'meta.k8s.io', '', errs);
    }
    this.watches.start(
      {
        rt,
        ...(query.namespace !== undefined ? { namespace: query.namespace } : {}),
        labelSelector: query.labelSelector,
        fieldSelector: query.fieldSelector,
        ...(rv !== undefined ? { resourceVersion: rv } : {}),
        bookmarks: queryBool(q.get('allowWatchBookmarks')),
        ...(initialEvents ? { sendInitialEvents: true } : {}),
        timeoutSeconds: timeout ? Number(timeout) : 300 + Math.floor(Math.random() * 300),
        shape,
        ...(tableVersion ? { tableVersion } : {}),
        ...(convert ? { convert } : {}),
      },
      ctx.res,
    );
  }

  private deleteCollection(rt: ResourceType, ctx: ResourceRequestContext): HandlerResult {
    if (!rt.verbs.includes('deletecollection')) throw methodNotAllowed('deletecollection', { group: rt.group, resource: rt.resource });
    const page = listObjects(this.store, rt, { ...this.listQuery(rt, ctx), limit: 0 });
    const options = this.deleteOptions(ctx);
    const items: unknown[] = [];
    for (const o of page.items) {
      try {
        const r = this.ops.delete(rt, o.metadata.namespace, o.metadata.name, options);
        items.push(r.body);
      } catch (err) {
        if (!(err instanceof ApiError && err.code === 404)) throw err;
      }
    }
    return { code: 200, body: { kind: rt.listKind, apiVersion: groupVersion(rt), metadata: { resourceVersion: String(this.store.resourceVersion) }, items: items.filter((i) => (i as KubeObject).kind !== 'Status') } };
  }

  scale(rt: ResourceType, ctx: ResourceRequestContext): HandlerResult {
    const { info } = ctx;
    const scale = rt.scale!;
    const toScale = (o: KubeObject): Record<string, unknown> => {
      const selector = scale.labelSelectorPath ? readPath(o, scale.labelSelectorPath) : undefined;
      const status: Record<string, unknown> = { replicas: Number(readPath(o, scale.statusReplicasPath) ?? 0) };
      if (selector !== undefined) status.selector = typeof selector === 'string' ? selector : labelSelectorToString((scale.selectorIsMap ? { matchLabels: selector } : selector) as never);
      return {
        kind: 'Scale',
        apiVersion: 'autoscaling/v1',
        metadata: { name: o.metadata.name, namespace: o.metadata.namespace, uid: o.metadata.uid, resourceVersion: o.metadata.resourceVersion, creationTimestamp: o.metadata.creationTimestamp },
        spec: { replicas: Number(readPath(o, scale.specReplicasPath) ?? 0) },
        status,
      };
    };
    const current = this.ops.get(rt, info.namespace, info.name!);
    if (info.verb === 'get') return { code: 200, body: toScale(current) };
    let replicas: unknown;
    let rv: string | undefined;
    if (info.verb === 'update') {
      const body = this.decodeBody(ctx, { group: 'autoscaling', version: 'v1', kind: 'Scale', custom: false }) as Scale | undefined;
      replicas = body?.spec?.replicas;
      rv = body?.metadata?.resourceVersion;
    } else if (info.verb === 'patch' && this.contentType(ctx) === 'application/apply-patch+yaml') {
      return this.applyScale(rt, ctx, toScale);
    } else if (info.verb === 'patch') {
      const type = this.contentType(ctx);
      const body = this.decodeJson(ctx.body);
      if (type === 'application/merge-patch+json' || type === 'application/strategic-merge-patch+json') replicas = (body as Scale | null)?.spec?.replicas;
      else if (type === 'application/json-patch+json' && Array.isArray(body)) replicas = (body as JsonPatchOperation[]).find((op) => op.path === '/spec/replicas')?.value;
      else throw unsupportedMediaType(['application/json-patch+json', 'application/merge-patch+json', 'application/apply-patch+yaml']);
      rv = type === 'application/json-patch+json' ? undefined : (body as Scale | null)?.metadata?.resourceVersion;
    } else throw methodNotAllowed(info.verb, { group: rt.group, resource: `${rt.resource}/scale` });
    checkScaleReplicas(info.name!, replicas);
    const next = copyObject(current);
    writePath(next, scale.specReplicasPath, replicas);
    if (rv) next.metadata.resourceVersion = rv;
    const r = this.ops.update(rt, info.namespace, info.name!, next, { ...this.writeOptions(ctx), subresource: 'scale' });
    return { code: 200, body: toScale(r.object) };
  }

  /**
   * Server-side apply of an autoscaling/v1 Scale: the applier owns the parent's replicas field
   * (recorded with subresource "scale"), conflicting with other owners of it unless forced.
   */
  private applyScale(rt: ResourceType, ctx: ResourceRequestContext, toScale: (o: KubeObject) => Record<string, unknown>): HandlerResult {
    const { info } = ctx;
    const decoded = this.decodeApplyPatch(ctx.body);
    if (decoded === null || typeof decoded !== 'object' || Array.isArray(decoded)) throw badRequest('error decoding YAML: the applied configuration must be an object');
    const body = decoded as Scale;
    if (body.apiVersion !== 'autoscaling/v1') {
      throw badRequest(`Incorrect version specified in apply patch. Specified patch version: ${body.apiVersion ?? ''}, expected: autoscaling/v1`);
    }
    if (body.kind !== 'Scale') {
      throw badRequest(`invalid object type: ${body.apiVersion ?? ''}, Kind=${body.kind ?? ''}: the scale subresource takes autoscaling/v1, Kind=Scale`);
    }
    if (body.metadata?.name !== undefined && body.metadata.name !== info.name) {
      throw badRequest(`the name of the object (${body.metadata.name}) does not match the name on the URL (${info.name})`);
    }
    const replicas = body.spec?.replicas;
    checkScaleReplicas(info.name!, replicas);
    const config: KubeObject = { apiVersion: groupVersion(rt), kind: rt.kind, metadata: { name: info.name! } };
    if (typeof body.metadata?.resourceVersion === 'string') config.metadata.resourceVersion = body.metadata.resourceVersion;
    writePath(config, rt.scale!.specReplicasPath, replicas);
    const r = this.ops.patch(rt, info.namespace, info.name!, 'application/apply-patch+yaml', config, { ...this.writeOptions(ctx), subresource: 'scale' });
    return { code: 200, body: toScale(r.object) };
  }
}

/** The Scale validation a real server runs before touching the parent: spec.replicas is a non-negative number. */
function checkScaleReplicas(name: string, replicas: unknown): asserts replicas is number {
  if (typeof replicas !== 'number') {
    throw new ApiError(422, 'Invalid', `Scale.autoscaling "${name}" is invalid: spec.replicas: Invalid value: ${JSON.stringify(replicas ?? null)}: must be a number`);
  }
  if (replicas < 0) throw invalidObject('Scale', 'autoscaling', name, [invalid('spec.replicas', replicas, 'must be greater than or equal to 0')]);
}

/**
 * The registry's key function refuses a name that is not a valid path segment (path.IsValidPathSegmentName):
 * `.` and `..`, and names holding `/` or `%`, are a 400 before any storage is read.
 */
function checkPathSegmentName(name: string): void {
  const why = name === '.' || name === '..' ? [`may not be '${name}'`] : ['/', '%'].filter((c) => name.includes(c)).map((c) => `may not contain '${c}'`);
  if (why.length) throw badRequest(`Name parameter invalid: ${JSON.stringify(name)}: ${why.join(';')}`);
}

/** One operation of a JSON patch body, as decoded (fields unchecked). */
interface JsonPatchOperation {
  path?: unknown;
  value?: unknown;
}

function isApply(ctx: ResourceRequestContext): boolean {
  return String(ctx.headers['content-type'] ?? '').startsWith('application/apply-patch+yaml');
}

function readPath(o: unknown, path: string): unknown {
  let node = o;
  for (const p of path.replace(/^\./, '').split('.')) node = node === null || node === undefined ? undefined : (node as Record<string, unknown>)[p];
  return node;
}

function writePath(o: Record<string, unknown>, path: string, value: unknown): void {
  const parts = path.replace(/^\./, '').split('.');
  let node = o;
  for (const p of parts.slice(0, -1)) node = (node[p] ??= {}) as Record<string, unknown>;
  node[parts[parts.length - 1]!] = value;
}

