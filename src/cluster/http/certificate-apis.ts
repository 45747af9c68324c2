/**
 * The CertificateSigningRequest endpoints beyond plain storage: the requester's identity stamped into
 * `spec` on create, and PUT `/approval` (what `kubectl certificate approve|deny` sends), which changes
 * only `status.conditions` (the server fills lastTransitionTime) and validates them.
 */
import { invalidObject, methodNotAllowed } from '../errors/status-errors.js';
import type { ObjectOperations } from '../registry/object-operations.js';
import { stampRequester, validateConditions } from '../registry/builtin/csr-kinds.js';
import { rfc3339 } from '../registry/system-metadata.js';
import type { KubeObject } from '../store/object-store.js';
import type { ResourceHandler } from './resource-handler.js';

const csrKey = 'certificates.k8s.io/certificatesigningrequests';

export function installCertificateApis(handler: ResourceHandler, operations: ObjectOperations, now: () => number): void {
  handler.createStamps.set(csrKey, stampRequester);
  handler.subresourceHandlers.set(`${csrKey}/approval`, (rt, ctx) => {
    const name = ctx.info.name!;
    if (ctx.info.verb === 'get') return { code: 200, body: operations.get(rt, undefined, name) };
    if (ctx.info.verb !== 'update') throw methodNotAllowed(ctx.info.verb, { group: rt.group, resource: `${rt.resource}/approval` });
    const body = handler.decodeBody(ctx, rt) as KubeObject;
    const current = operations.get(rt, undefined, name);
    const stamp = rfc3339(now());
    const sentConditions: unknown = (body?.status as { conditions?: unknown } | undefined)?.conditions;
    const conditions = (Array.isArray(sentConditions) ? sentConditions : []).map((c: Record<string, unknown>) => ({
      ...c,
      lastUpdateTime: c.lastUpdateTime ?? stamp,
      lastTransitionTime: c.lastTransitionTime ?? stamp,
    }));
    const errs = validateConditions(conditions);
    if (errs.length) throw invalidObject(rt.kind, rt.group, name, errs);
    const resourceVersion = body?.metadata?.resourceVersion || current.metadata.resourceVersion;
    const next = { ...current, metadata: { ...current.metadata, resourceVersion }, status: { ...(current.status ?? {}), conditions } };
    const fieldManager = String(ctx.headers['user-agent'] ?? '').split('/')[0] || 'unknown';
    const r = operations.update(rt, undefined, name, next, { fieldManager, subresource: 'status' });
    return { code: 200, body: r.object, warnings: r.warnings };
  });
}
