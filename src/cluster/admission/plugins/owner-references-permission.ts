/**
 * The OwnerReferencesPermissionEnforcement admission plugin (1.32's plugin/pkg/admission/gc), off by default
 * as in kube-apiserver and kind, on in OpenShift: whoever sets or changes an object's ownerReferences must be
 * allowed to delete that object, and whoever newly sets `blockOwnerDeletion: true` on a reference must be
 * allowed to update the owner's `finalizers` subresource — the reason kubebuilder grants `<kind>/finalizers`
 * `update` to every controller. Writes to pods/status are exempt. Each allowed check is reported as a use
 * of the grant (`services.noteAuthorizationUse`), so the least-privilege report sees why the rule exists.
 */
import type { OwnerReference } from 'kubernetes-types/meta/v1.js';
import type { ResourceRequest } from '../../http/request-info.js';
import type { KubeObject } from '../../store/object-store.js';
import type { AdmissionPlugin, AdmissionRequest, AdmissionServices } from '../admission-chain.js';
import { admissionForbidden } from './admission-errors.js';

const ownerReferencesOf = (object: KubeObject | undefined): OwnerReference[] =>
  Array.isArray(object?.metadata?.ownerReferences) ? (object.metadata.ownerReferences as OwnerReference[]) : [];

/** Go's semantic equality of two references, as far as JSON shows it (absent and false differ, as in Go's pointers). */
const sameReference = (a: OwnerReference, b: OwnerReference): boolean => JSON.stringify(canonical(a)) === JSON.stringify(canonical(b));
const canonical = (r: OwnerReference): unknown[] => [r.apiVersion, r.kind, r.name, r.uid, r.controller, r.blockOwnerDeletion];

function changesOwnerReferences(request: AdmissionRequest): boolean {
  const next = ownerReferencesOf(request.object);
  if (!request.oldObject) return next.length > 0;
  const old = ownerReferencesOf(request.oldObject);
  return old.length !== next.length || old.some((ref, i) => !sameReference(ref, next[i]!));
}

/** References that block owner deletion now and did not before (new, or blockOwnerDeletion turned on). */
function newBlockingReferences(request: AdmissionRequest): OwnerReference[] {
  const blocking = ownerReferencesOf(request.object).filter((r) => r.blockOwnerDeletion === true);
  if (!request.oldObject) return blocking;
  const before = new Map(ownerReferencesOf(request.oldObject).map((r) => [r.uid, r]));
  return blocking.filter((r) => before.get(r.uid)?.blockOwnerDeletion !== true);
}

export class OwnerReferencesPermissionEnforcement implements AdmissionPlugin {
  constructor(private readonly services: AdmissionServices) {}

  validate(request: AdmissionRequest): void {
    const { rt, subresource, user } = request;
    if (request.operation === 'DELETE' || !user) return;
    if (rt.group === '' && rt.resource === 'pods' && subresource === 'status') return;
    if (!changesOwnerReferences(request)) return;
    const deleteSelf: ResourceRequest = {
      kind: 'resource',
      verb: 'delete',
      group: rt.group,
      version: rt.version,
      resource: rt.resource,
      ...(subresource ? { subresource } : {}),
      ...(request.namespace ? { namespace: request.namespace } : {}),
      ...(request.name ? { name: request.name } : {}),
      watch: false,
    };
    if (!this.check(user, deleteSelf)) throw admissionForbidden(request, ["cannot set an ownerRef on a resource you can't delete: , <nil>"]);
    for (const ref of newBlockingReferences(request)) {
      const slash = (ref.apiVersion ?? '').indexOf('/');
      const group = slash < 0 ? '' : ref.apiVersion.slice(0, slash);
      const version = slash < 0 ? ref.apiVersion : ref.apiVersion.slice(slash + 1);
      const mappings = this.services.catalog.all().filter((t) => t.group === group && t.version === version && t.kind === ref.kind);
      if (mappings.length === 0) {
        throw admissionForbidden(request, [`cannot set blockOwnerDeletion in this case because cannot find RESTMapping for APIVersion ${ref.apiVersion} Kind ${ref.kind}: no matches for kind "${ref.kind}" in version "${ref.apiVersion}"`]);
      }
      // every resource the kind maps to (one, in practice)
      for (const mapping of mappings) {
        const updateFinalizers: ResourceRequest = {
          kind: 'resource',
          verb: 'update',
          group,
          version,
          resource: mapping.resource,
          subresource: 'finalizers',
          ...(request.namespace ? { namespace: request.namespace } : {}),
          name: ref.name,
          watch: false,
        };
        if (!this.check(user, updateFinalizers)) {
          throw admissionForbidden(request, ["cannot set blockOwnerDeletion if an ownerReference refers to a resource you can't set finalizers on: , <nil>"]);
        }
      }
    }
  }

  private check(user: NonNullable<AdmissionRequest['user']>, info: ResourceRequest): boolean {
    // Kubelets are authorized by kube-apiserver's Node authorizer, which this cluster does not model; it grants
    // a kubelet its own Lease and Node, the only objects with references it writes (node lease → Node).
    if (user.username.startsWith('system:node:') && user.groups.includes('system:nodes')) return true;
    const allowed = this.services.authorize ? this.services.authorize(user, info) : true;
    if (allowed) this.services.noteAuthorizationUse?.(user, info);
    return allowed;
  }
}
