/**
 * The shape every Kubernetes object shares, plus the key helpers (namespace/name) that the queue, cache
 * and handlers agree on.
 */
import type { ObjectMeta } from 'kubernetes-types/meta/v1.js';
import { keepShape } from '../keep-shape.js';

export interface KubeObject {
  apiVersion?: string;
  kind?: string;
  metadata?: ObjectMeta;
}

/** What a reconciler is asked to look at: an object's namespace (empty for cluster-scoped) and name. */
export interface Request {
  namespace: string;
  name: string;
}

/** `namespace/name`, or `name` for cluster-scoped objects — the queue key. */
export function keyOf(ref: { namespace?: string | undefined; name: string }): string {
  return ref.namespace ? `${ref.namespace}/${ref.name}` : ref.name;
}

export function objectKey(obj: KubeObject): string {
  return keyOf({ namespace: obj.metadata?.namespace, name: obj.metadata?.name ?? '' });
}

/**
 * A Request that remembers its `namespace/name` key once asked: the request an event causes is keyed once,
 * and that key serves the queue and the reconcile's cache read (requestKey). Plain fields otherwise (a
 * private field is no property: it compares equal to `{ namespace, name }`).
 */
class KeyedRequest implements Request {
  #key: string | undefined;

  constructor(
    readonly namespace: string,
    readonly name: string,
    key?: string,
  ) {
    this.#key = key;
  }

  get key(): string {
    return (this.#key ??= keyOf(this));
  }
}

// One request lives on between bursts, so code compiled for its shape stays valid (keep-shape.ts).
keepShape(new KeyedRequest('', '', ''));

/** The request for an object (its namespace and name). */
export function requestOf(obj: KubeObject): Request {
  return new KeyedRequest(obj.metadata?.namespace ?? '', obj.metadata?.name ?? '');
}

/** keyOf(ref), made once for a request from requestOf (or the queue) and remembered. */
export function requestKey(ref: { namespace?: string | undefined; name: string }): string {
  return ref instanceof KeyedRequest ? ref.key : keyOf(ref);
}

/** The request `key` names, which remembers `key` (for requestKey). */
export function keyedRequest(key: string): Request {
  const slash = key.indexOf('/');
  return slash < 0 ? new KeyedRequest('', key, key) : new KeyedRequest(key.slice(0, slash), key.slice(slash + 1), key);
}

export function parseKey(key: string): Request {
  const slash = key.indexOf('/');
  return slash < 0 ? { namespace: '', name: key } : { namespace: key.slice(0, slash), name: key.slice(slash + 1) };
}

/** Splits `group/version` (or `v1`) into its parts. */
export function splitApiVersion(apiVersion: string): { group: string; version: string } {
  const slash = apiVersion.indexOf('/');
  return slash < 0 ? { group: '', version: apiVersion } : { group: apiVersion.slice(0, slash), version: apiVersion.slice(slash + 1) };
}
