/**
 * The shape every Kubernetes object shares, plus the key helpers (namespace/name) that the queue, cache
 * and handlers agree on.
 */
import type { ObjectMeta } from 'kubernetes-types/meta/v1.js';

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

export function requestOf(obj: KubeObject): Request {
  return { namespace: obj.metadata?.namespace ?? '', name: obj.metadata?.name ?? '' };
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
