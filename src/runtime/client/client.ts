/**
 * The client reconcilers use: reads (get/list) of kinds the cache watches are served from the cache, every
 * other read and every write goes to the API server. Writes cover create, update, merge/JSON/strategic
 * patch, server-side apply (typed by the generated apply configurations), delete with propagation, and the
 * status subresource (`status()`).
 */
import type { ApplyObject, AppliedObject } from './apply.js';
import type { KubeObject } from './object.js';
import { ApiError } from './api-error.js';
import { apiVersionOf, type KindInfo, type KindRef, type KindRegistry } from './kinds.js';
import { acceptFor, asDescribedKind } from './partial-metadata.js';
import { resourcePath, selectorString } from './paths.js';
import type { RequestOptions, Transport } from './transport.js';
import { keepShape } from '../keep-shape.js';

/** Per-client request settings: a deadline for each request (ms, 0 = none), a signal that aborts them. */
export type ClientRequestOptions = Pick<RequestOptions, 'timeoutMs' | 'signal' | 'ignoreFence'>;

export interface ObjectKey {
  namespace?: string;
  name: string;
}

export interface ListOptions {
  namespace?: string;
  labelSelector?: string | Record<string, string>;
  fieldSelector?: string;
  /** Served from a cache index (`indexField`); only for kinds the cache watches. */
  matchingFields?: Record<string, string>;
}

export type PatchType = 'merge' | 'json' | 'strategic';

export interface WriteOptions {
  dryRun?: boolean;
  fieldManager?: string;
}

export interface ApplyOptions {
  /**
   * Who owns the fields the configuration states (`?fieldManager=`). Required: from here, or from the client's
   * field owner (`withFieldOwner`, the manager's `fieldManager` option); an apply with neither is refused.
   */
  fieldManager?: string;
  /** Take the fields other managers own instead of failing with 409 Conflict (`?force=true`). */
  force?: boolean;
  dryRun?: boolean;
}

/** Writes to the status subresource (controller-runtime's `client.Status()`): update, patch and apply on `/status`. */
export interface StatusWriter {
  update<T extends KubeObject>(obj: T, options?: WriteOptions): Promise<T>;
  patch<T extends KubeObject>(target: T, patch: unknown, type?: PatchType, options?: WriteOptions): Promise<T>;
  apply<C extends ApplyObject>(config: C, options: ApplyOptions): Promise<AppliedObject<C>>;
}

export type PropagationPolicy = 'Background' | 'Foreground' | 'Orphan';

export interface DeleteOptions {
  propagationPolicy?: PropagationPolicy;
  gracePeriodSeconds?: number;
  preconditions?: { uid?: string; resourceVersion?: string };
}

/** What the cache offers the client; the manager wires its cache in. */
export interface CacheReader {
  serves(info: KindInfo): boolean;
  /** The cached object; may answer at once (no promise) when the kind's cache has synced. */
  get<T extends KubeObject>(info: KindInfo<T>, key: ObjectKey): T | undefined | Promise<T | undefined>;
  list<T extends KubeObject>(info: KindInfo<T>, options: ListOptions): Promise<T[]>;
  /** Told of each of this client's own writes (its answer; a delete's may be a Status), for read-your-own-writes. */
  wrote?(info: KindInfo, written: KubeObject | undefined, key: ObjectKey, deletedUid?: string): void;
}

const contentTypes: Record<PatchType | 'apply', string> = {
  merge: 'application/merge-patch+json',
  json: 'application/json-patch+json',
  strategic: 'application/strategic-merge-patch+json',
  apply: 'application/apply-patch+yaml',
};

interface ListBody<T> {
  items: T[];
  metadata?: { resourceVersion?: string; continue?: string };
}

export class Client {
  constructor(
    readonly transport: Transport,
    readonly kinds: KindRegistry,
    private readonly cache?: CacheReader,
    /** The field manager of applies that name none (controller-runtime's `client.WithFieldOwner`); none by default. */
    private readonly fieldOwner: string | undefined = undefined,
    private readonly requestDefaults: ClientRequestOptions = {},
  ) {}

  /** The same client without the cache: every read goes to the API server (controller-runtime's APIReader). */
  apiReader(): Client {
    return new Client(this.transport, this.kinds, undefined, this.fieldOwner, this.requestDefaults);
  }

  withCache(cache: CacheReader): Client {
    return new Client(this.transport, this.kinds, cache, this.fieldOwner, this.requestDefaults);
  }

  /** The same client whose requests get these settings, e.g. `{ timeoutMs: 5000 }` or an abort signal. */
  withRequestOptions(options: ClientRequestOptions): Client {
    return new Client(this.transport, this.kinds, this.cache, this.fieldOwner, { ...this.requestDefaults, ...options });
  }

  /** The same client applying as `fieldManager` when a call names none (controller-runtime's `client.WithFieldOwner`). */
  withFieldOwner(fieldManager: string): Client {
    return new Client(this.transport, this.kinds, this.cache, fieldManager, this.requestDefaults);
  }

  /** The status subresource: `client.status().apply(config, { fieldManager })`, `.update(obj)`, `.patch(obj, patch)`. */
  status(): StatusWriter {
    return {
      update: (obj, options) => this.updateStatus(obj, options),
      patch: (target, patch, type, options) => this.patchStatus(target, patch, type, options),
      apply: (config, options) => this.applyStatus(config, options),
    };
  }

  /**
   * Reads one object; rejects with ApiError 404 (see isNotFound) when it does not exist. Not an async
   * function: a synced cache's answer is one settled promise, without an async function's frame per read
   * (every reconcile reads its object). Failures still come as rejections, never as throws.
   */
  get<T extends KubeObject>(kind: KindRef<T>, key: ObjectKey): Promise<T> {
    try {
      const info = this.kinds.resolve(kind);
      if (!this.cache?.serves(info)) return this.getFromServer(info, key);
      const cached = this.cache.get(info, key);
      if (cached instanceof Promise) return cached.then((found) => found ?? Promise.reject(notFound(info, key)));
      return cached ? Promise.resolve(cached) : Promise.reject(notFound(info, key));
    } catch (err) {
      return Promise.reject(err);
    }
  }

  private async getFromServer<T extends KubeObject>(info: KindInfo<T>, key: ObjectKey): Promise<T> {
    const obj = await this.transport.request<T>('GET', resourcePath(info, key.namespace, key.name), { ...this.requestDefaults, accept: acceptFor(info, false) });
    return withTypeMeta(obj, info);
  }

  /** Lists objects (every page); from the cache when the kind is watched. */
  async list<T extends KubeObject>(kind: KindRef<T>, options: ListOptions = {}): Promise<T[]> {
    const info = this.kinds.resolve(kind);
    if (this.cache?.serves(info)) return this.cache.list(info, options);
    if (options.matchingFields) throw new Error(`list ${info.kind}: matchingFields needs a cache that watches ${info.kind} (use fieldSelector for the server)`);
    const items: T[] = [];
    let token: string | undefined;
    do {
      const page = await this.listPage<T>(info, options, token);
      items.push(...page.items);
      token = page.continue;
    } while (token);
    return items;
  }

  /** One page of a server list, with the list's resourceVersion (informers start their watch from it). */
  async listPage<T extends KubeObject>(info: KindInfo<T>, options: ListOptions & { limit?: number; resourceVersion?: string }, continueToken?: string): Promise<{ items: T[]; resourceVersion: string; continue?: string }> {
    const body = await this.transport.request<ListBody<T>>('GET', resourcePath(info, options.namespace), {
      ...this.requestDefaults,
      query: { labelSelector: selectorString(options.labelSelector), fieldSelector: options.fieldSelector, limit: options.limit, continue: continueToken, resourceVersion: continueToken ? undefined : options.resourceVersion },
      accept: acceptFor(info, true),
    });
    return {
      items: (body.items ?? []).map((item) => withTypeMeta(item, info)),
      resourceVersion: body.metadata?.resourceVersion ?? '',
      ...(body.metadata?.continue ? { continue: body.metadata.continue } : {}),
    };
  }

  async create<T extends KubeObject>(obj: T, options: WriteOptions = {}): Promise<T> {
    const info = this.kinds.resolve<T>(obj);
    const created = await this.transport.request<T>('POST', resourcePath(info, obj.metadata?.namespace), { ...this.requestDefaults, body: obj, query: this.writeQuery(options) });
    return this.wrote(info, withTypeMeta(created, info), options);
  }

  /** Replaces the object (optimistic concurrency on metadata.resourceVersion); status is ignored by the server. */
  async update<T extends KubeObject>(obj: T, options: WriteOptions = {}): Promise<T> {
    return this.put(obj, undefined, options);
  }

  /** Writes `status` through the status subresource. */
  async updateStatus<T extends KubeObject>(obj: T, options: WriteOptions = {}): Promise<T> {
    return this.put(obj, 'status', options);
  }

  /** Patches the object named by `target` (an object or kind + key). */
  async patch<T extends KubeObject>(target: T, patch: unknown, type: PatchType = 'merge', options: WriteOptions = {}): Promise<T> {
    return this.sendPatch(target, patch, type, undefined, options);
  }

  async patchStatus<T extends KubeObject>(target: T, patch: unknown, type: PatchType = 'merge', options: WriteOptions = {}): Promise<T> {
    return this.sendPatch(target, patch, type, 'status', options);
  }

  /**
   * Server-side apply (`PATCH application/apply-patch+yaml`) of `config` as `options.fieldManager`: a generated
   * apply configuration (`ac.CronJob(name, namespace).withSpec(…)`), `ApplyConfigurationOf<Kind>`, or a plain
   * partial object with apiVersion, kind and metadata.name. Answers with the object as stored, typed as the
   * configuration's kind. Fields another manager owns with a different value fail with 409 Conflict unless `force`.
   */
  async apply<C extends ApplyObject>(config: C, options: ApplyOptions): Promise<AppliedObject<C>> {
    return this.applyTo(config, undefined, options);
  }

  /** Server-side apply to the status subresource (`/status`); the same as `status().apply`. */
  async applyStatus<C extends ApplyObject>(config: C, options: ApplyOptions): Promise<AppliedObject<C>> {
    return this.applyTo(config, 'status', options);
  }

  /** Deletes the object; throws ApiError 404 if it is already gone. */
  async delete(obj: KubeObject, options: DeleteOptions = {}): Promise<void> {
    const info = this.kinds.resolve(obj);
    const body: Record<string, unknown> = { apiVersion: 'v1', kind: 'DeleteOptions' };
    if (options.propagationPolicy) body.propagationPolicy = options.propagationPolicy;
    if (options.gracePeriodSeconds !== undefined) body.gracePeriodSeconds = options.gracePeriodSeconds;
    if (options.preconditions) body.preconditions = options.preconditions;
    const answer = await this.transport.request<KubeObject>('DELETE', resourcePath(info, obj.metadata?.namespace, obj.metadata?.name), { ...this.requestDefaults, body });
    this.cache?.wrote?.(info, answer, { namespace: obj.metadata?.namespace, name: obj.metadata?.name ?? '' }, obj.metadata?.uid ?? '');
  }

  private async put<T extends KubeObject>(obj: T, subresource: string | undefined, options: WriteOptions): Promise<T> {
    const info = this.kinds.resolve<T>(obj);
    const path = resourcePath(info, obj.metadata?.namespace, obj.metadata?.name, subresource);
    return this.wrote(info, withTypeMeta(await this.transport.request<T>('PUT', path, { ...this.requestDefaults, body: obj, query: this.writeQuery(options) }), info), options);
  }

  private async sendPatch<T extends KubeObject>(target: T, patch: unknown, type: PatchType, subresource: string | undefined, options: WriteOptions): Promise<T> {
    const info = this.kinds.resolve<T>(target);
    const path = resourcePath(info, target.metadata?.namespace, target.metadata?.name, subresource);
    const result = await this.transport.request<T>('PATCH', path, { ...this.requestDefaults, body: patch, contentType: contentTypes[type], query: this.writeQuery(options) });
    return this.wrote(info, withTypeMeta(result, info), options);
  }

  private async applyTo<C extends ApplyObject>(config: C, subresource: string | undefined, options: ApplyOptions | undefined): Promise<AppliedObject<C>> {
    const fieldManager = options?.fieldManager || this.fieldOwner;
    const what = `apply${subresource ? ` ${subresource}` : ''} ${config?.kind ?? '(no kind)'} ${config?.metadata?.namespace ? `${config.metadata.namespace}/` : ''}${config?.metadata?.name ?? ''}`.trimEnd();
    // Refused before sending, as client-go refuses a configuration without a name; the API server would
    // answer 422 "fieldManager: Required value: is required for apply patch".
    if (!fieldManager) throw new Error(`${what}: fieldManager is required (give { fieldManager } or the client a field owner)`);
    if (!config?.metadata?.name) throw new Error(`${what}: metadata.name must be provided to apply`);
    const info = this.kinds.resolve<AppliedObject<C>>(config as KubeObject);
    const path = resourcePath(info, config.metadata.namespace, config.metadata.name, subresource);
    const query = { fieldManager, force: options?.force ? 'true' : undefined, dryRun: options?.dryRun ? 'All' : undefined };
    const result = await this.transport.request<AppliedObject<C>>('PATCH', path, { ...this.requestDefaults, body: config, contentType: contentTypes.apply, query });
    return this.wrote(info, withTypeMeta(result, info), { ...(options?.dryRun ? { dryRun: true } : {}) });
  }

  /** Tells the cache of a write's answer (read-your-own-writes); dry runs wrote nothing. */
  private wrote<T extends KubeObject>(info: KindInfo, written: T, options: WriteOptions): T {
    if (!options.dryRun) this.cache?.wrote?.(info, written, { namespace: written.metadata?.namespace, name: written.metadata?.name ?? '' });
    return written;
  }

  private writeQuery(options: WriteOptions): Record<string, string | undefined> {
    return { dryRun: options.dryRun ? 'All' : undefined, fieldManager: options.fieldManager };
  }
}

// One client lives on between managers, so the read path's compiled code stays valid (keep-shape.ts).
keepShape(new Client(undefined as never, undefined as never));

/** Lists leave apiVersion/kind off their items; put them back so objects are self-describing. */
function withTypeMeta<T extends KubeObject>(obj: T, info: KindInfo): T {
  if (info.metadataOnly) return asDescribedKind(obj, info);
  if (!obj.apiVersion) obj.apiVersion = apiVersionOf(info);
  if (!obj.kind) obj.kind = info.kind;
  return obj;
}

function notFound(info: KindInfo, key: ObjectKey): ApiError {
  const resource = info.group ? `${info.plural}.${info.group}` : info.plural;
  return new ApiError(404, { kind: 'Status', apiVersion: 'v1', status: 'Failure', reason: 'NotFound', code: 404, message: `${resource} "${key.name}" not found` }, `get ${info.kind} ${key.namespace ? `${key.namespace}/` : ''}${key.name} (cache)`);
}
