/**
 * Lists: namespace scoping, label and field selectors, resourceVersion / resourceVersionMatch, and
 * pagination with continue tokens served from the snapshot resourceVersion (§3.9); resourceVersion "0"
 * is answered whole, as a 1.32 watch cache does.
 */
import { ApiError, badRequest } from '../errors/status-errors.js';
import type { ResourceType } from '../registry/resource-type.js';
import { type LabelSelector, matchesLabels } from '../selectors/label-selector.js';
import { type FieldSelector, matchesFields } from '../selectors/field-selector.js';
import type { KubeObject, ObjectStore } from '../store/object-store.js';
import { tooLargeResourceVersion as tooLarge } from '../store/freshness.js';

export interface ListQuery {
  namespace?: string;
  labelSelector: LabelSelector;
  fieldSelector: FieldSelector;
  limit?: number;
  continueToken?: string;
  resourceVersion?: string;
  resourceVersionMatch?: string;
}

export interface ListPage {
  items: KubeObject[];
  resourceVersion: string;
  continueToken?: string;
  remainingItemCount?: number;
}

interface ContinueToken {
  /** Snapshot resourceVersion of the list, or -1: the latest (the token handed out with a 410). */
  rv: number;
  start: string;
}

const keyOf = (o: KubeObject): string => `${o.metadata.namespace ?? ''}/${o.metadata.name}`;

function decodeContinue(token: string): ContinueToken {
  try {
    const parsed = JSON.parse(Buffer.from(token, 'base64url').toString('utf8')) as ContinueToken;
    if (typeof parsed.rv !== 'number' || typeof parsed.start !== 'string') throw new Error('shape');
    return parsed;
  } catch {
    throw badRequest('continue key is not valid: incorrect encoded start resourceVersion (version meta.k8s.io/v1)');
  }
}

const encodeContinue = (t: ContinueToken): string => Buffer.from(JSON.stringify(t), 'utf8').toString('base64url');

const continueTooOld =
  'The provided continue parameter is too old to display a consistent list result. You can start a new list without the continue parameter, or use the continue token in this response to retrieve the remainder of the results. Continuing with the provided token results in an inconsistent list - objects that were created, modified, or deleted between the time the first chunk was returned and now may show up in the list.';

export function listObjects(store: ObjectStore, rt: ResourceType, q: ListQuery): ListPage {
  const ns = rt.namespaced ? q.namespace : undefined;
  let snapshot = store.resourceVersion;
  let start = '';
  let all: KubeObject[];
  if (q.continueToken) {
    if (q.resourceVersion) throw badRequest('specifying resource version is not allowed when using continue');
    const token = decodeContinue(q.continueToken);
    start = token.start;
    if (token.rv === -1) {
      // the inconsistent continuation offered with a 410: the remainder as of now
      all = store.listShared(rt.bucket, ns);
    } else {
      snapshot = token.rv;
      try {
        all = store.listAt(rt.bucket, snapshot, ns);
      } catch (err) {
        if (err instanceof ApiError && err.code === 410) {
          // as the real server: the Status carries a token continuing from the same key at the latest version
          const expired = new ApiError(410, 'Expired', continueTooOld);
          expired.status.metadata = { continue: encodeContinue({ rv: -1, start }) };
          throw expired;
        }
        throw err;
      }
    }
  } else if (q.resourceVersionMatch) {
    if (!q.resourceVersion) throw badRequest('resourceVersionMatch is forbidden unless resourceVersion is provided');
    if (q.resourceVersionMatch === 'Exact') {
      snapshot = Number(q.resourceVersion);
      if (!Number.isInteger(snapshot)) throw badRequest(`invalid resource version: ${q.resourceVersion}`);
      if (snapshot > store.resourceVersion) throw tooLarge(snapshot, store.resourceVersion);
      all = store.listAt(rt.bucket, snapshot, ns);
    } else if (q.resourceVersionMatch === 'NotOlderThan') {
      checkNotNewer(q.resourceVersion, store.resourceVersion);
      all = store.listShared(rt.bucket, ns);
    } else {
      throw badRequest(`resourceVersionMatch: Unsupported value: "${q.resourceVersionMatch}": supported values: "Exact", "NotOlderThan"`);
    }
  } else {
    if (q.resourceVersion && q.resourceVersion !== '0') checkNotNewer(q.resourceVersion, store.resourceVersion);
    all = store.listShared(rt.bucket, ns);
  }
  const matching = all.filter((o) => (start === '' || keyOf(o) > start) && matchesLabels(q.labelSelector, o.metadata.labels) && matchesFields(rt, q.fieldSelector, o));
  // A 1.32 server answers resourceVersion "0" from its watch cache, which ignores the limit (the cacher's
  // computeListLimit; serving pages from the cache came only in 1.33): the whole list, no continue token.
  const limit = q.resourceVersion === '0' ? undefined : q.limit;
  if (limit && limit > 0 && matching.length > limit) {
    const items = matching.slice(0, limit);
    return {
      items,
      resourceVersion: String(snapshot),
      continueToken: encodeContinue({ rv: snapshot, start: keyOf(items[items.length - 1]!) }),
      remainingItemCount: matching.length - limit,
    };
  }
  return { items: matching, resourceVersion: String(snapshot) };
}

/**
 * Whether a 1.32 server answers this list from its watch cache, which waits for a future
 * resourceVersion; continuations, limits (with a resourceVersion other than "0") and Exact go to etcd,
 * which refuses a future resourceVersion at once.
 */
export function servedFromWatchCache(q: ListQuery): boolean {
  if (q.continueToken) return false;
  if (q.limit && q.limit > 0 && q.resourceVersion !== '0') return false;
  return q.resourceVersionMatch === undefined || q.resourceVersionMatch === 'NotOlderThan';
}

function checkNotNewer(requested: string, current: number): void {
  const rv = Number(requested);
  if (!Number.isInteger(rv)) throw badRequest(`invalid resource version: ${requested}`);
  if (rv > current) throw tooLarge(rv, current);
}
