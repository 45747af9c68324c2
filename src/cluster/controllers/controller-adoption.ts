/**
 * Adoption and release as controller-runtime's ControllerRefManager does it for the StatefulSet and
 * DaemonSet controllers: orphans (no controller reference) of the owner's namespace that its selector
 * matches — and that pass the owner's own membership test — get the owner as their controller; objects
 * it controls that the selector no longer matches are released. This is what lets
 * `kubectl delete sts --cascade=orphan` followed by a re-create pick the old pods and revisions up again.
 */
import type { LabelSelector, OwnerReference } from 'kubernetes-types/meta/v1.js';
import { selectorMatches } from '../registry/builtin/workload-kinds.js';
import { asStored } from '../store/kube-object.js';
import type { KubeObject } from '../store/object-store.js';
import type { ControllerClient, ResourceName } from './controller-client.js';

export interface OwnerKind {
  apiVersion: string;
  kind: string;
}

const controllerRefOf = (o: KubeObject): OwnerReference | undefined => (o.metadata.ownerReferences ?? []).find((r) => r.controller === true);

/**
 * Adopts matching orphans and releases unmatched dependents of `owner` among `resource` objects of its
 * namespace; returns whether anything changed.
 */
export function claimDependents(client: ControllerClient, resource: ResourceName, owner: KubeObject, kind: OwnerKind, isMember: (o: KubeObject) => boolean = () => true): boolean {
  if (owner.metadata.deletionTimestamp) return false;
  const selector = asStored<{ spec?: { selector?: LabelSelector } }>(owner).spec?.selector;
  if (!selector || Object.keys(selector.matchLabels ?? {}).length + (selector.matchExpressions ?? []).length === 0) return false;
  let changed = false;
  for (const object of client.list(resource, owner.metadata.namespace)) {
    if (object.metadata.deletionTimestamp) continue;
    const ref = controllerRefOf(object);
    const matches = selectorMatches(selector, object.metadata.labels) && isMember(object);
    if (!ref && matches) {
      const adopted = { apiVersion: kind.apiVersion, kind: kind.kind, name: owner.metadata.name, uid: owner.metadata.uid!, controller: true, blockOwnerDeletion: true };
      client.update(resource, { ...object, metadata: { ...object.metadata, ownerReferences: [...(object.metadata.ownerReferences ?? []), adopted] } });
      changed = true;
    } else if (ref?.uid === owner.metadata.uid && !matches) {
      const rest = object.metadata.ownerReferences!.filter((r) => r.uid !== owner.metadata.uid);
      const released: KubeObject = { ...object, metadata: { ...object.metadata, ownerReferences: rest } };
      if (rest.length === 0) delete released.metadata.ownerReferences;
      client.update(resource, released);
      changed = true;
    }
  }
  return changed;
}
