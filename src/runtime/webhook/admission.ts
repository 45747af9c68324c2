/**
 * Admission and conversion handlers in controller-runtime's shape: a defaulter mutates a copy of the
 * object and the answer is the JSON patch; a validator returns warnings or throws to deny; a converter
 * maps objects to the desired apiVersion. Paths follow kubebuilder's (`/mutate-<group>-<version>-<kind>`).
 */
import type { KindInfo } from '../client/kinds.js';
import type { KubeObject } from '../client/object.js';
import { cloneJson } from '../cache/copy.js';
import { jsonPatchDiff } from './json-patch-diff.js';
import { errorMessage } from '../as-error.js';

export interface AdmissionRequest<T extends KubeObject = KubeObject> {
  uid: string;
  kind: { group: string; version: string; kind: string };
  operation: 'CREATE' | 'UPDATE' | 'DELETE' | 'CONNECT';
  namespace?: string;
  name?: string;
  object?: T;
  oldObject?: T;
  dryRun?: boolean;
  userInfo?: { username?: string; groups?: string[] };
}

export interface AdmissionResponse {
  uid: string;
  allowed: boolean;
  status?: { code: number; reason?: string; message: string };
  patch?: string;
  patchType?: 'JSONPatch';
  warnings?: string[];
}

/** Mutate `obj` in place to default it; return warnings (or nothing); throw to deny with the error's message. */
export interface Defaulter<T extends KubeObject = KubeObject> {
  default(obj: T, request: AdmissionRequest<T>): string[] | void | Promise<string[] | void>;
}

/** Return warnings (or nothing) to admit; throw to deny with the error's message. */
export interface Validator<T extends KubeObject = KubeObject> {
  validateCreate?(obj: T, request: AdmissionRequest<T>): string[] | void | Promise<string[] | void>;
  validateUpdate?(oldObj: T, newObj: T, request: AdmissionRequest<T>): string[] | void | Promise<string[] | void>;
  validateDelete?(obj: T, request: AdmissionRequest<T>): string[] | void | Promise<string[] | void>;
}

/**
 * The shapes a made project's webhook handlers implement (kubebuilder's `webhook.CustomDefaulter` and
 * `webhook.CustomValidator`): a defaulter mutates the object in place; a validator returns warnings to
 * admit and throws to deny, with the error's message shown to the user (an error carrying a status, such
 * as `newInvalid`'s, keeps its code and reason). Each method may also take the admission request
 * (operation, user, dry-run, the old object): what controller-runtime's handlers get from
 * `admission.RequestFromContext(ctx)`.
 */
export interface CustomDefaulter<T extends KubeObject> {
  default(obj: T, request: AdmissionRequest<T>): Promise<void>;
}

export interface CustomValidator<T extends KubeObject> {
  validateCreate(obj: T, request: AdmissionRequest<T>): Promise<string[]>;
  validateUpdate(oldObj: T, newObj: T, request: AdmissionRequest<T>): Promise<string[]>;
  validateDelete(obj: T, request: AdmissionRequest<T>): Promise<string[]>;
}

export type Converter = (obj: KubeObject, desiredAPIVersion: string) => KubeObject | Promise<KubeObject>;

export function mutatePath(kind: KindInfo): string {
  return `/mutate-${kind.group.replace(/\./g, '-')}-${kind.version}-${kind.kind.toLowerCase()}`;
}

export function validatePath(kind: KindInfo): string {
  return `/validate-${kind.group.replace(/\./g, '-')}-${kind.version}-${kind.kind.toLowerCase()}`;
}

/**
 * The response for a handler that threw. As in controller-runtime, an error that carries a Kubernetes
 * status (a numeric `code` of 400–599 and a `reason`, such as an `Invalid` 422 built from field errors)
 * keeps it; any other error denies with 403 Forbidden.
 */
function denied(uid: string, err: unknown): AdmissionResponse {
  const message = errorMessage(err);
  const { code, reason } = (err ?? {}) as { code?: unknown; reason?: unknown };
  if (typeof code === 'number' && code >= 400 && code <= 599 && typeof reason === 'string' && reason) {
    return { uid, allowed: false, status: { code, reason, message } };
  }
  return { uid, allowed: false, status: { code: 403, reason: 'Forbidden', message } };
}

export async function runDefaulter<T extends KubeObject>(defaulter: Defaulter<T>, request: AdmissionRequest<T>): Promise<AdmissionResponse> {
  if (!request.object) return { uid: request.uid, allowed: true };
  const mutated = cloneJson(request.object);
  let warnings: string[] | void;
  try {
    warnings = await defaulter.default(mutated, request);
  } catch (err) {
    return denied(request.uid, err);
  }
  const withWarnings = warnings && warnings.length ? { warnings } : {};
  const ops = jsonPatchDiff(request.object, mutated);
  if (ops.length === 0) return { uid: request.uid, allowed: true, ...withWarnings };
  return {
    uid: request.uid,
    allowed: true,
    patchType: 'JSONPatch',
    patch: Buffer.from(JSON.stringify(ops)).toString('base64'),
    ...withWarnings,
  };
}

export async function runValidator<T extends KubeObject>(validator: Validator<T>, request: AdmissionRequest<T>): Promise<AdmissionResponse> {
  try {
    let warnings: string[] | void = undefined;
    if (request.operation === 'CREATE') warnings = await validator.validateCreate?.(request.object!, request);
    else if (request.operation === 'UPDATE') warnings = await validator.validateUpdate?.(request.oldObject!, request.object!, request);
    else if (request.operation === 'DELETE') warnings = await validator.validateDelete?.(request.oldObject!, request);
    return { uid: request.uid, allowed: true, ...(warnings && warnings.length ? { warnings } : {}) };
  } catch (err) {
    return denied(request.uid, err);
  }
}
