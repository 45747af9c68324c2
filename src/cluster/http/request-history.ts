/**
 * What the API server remembers of its requests, in bounded memory: the newest entries in a ring (the
 * request log tests read), and per identity the distinct things it did, with counts (what the
 * least-privilege report reads, exact however many requests left the ring).
 */
import type { RequestInfo } from './request-info.js';
import type { RequestLogEntry } from './request-log.js';

/** The entries kept by default (`startLocalCluster({ requestLogSize })`). */
export const defaultRequestLogSize = 10_000;
/** Distinct object names kept per activity; past it the activity matches any resourceNames rule. */
const maxNamesPerActivity = 1_000;
/** Distinct activities kept per identity; past it new ones are counted in `overflow` only. */
const maxActivitiesPerIdentity = 10_000;

/** How a request ended for the report: allowed (any code but 401/403, in flight too), refused or unauthenticated. */
export type ActivityOutcome = 'allowed' | 'denied' | 'unauthenticated';

/** One distinct thing an identity did (the entry's fields the report reads), with how often and on which names. */
export interface Activity {
  outcome: ActivityOutcome;
  verb: string;
  /** The path of a non-resource request. */
  path?: string;
  group?: string;
  resource?: string;
  subresource?: string;
  namespace?: string;
  /** Distinct object names (up to maxNamesPerActivity). */
  names: Set<string>;
  /** More distinct names were seen than are kept. */
  namesOverflow: boolean;
  count: number;
}

/** The parts of a request an activity is counted from. */
type ActivitySource = Pick<RequestLogEntry, 'user' | 'verb' | 'path' | 'group' | 'resource' | 'subresource' | 'namespace' | 'name' | 'code'>;

const outcomeOf = (code: number): ActivityOutcome => (code === 403 ? 'denied' : code === 401 ? 'unauthenticated' : 'allowed');

export class RequestHistory {
  private readonly ring: RequestLogEntry[] = [];
  private next = 0;
  /** Entries whose response has not finished: their outcome may still change. */
  private readonly open = new Set<RequestLogEntry>();
  private readonly activities = new Map<string, Map<string, Activity>>();
  /** Activities per identity that did not fit (maxActivitiesPerIdentity). */
  private readonly overflow = new Map<string, number>();

  constructor(private readonly capacity = defaultRequestLogSize) {}

  /** A request that just arrived: in the log now, counted when `finish` says how it ended. */
  begin(entry: RequestLogEntry): void {
    this.append(entry);
    this.open.add(entry);
  }

  /** The response of a `begin` entry finished (or its connection closed): counts it once. */
  finish(entry: RequestLogEntry): void {
    if (this.open.delete(entry)) this.count(entry);
  }

  /** A request that already ended (the built-in controllers' writes). */
  add(entry: RequestLogEntry): void {
    this.append(entry);
    this.count(entry);
  }

  /** The kept entries, oldest first. */
  entries(): RequestLogEntry[] {
    return this.ring.length < this.capacity ? [...this.ring] : [...this.ring.slice(this.next), ...this.ring.slice(0, this.next)];
  }

  /**
   * A grant `user` relied on without a request of its own: an admission plugin's check on its behalf
   * (OwnerReferencesPermissionEnforcement's `update <owner>/finalizers`). Counted as an allowed activity,
   * not logged as a request.
   */
  noteAuthorizationUse(user: string, info: RequestInfo): void {
    const use: ActivitySource =
      info.kind === 'nonresource'
        ? { user, verb: info.verb, path: info.path, code: 200 }
        : { user, verb: info.verb, path: '', group: info.group, resource: info.resource, subresource: info.subresource, namespace: info.namespace, name: info.name, code: 200 };
    this.count(use);
  }

  /** What `user` did: finished requests' activities plus its requests in flight. */
  activitiesOf(user: string): Activity[] {
    const finished = [...(this.activities.get(user)?.values() ?? [])].map((a) => ({ ...a, names: new Set(a.names) }));
    const inFlight = new Map<string, Activity>();
    for (const e of this.open) if (e.user === user) addTo(inFlight, e, Infinity);
    return [...finished, ...inFlight.values()];
  }

  /** Distinct activities of `user` that were not kept (0 unless it did more than 10 000 distinct things). */
  overflowOf(user: string): number {
    return this.overflow.get(user) ?? 0;
  }

  private append(entry: RequestLogEntry): void {
    if (this.capacity <= 0) return;
    if (this.ring.length < this.capacity) this.ring.push(entry);
    else this.ring[this.next] = entry;
    this.next = (this.next + 1) % this.capacity;
  }

  private count(entry: ActivitySource): void {
    let mine = this.activities.get(entry.user);
    if (!mine) this.activities.set(entry.user, (mine = new Map()));
    if (!addTo(mine, entry, maxActivitiesPerIdentity)) this.overflow.set(entry.user, (this.overflow.get(entry.user) ?? 0) + 1);
  }
}

/** Counts `entry` in `into`; false when it is a new activity and `into` already holds `limit`. */
function addTo(into: Map<string, Activity>, e: ActivitySource, limit: number): boolean {
  const outcome = outcomeOf(e.code);
  const resourceKey = e.resource === undefined ? { path: e.path } : { group: e.group ?? '', resource: e.resource, subresource: e.subresource, namespace: e.namespace };
  const key = JSON.stringify([outcome, e.verb, resourceKey]);
  let activity = into.get(key);
  if (!activity) {
    if (into.size >= limit) return false;
    activity = {
      outcome,
      verb: e.verb,
      ...(e.resource === undefined ? { path: e.path } : { group: e.group ?? '', resource: e.resource }),
      ...(e.subresource !== undefined ? { subresource: e.subresource } : {}),
      ...(e.namespace !== undefined ? { namespace: e.namespace } : {}),
      names: new Set(),
      namesOverflow: false,
      count: 0,
    };
    into.set(key, activity);
  }
  activity.count++;
  if (e.name !== undefined && !activity.names.has(e.name)) {
    if (activity.names.size < maxNamesPerActivity) activity.names.add(e.name);
    else activity.namesOverflow = true;
  }
  return true;
}
