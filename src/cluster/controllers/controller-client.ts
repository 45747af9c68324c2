/**
 * How a built-in controller reads and writes: through the same ObjectOperations (defaulting,
 * validation, admission, no-op detection) that HTTP requests use, under the controller's own
 * identity, with every write recorded in the cluster's request log for audit and RBAC accounting.
 */
import { ApiError } from '../errors/status-errors.js';
import type { RequestLogEntry } from '../http/request-log.js';
import type { DeleteOptions, ObjectOperations, WriteResult } from '../registry/object-operations.js';
import type { ResourceCatalog } from '../registry/resource-catalog.js';
import type { ResourceType } from '../registry/resource-type.js';
import type { KubeObject, NewKubeObject, ObjectStore } from '../store/object-store.js';
import { AdmissionPending, type ControllerAdmission } from '../admission/controller-admission.js';
import type { UserInfo } from '../http/authentication.js';
import { bindPod } from '../registry/builtin/binding-kinds.js';

/** Who a controller is: the user of its requests and the field manager of its writes. */
export interface ControllerIdentity {
  user: string;
  groups?: string[];
  fieldManager: string;
}

export interface ControllerClientParts {
  store: ObjectStore;
  operations: ObjectOperations;
  catalog: ResourceCatalog;
  /** Appends to the cluster's request log (absent: writes are not logged). */
  recordRequest?: (entry: RequestLogEntry) => void;
  /** Admission webhooks for controller writes (absent: none are called). */
  admission?: ControllerAdmission;
}

/** `group/resource` (`batch/jobs`) or a core `resource` (`pods`). */
export type ResourceName = string;

function splitName(name: string): { group: string; resource: string } {
  const slash = name.indexOf('/');
  return slash === -1 ? { group: '', resource: name } : { group: name.slice(0, slash), resource: name.slice(slash + 1) };
}

const defaultGroups = ['system:serviceaccounts', 'system:serviceaccounts:kube-system', 'system:authenticated'];

export class ControllerClient {
  constructor(private readonly parts: ControllerClientParts, readonly identity: ControllerIdentity) {}

  /** The served type of a resource (first version); throws when it is not served. */
  type(name: ResourceName | ResourceType): ResourceType {
    if (typeof name !== 'string') return name;
    const { group, resource } = splitName(name);
    const rt = this.parts.catalog.versionsOf(group, resource)[0];
    if (!rt) throw new Error(`built-in controller ${this.identity.user}: resource ${name} is not served`);
    return rt;
  }

  /** The served type storing objects in `bucket` (undefined when none is served). */
  typeOfBucket(bucket: string): ResourceType | undefined {
    return this.parts.catalog.all().find((rt) => rt.bucket === bucket);
  }

  /** The served type of a kind in a group (first version), e.g. an owner reference's target. */
  typeOfKind(group: string, kind: string): ResourceType | undefined {
    return this.parts.catalog.all().find((rt) => rt.group === group && rt.kind === kind);
  }

  /** Reads from the store (the controller's informer cache); undefined when absent. */
  get(name: ResourceName | ResourceType, namespace: string | undefined, objectName: string): KubeObject | undefined {
    const rt = this.type(name);
    const stored = this.parts.store.get(rt.bucket, rt.namespaced ? namespace : undefined, objectName);
    return stored ? this.present(rt, stored) : undefined;
  }

  /** The stored object itself, without a copy (frozen and shared: read only, never passed to a write) — for checks on hot paths. */
  getShared(name: ResourceName | ResourceType, namespace: string | undefined, objectName: string): Readonly<KubeObject> | undefined {
    const rt = this.type(name);
    return this.parts.store.peek(rt.bucket, rt.namespaced ? namespace : undefined, objectName);
  }

  /** Objects of a resource, optionally of one namespace, sorted by namespace and name. */
  list(name: ResourceName | ResourceType, namespace?: string): KubeObject[] {
    return this.listType(this.type(name), namespace);
  }

  /**
   * The stored objects themselves, without copies (frozen and shared: read only, never passed to a
   * write) — for scans on hot paths such as a ReplicaSet looking over its namespace's pods.
   */
  listShared(name: ResourceName | ResourceType, namespace?: string): ReadonlyArray<Readonly<KubeObject>> {
    return this.parts.store.listShared(this.type(name).bucket, namespace);
  }

  private listType(rt: ResourceType, namespace?: string): KubeObject[] {
    return this.parts.store.list(rt.bucket, namespace).map((o) => this.present(rt, o));
  }

  create(name: ResourceName | ResourceType, namespace: string | undefined, newObject: NewKubeObject): KubeObject {
    const body = newObject as KubeObject; // the registry names it from generateName
    const rt = this.type(name);
    const opts = this.writeOptions();
    return this.logged('create', rt, namespace, body.metadata?.name, undefined, () =>
      this.admitted('CREATE', rt, namespace, undefined, undefined, body, undefined,
        () => this.parts.operations.create(rt, namespace, body, { ...opts, dryRun: true }),
        (mutated) => this.parts.operations.create(rt, namespace, mutated ?? body, mutated ? { ...opts, fieldValidation: 'Ignore' } : opts),
      ),
    );
  }

  /** PUT of the whole object (optimistic: carries the resourceVersion it was read at). */
  update(name: ResourceName | ResourceType, object: KubeObject): KubeObject {
    return this.put(this.type(name), object, undefined);
  }

  updateStatus(name: ResourceName | ResourceType, object: KubeObject): KubeObject {
    return this.put(this.type(name), object, 'status');
  }

  private put(rt: ResourceType, object: KubeObject, subresource: 'status' | undefined): KubeObject {
    const ns = object.metadata.namespace;
    const name = object.metadata.name;
    const opts = { ...this.writeOptions(), ...(subresource ? { subresource } : {}) };
    return this.logged('update', rt, ns, name, subresource, () =>
      this.admitted('UPDATE', rt, ns, name, subresource, object, () => this.get(rt, ns, name),
        () => this.parts.operations.update(rt, ns, name, object, { ...opts, dryRun: true }),
        (mutated) => this.parts.operations.update(rt, ns, name, mutated ?? object, mutated ? { ...opts, fieldValidation: 'Ignore' } : opts),
      ),
    );
  }

  /** JSON merge patch of the main resource. */
  mergePatch(name: ResourceName | ResourceType, namespace: string | undefined, objectName: string, patch: Record<string, unknown>): KubeObject {
    const rt = this.type(name);
    const opts = this.writeOptions();
    const type = 'application/merge-patch+json';
    return this.logged('patch', rt, namespace, objectName, undefined, () => {
      const current = this.get(rt, namespace, objectName);
      return this.admitted('UPDATE', rt, namespace, objectName, undefined, current ?? ({ metadata: { name: objectName } } as KubeObject), () => current,
        () => this.parts.operations.patch(rt, namespace, objectName, type, patch, { ...opts, dryRun: true }),
        (mutated) => (mutated ? this.parts.operations.update(rt, namespace, objectName, mutated, { ...opts, fieldValidation: 'Ignore' }) : this.parts.operations.patch(rt, namespace, objectName, type, patch, opts)),
      );
    });
  }

  /** Runs a write through the cluster's admission webhooks (when any apply), as HTTP writes do. */
  private admitted(
    op: 'CREATE' | 'UPDATE',
    rt: ResourceType,
    namespace: string | undefined,
    name: string | undefined,
    subresource: string | undefined,
    body: KubeObject,
    old: (() => KubeObject | undefined) | undefined,
    preview: () => WriteResult,
    write: (mutated: KubeObject | undefined) => WriteResult,
  ): KubeObject {
    const admission = this.parts.admission;
    // with no webhook configuration stored, none applies: the write goes through without reading the old object for them
    if (!admission?.configured()) return write(undefined).object;
    return admission.write({ op, rt, namespace: rt.namespaced ? namespace : undefined, name, ...(subresource ? { subresource } : {}), user: this.user(), body, old: old?.(), preview, write }).object;
  }

  private user(): UserInfo {
    return { username: this.identity.user, groups: this.identity.groups ?? defaultGroups };
  }

  /** DELETE; NotFound counts as done (returns undefined). */
  delete(name: ResourceName | ResourceType, namespace: string | undefined, objectName: string, options: DeleteOptions = {}): KubeObject | undefined {
    const rt = this.type(name);
    try {
      const result = this.logged('delete', rt, namespace, objectName, undefined, () => {
        const current = this.parts.admission?.configured() ? this.get(rt, namespace, objectName) : undefined;
        if (current) this.parts.admission!.delete(rt, current, this.user());
        return this.parts.operations.delete(rt, namespace, objectName, options).body;
      });
      return (result as KubeObject).metadata?.name ? (result as KubeObject) : undefined;
    } catch (err) {
      if (err instanceof ApiError && err.code === 404) return undefined;
      throw err;
    }
  }

  /** POST pods/<name>/binding: binds the pod (checked against its uid) to `nodeName`; 409 when already bound. */
  bind(namespace: string, name: string, uid: string, nodeName: string, now: number): KubeObject {
    const rt = this.type('pods');
    const binding = { apiVersion: 'v1', kind: 'Binding', metadata: { name, namespace, uid }, target: { apiVersion: 'v1', kind: 'Node', name: nodeName } };
    return this.logged('create', rt, namespace, name, 'binding', () => bindPod(this.parts.operations, rt, namespace, binding, now));
  }

  /** PUT namespaces/<n>/finalize with the given spec.finalizers. */
  finalizeNamespace(namespaceName: string, finalizers: string[]): KubeObject {
    const rt = this.type('namespaces');
    return this.logged('update', rt, undefined, namespaceName, 'finalize', () =>
      this.parts.operations.finalizeNamespace(rt, namespaceName, { spec: { finalizers } }),
    );
  }

  /** The store already hands out copies: only convert when the type reads through a conversion. */
  private present(rt: ResourceType, copy: KubeObject): KubeObject {
    if (rt.strategy.fromStorage) return this.parts.operations.present(rt, copy);
    const apiVersion = rt.group ? `${rt.group}/${rt.version}` : rt.version;
    const object = { apiVersion, kind: rt.kind, ...copy } as KubeObject;
    object.apiVersion = apiVersion;
    object.kind = rt.kind;
    return object;
  }

  private writeOptions(): { fieldManager: string; user: UserInfo } {
    return { fieldManager: this.identity.fieldManager, user: this.user() };
  }

  private logged<T>(verb: string, rt: ResourceType, namespace: string | undefined, name: string | undefined, subresource: string | undefined, run: () => T): T {
    const entry: RequestLogEntry = {
      time: new Date().toISOString(),
      user: this.identity.user,
      groups: this.identity.groups ?? defaultGroups,
      method: { create: 'POST', update: 'PUT', patch: 'PATCH', delete: 'DELETE' }[verb] ?? 'GET',
      path: resourcePath(rt, rt.namespaced ? namespace : undefined, verb === 'create' && !subresource ? undefined : name, subresource),
      verb,
      group: rt.group,
      version: rt.version,
      resource: rt.resource,
      code: 0,
    };
    if (subresource) entry.subresource = subresource;
    if (rt.namespaced && namespace) entry.namespace = namespace;
    if (name && (verb !== 'create' || subresource)) entry.name = name;
    try {
      const result = run();
      entry.code = verb === 'create' ? 201 : 200;
      return result;
    } catch (err) {
      if (err instanceof AdmissionPending) entry.code = -1; // not a request yet: the retry is logged
      else entry.code = err instanceof ApiError ? err.code : 500;
      throw err;
    } finally {
      if (entry.code !== -1) this.parts.recordRequest?.(entry);
    }
  }
}

function resourcePath(rt: ResourceType, namespace: string | undefined, name: string | undefined, subresource: string | undefined): string {
  const root = rt.group ? `/apis/${rt.group}/${rt.version}` : `/api/${rt.version}`;
  const ns = namespace ? `/namespaces/${namespace}` : '';
  return `${root}${ns}/${rt.resource}${name ? `/${name}` : ''}${subresource ? `/${subresource}` : ''}`;
}

/** True for an ApiError with the given HTTP code. */
export function isApiError(err: unknown, code: number): boolean {
  return err instanceof ApiError && err.code === code;
}
