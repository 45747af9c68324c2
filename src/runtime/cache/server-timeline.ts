/**
 * Telling that the API server went back in time (a restart that lost its storage, a restore from backup):
 * its resourceVersions are lower than the last one an informer saw, or the cluster's identity (the uid of the
 * kube-system namespace, which only a new cluster changes) is another. An informer that resumed from its old
 * resourceVersion would see nothing below it; on either sign it relists from the latest and sends deletes
 * for what vanished. resourceVersions are opaque in Kubernetes; every server kubeforge meets (etcd's
 * revisions, the local cluster's counter) writes them as integers, and only those are compared
 * (apimachinery/resource-version.ts).
 */
import type { Namespace } from 'kubernetes-types/core/v1.js';
import { compareResourceVersions } from '../../apimachinery/resource-version.js';
import type { Client } from '../client/client.js';
import type { KindInfo } from '../client/kinds.js';
import type { Transport } from '../client/transport.js';

/** True when both are integer resourceVersions and `seen` is below `last` (checked on every watch event). */
export function wentBackInTime(seen: string | undefined, last: string): boolean {
  return compareResourceVersions(seen, last) === -1;
}

/** Raised inside a watch when an event or bookmark carries a resourceVersion below the last seen one. */
export class ServerWentBackError extends Error {
  constructor(readonly seen: string, readonly last: string, readonly cause_: string) {
    super(`API server went back in time: ${cause_} (resourceVersion ${seen} after ${last})`);
    this.name = 'ServerWentBackError';
  }
}

/**
 * The cluster's identity as far as a client can read it: the kube-system namespace's uid. Undefined when it
 * cannot be read (no RBAC to get namespaces, a server without kube-system): then only resourceVersions count.
 */
export async function clusterIdentity(transport: Transport): Promise<string | undefined> {
  try {
    const ns = await transport.request<Namespace>('GET', '/api/v1/namespaces/kube-system');
    return ns?.metadata?.uid;
  } catch {
    return undefined;
  }
}

/** The server's current resourceVersion for a kind's collection (a one-item list from the latest, never the cache). */
export async function currentResourceVersion(client: Client, kind: KindInfo, scope: { namespace?: string; labelSelector?: string | Record<string, string>; fieldSelector?: string }): Promise<string> {
  const page = await client.listPage(kind, { ...scope, limit: 1, resourceVersion: '' });
  return page.resourceVersion;
}
