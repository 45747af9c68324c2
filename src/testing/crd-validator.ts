/**
 * `crdValidator(crdPath)`: unit tests for a CRD's schema and CEL rules without a server. It loads a generated
 * CRD, checks it as the API server does when the CRD is created (a refused CRD throws the server's 422 text),
 * and validates objects — creates, and updates against their old object — through the local cluster's own
 * write path (decoding with unknown-field handling, pruning, defaulting, metadata checks, schema validation with
 * 1.32 ratcheting, CEL rules incl. transition rules and their cost limits), as a dry run on a private in-memory
 * store. Objects go in with their keys sorted, as Go clients send them (the order field errors come in). The answer carries the field errors with the texts the API server puts in its 422 (`causes`), the
 * whole Status message, and the object as the server would store it (defaults filled in, unknown fields gone).
 * Admission webhooks and ValidatingAdmissionPolicies are not run: test those with startTestEnv().
 */
import type { CustomResourceDefinition, CustomResourceDefinitionVersion } from 'kubernetes-types/apiextensions/v1.js';
import { readFileSync } from 'node:fs';
import { parseAllDocuments } from 'yaml';
import { VirtualClock } from '../cluster/clock/virtual-clock.js';
import { customResourceDefinitions, validateCrd } from '../cluster/crd/crd-kind.js';
import { customResourceType } from '../cluster/crd/custom-resource-type.js';
import { ApiError, invalidObject } from '../cluster/errors/status-errors.js';
import { type FieldValidation, ObjectOperations } from '../cluster/registry/object-operations.js';
import type { ResourceType } from '../cluster/registry/resource-type.js';
import { rfc3339, SeededRandom } from '../cluster/registry/system-metadata.js';
import { asStored } from '../cluster/store/kube-object.js';
import { type KubeObject, ObjectStore, type StoredObjectMeta } from '../cluster/store/object-store.js';

/** One field error of a refused write, as in the Status' `details.causes`. */
export interface CrdFieldError {
  /** `spec.replicas`, `spec.items[2].name`, `<nil>` for the object as a whole. */
  field: string;
  /** The cause type: `FieldValueInvalid`, `FieldValueRequired`, `FieldValueForbidden`, … */
  type: string;
  /** The cause message: `Invalid value: "string": must start with w-`. */
  message: string;
  /** `<field>: <message>`, as kubectl prints each cause. */
  text: string;
}

export interface CrdValidationResult {
  /** Whether the API server would accept the write. */
  allowed: boolean;
  /** The HTTP status the server answers: 201 (create) / 200 (update), 422 Invalid, 400 BadRequest, … */
  code: number;
  /** The Status reason of a refusal (`Invalid`, `BadRequest`); '' when allowed. */
  reason: string;
  /** The Status message of a refusal (`Widget.example.com "w" is invalid: [spec.a: …, spec.b: …]`); '' when allowed. */
  message: string;
  /** The field errors of a refusal (empty when allowed, and for refusals without causes, e.g. a strict-decoding 400). */
  errors: CrdFieldError[];
  /** The object as the server would store it (pruned, defaulted; status dropped on create when the status subresource is on). */
  object?: KubeObject;
  /** Warnings the server sends (`unknown field "spec.x"` with fieldValidation Warn). */
  warnings: string[];
}

export interface CrdValidationOptions {
  /** How unknown fields are handled; default `Strict`, as kubectl 1.32 sends. */
  fieldValidation?: FieldValidation;
  /** `status` validates an update of the status subresource (a main-resource update keeps the old status). */
  subresource?: 'status';
}

export interface CrdValidator {
  /** The CRD as read from the file. */
  readonly crd: KubeObject;
  /** Validates creating `object` (its apiVersion picks the version; namespaced kinds default to namespace `default`). */
  validate(object: Record<string, unknown>, options?: CrdValidationOptions): CrdValidationResult;
  /** Validates updating `old` (as stored: pruned and defaulted, never validated) to `object`: ratcheting and `oldSelf` rules apply. */
  validateUpdate(object: Record<string, unknown>, old: Record<string, unknown>, options?: CrdValidationOptions): CrdValidationResult;
}

const namespacesBucket = 'namespaces';

/** The one CustomResourceDefinition of a YAML file (a generated `config/crd/bases/…yaml`). */
function readCrd(crdPath: string): KubeObject {
  const documents = parseAllDocuments(readFileSync(crdPath, 'utf8'));
  const problems = documents.flatMap((d) => d.errors);
  if (problems.length > 0) throw new Error(`${crdPath}: not valid YAML: ${problems[0]!.message}`);
  const crds = documents.map((d) => d.toJS() as KubeObject | null).filter((o) => o?.kind === 'CustomResourceDefinition');
  if (crds.length !== 1) throw new Error(`${crdPath}: expected one CustomResourceDefinition, found ${crds.length}`);
  return crds[0]!;
}

/** The CRD as the server holds it once created and established (defaults filled, names accepted); throws the server's 422 if it would be refused. */
function establishedCrd(crd: KubeObject, crdPath: string): KubeObject {
  const created = structuredClone(crd);
  created.metadata ??= {} as StoredObjectMeta;
  customResourceDefinitions.strategy.prepareForCreate?.(created, { now: 0, uid: () => '', stored: () => [] });
  const errs = validateCrd(created);
  if (errs.length > 0) {
    const refusal = invalidObject('CustomResourceDefinition', 'apiextensions.k8s.io', created.metadata.name ?? '', errs);
    throw new Error(`${crdPath}: the API server would refuse this CRD: ${refusal.message}`);
  }
  const createdCrd = asStored<CustomResourceDefinition>(created);
  created.status = { ...createdCrd.status, acceptedNames: createdCrd.spec.names };
  return created;
}

/** A JSON value with every object's keys in sorted order, as a Go client (kubectl, controller-runtime) sends it. */
function asGoClientSends(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(asGoClientSends);
  if (value === null || typeof value !== 'object') return value;
  const entries = Object.entries(value as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return Object.fromEntries(entries.map(([k, v]) => [k, asGoClientSends(v)]));
}

function resultOf(write: () => { object: KubeObject; code: number; warnings: string[] }): CrdValidationResult {
  try {
    const { object, code, warnings } = write();
    return { allowed: true, code, reason: '', message: '', errors: [], object, warnings };
  } catch (err) {
    if (!(err instanceof ApiError)) throw err;
    const errors = (err.status.details?.causes ?? []).map((c) => {
      const field = c.field ?? '';
      const message = c.message ?? '';
      return { field, type: c.reason ?? '', message, text: `${field}: ${message}` };
    });
    return { allowed: false, code: err.code, reason: err.reason, message: err.message, errors, warnings: [] };
  }
}

/** Reads the CRD at `crdPath` and returns a validator for its objects (see the module comment). */
export function crdValidator(crdPath: string): CrdValidator {
  const crd = readCrd(crdPath);
  const established = establishedCrd(crd, crdPath);
  const { spec } = asStored<CustomResourceDefinition>(established);
  const versions: CustomResourceDefinitionVersion[] = spec.versions;
  const types = new Map<string, ResourceType>();
  const group: string = spec.group;

  const typeFor = (object: Record<string, unknown>): ResourceType => {
    const apiVersion = typeof object.apiVersion === 'string' ? object.apiVersion : `${group}/${versions.find((v) => v.storage)?.name}`;
    const version = apiVersion.startsWith(`${group}/`) ? apiVersion.slice(group.length + 1) : '';
    const served = versions.find((v) => v.name === version && v.served);
    if (!served) {
      const names = versions.filter((v) => v.served).map((v) => `${group}/${v.name}`);
      throw new Error(`${crdPath}: the CRD serves no apiVersion ${apiVersion} (it serves ${names.join(', ')})`);
    }
    let rt = types.get(version);
    if (!rt) {
      rt = customResourceType(established, served, false);
      types.set(version, rt);
    }
    return rt;
  };

  /** A private store and write path, with the object's namespace in it. */
  const writePath = (rt: ResourceType, namespace: string | undefined): { store: ObjectStore; operations: ObjectOperations } => {
    const store = new ObjectStore();
    const operations = new ObjectOperations(store, new VirtualClock(0), new SeededRandom(1));
    if ('listSemantics' in rt) operations.listSemanticsFor = () => (rt as ReturnType<typeof customResourceType>).listSemantics;
    if (namespace) store.create(namespacesBucket, { apiVersion: 'v1', kind: 'Namespace', metadata: { name: namespace, uid: 'namespace', creationTimestamp: rfc3339(0) } });
    return { store, operations };
  };

  const namespaceOf = (rt: ResourceType, object: Record<string, unknown>): string | undefined => {
    if (!rt.namespaced) return undefined;
    const namespace = (object.metadata as { namespace?: unknown } | undefined)?.namespace;
    return typeof namespace === 'string' && namespace !== '' ? namespace : 'default';
  };

  /** `old` as the store would hold it after its create: decoded (pruned), defaulted, with system metadata. */
  const storeOld = (store: ObjectStore, rt: ResourceType, old: Record<string, unknown>, namespace: string | undefined): void => {
    const stored = asGoClientSends(old) as KubeObject;
    stored.apiVersion = rt.group ? `${rt.group}/${rt.version}` : rt.version;
    stored.kind = rt.kind;
    stored.metadata = { ...(stored.metadata ?? {}) };
    if (namespace) stored.metadata.namespace = namespace;
    else delete stored.metadata.namespace;
    delete stored.metadata.resourceVersion;
    stored.metadata.uid ??= 'old-object';
    stored.metadata.creationTimestamp ??= rfc3339(0);
    stored.metadata.generation ??= 1;
    rt.strategy.dropUnknownFields?.(stored);
    rt.strategy.prepareForCreate?.(stored, { now: 0, uid: () => 'old-object', stored: () => [] });
    store.create(rt.bucket, stored);
  };

  return {
    crd,
    validate(object, options = {}) {
      const rt = typeFor(object);
      const namespace = namespaceOf(rt, object);
      const { operations } = writePath(rt, namespace);
      const body = asGoClientSends(object);
      return resultOf(() => operations.create(rt, namespace, body, { dryRun: true, fieldValidation: options.fieldValidation ?? 'Strict' }));
    },
    validateUpdate(object, old, options = {}) {
      const rt = typeFor(object);
      const namespace = namespaceOf(rt, object);
      const { store, operations } = writePath(rt, namespace);
      storeOld(store, rt, old, namespace);
      const name = String((old.metadata as { name?: unknown } | undefined)?.name ?? '');
      const body = asGoClientSends(object) as KubeObject;
      if (body.metadata) delete body.metadata.resourceVersion;
      return resultOf(() =>
        operations.update(rt, namespace, name, body, {
          dryRun: true,
          fieldValidation: options.fieldValidation ?? 'Strict',
          ...(options.subresource ? { subresource: options.subresource } : {}),
        }),
      );
    },
  };
}
