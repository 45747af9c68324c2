/**
 * Server-side apply's typed conversion of the applied configuration: a field the kind's schema (a built-in
 * kind's v1.32 schema, or a custom resource's) does not declare fails the request as kube-apiserver 1.32
 * fails it — a 500 with no reason (kubernetes/kubernetes#122480, #139253), whatever fieldValidation says.
 */
import { ApiError } from '../errors/status-errors.js';
import { builtinRootDefinition, firstUndeclaredField } from '../schemas/merge-semantics.js';

type Obj = Record<string, unknown>;

/**
 * Throws the server's 500 when `config` (an apply body) sets a field its schema lacks: `schema` for a
 * custom resource, else the built-in kind's own (nothing is checked for a kind with neither).
 */
export function rejectUndeclaredApplyFields(config: Obj, schema?: Obj): void {
  const root = schema ?? builtinRootDefinition(config.apiVersion, config.kind);
  if (!root) return;
  const field = firstUndeclaredField(root, config);
  if (!field) return;
  const meta = (config.metadata && typeof config.metadata === 'object' ? config.metadata : {}) as Obj;
  const slash = String(config.apiVersion).indexOf('/');
  const gv = slash < 0 ? `/${config.apiVersion}` : String(config.apiVersion);
  const error = new ApiError(500, '', `failed to create typed patch object (${meta.namespace ?? ''}/${meta.name ?? ''}; ${gv}, Kind=${config.kind}): ${field}: field not declared in schema`);
  // A plain Go error becomes a Status without a reason (apierrors.ErrorToAPIStatus).
  delete (error.status as { reason?: string }).reason;
  throw error;
}
