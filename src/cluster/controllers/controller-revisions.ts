/**
 * ControllerRevisions as the StatefulSet and DaemonSet controllers keep them (pkg/controller/history):
 * a revision's data is the strategic-merge patch `{"spec":{"template":{…,"$patch":"replace"}}}` that
 * restores its pod template, its name is `<owner>-<hash>` with the hash an FNV-32a of that data
 * rendered by apimachinery's SafeEncodeString, and its number grows with each new template (a template
 * seen before — a rollback — has its old revision renumbered as the newest). Old revisions beyond
 * revisionHistoryLimit that no pod uses are deleted.
 */
import type { OwnerReference } from 'kubernetes-types/meta/v1.js';
import type { PodTemplateSpec } from 'kubernetes-types/core/v1.js';
import type { ControllerRevision, DaemonSet, StatefulSet } from 'kubernetes-types/apps/v1.js';
import { asStored } from '../store/kube-object.js';
import type { KubeObject } from '../store/object-store.js';
import type { ControllerClient } from './controller-client.js';
import type { OwnerIndex } from './owner-index.js';

const revisionsResource = 'apps/controllerrevisions';

/** apimachinery's rand.SafeEncodeString alphabet (no vowels, no confusable digits). */
const safeAlphabet = 'bcdfghjklmnpqrstvwxz2456789';

/** FNV-32a of `text`'s UTF-8 bytes. */
export function fnv32a(text: string): number {
  let hash = 0x811c9dc5;
  for (const byte of Buffer.from(text, 'utf8')) {
    hash ^= byte;
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash >>> 0;
}

/** A hash as controllers print it: the decimal digits of `n`, each mapped through SafeEncodeString. */
export function safeEncode(n: number): string {
  return [...String(n)].map((c) => safeAlphabet[c.charCodeAt(0) % safeAlphabet.length]).join('');
}

/** The revision data restoring `template`. */
export function revisionData(template: unknown): Record<string, unknown> {
  return { spec: { template: { ...(template as Record<string, unknown>), $patch: 'replace' } } };
}

/** The pod template a revision restores. */
export function templateOf(revision: KubeObject): Partial<PodTemplateSpec> {
  const { $patch: _replace, ...template } = (asStored<{ data?: { spec?: { template?: unknown } } }>(revision).data?.spec?.template ?? {}) as Partial<PodTemplateSpec> & { $patch?: string };
  return template;
}

/** Stable JSON (sorted keys), so equal data hashes equally. */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value && typeof value === 'object') {
    return `{${Object.keys(value).sort().map((k) => `${JSON.stringify(k)}:${canonicalJson((value as Record<string, unknown>)[k])}`).join(',')}}`;
  }
  return JSON.stringify(value ?? null);
}

/** The hash of revision data (with the owner's collision count, as HashControllerRevision does). */
export function revisionHash(data: unknown, collisionCount = 0): string {
  return safeEncode(fnv32a(canonicalJson(data) + (collisionCount ? String(collisionCount) : '')));
}

/** A ControllerRevision's number (0 while it has none). */
const revisionNumber = (r: KubeObject): number => asStored<ControllerRevision>(r).revision ?? 0;

const controllerRef = (o: KubeObject | undefined): OwnerReference | undefined => (o?.metadata.ownerReferences ?? []).find((r) => r.controller === true);

/** The revisions `owner` controls, oldest revision number first. */
export function revisionsOf(client: ControllerClient, owners: OwnerIndex, owner: KubeObject): KubeObject[] {
  return owners
    .dependentsIn(owner.metadata.uid!, 'controllerrevisions.apps')
    .map((l) => client.get(revisionsResource, l.namespace, l.name))
    .filter((r): r is KubeObject => r !== undefined && controllerRef(r)?.uid === owner.metadata.uid)
    .sort((a, b) => revisionNumber(a) - revisionNumber(b) || a.metadata.name.localeCompare(b.metadata.name));
}

export interface RevisionOwnerKind {
  apiVersion: string;
  kind: string;
  /** The label the hash goes in (`controller.kubernetes.io/hash` for StatefulSets, `controller-revision-hash` for DaemonSets). */
  hashLabel: string;
}

/**
 * The revision of `owner`'s current template: the newest existing one with equal data, renumbered
 * to the top when it is not already the newest (a rollback), or a new revision.
 */
export function ensureUpdateRevision(client: ControllerClient, owner: KubeObject, kind: RevisionOwnerKind, revisions: KubeObject[]): KubeObject {
  const set = asStored<StatefulSet | DaemonSet>(owner);
  const data = revisionData(set.spec?.template ?? {});
  const hash = revisionHash(data, set.status?.collisionCount ?? 0);
  const newest = revisions[revisions.length - 1];
  const top = newest ? revisionNumber(newest) : 0;
  const equal = revisions.filter((r) => canonicalJson(r.data) === canonicalJson(data));
  const match = equal[equal.length - 1];
  if (match) {
    if (match === newest) return match;
    return client.update(revisionsResource, { ...match, revision: top + 1 });
  }
  const name = `${owner.metadata.name}-${hash}`;
  const existing = client.get(revisionsResource, owner.metadata.namespace, name);
  if (existing) return existing;
  return client.create(revisionsResource, owner.metadata.namespace, {
    apiVersion: 'apps/v1',
    kind: 'ControllerRevision',
    metadata: {
      name,
      namespace: owner.metadata.namespace,
      labels: { ...(set.spec?.template?.metadata?.labels ?? {}), [kind.hashLabel]: hash },
      ...(owner.metadata.annotations?.['kubernetes.io/change-cause'] ? { annotations: { 'kubernetes.io/change-cause': owner.metadata.annotations['kubernetes.io/change-cause'] } } : {}),
      ownerReferences: [{ apiVersion: kind.apiVersion, kind: kind.kind, name: owner.metadata.name, uid: owner.metadata.uid!, controller: true, blockOwnerDeletion: true }],
    },
    data,
    revision: top + 1,
  });
}

/** Deletes the oldest revisions beyond `limit` that are neither in `live` (names in use) nor the newest. */
export function truncateHistory(client: ControllerClient, revisions: KubeObject[], live: Set<string>, limit: number): void {
  const removable = revisions.filter((r) => !live.has(r.metadata.name));
  const excess = removable.length - limit;
  for (const r of removable.slice(0, Math.max(0, excess))) client.delete(revisionsResource, r.metadata.namespace, r.metadata.name);
}
