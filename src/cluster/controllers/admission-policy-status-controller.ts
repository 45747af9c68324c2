/**
 * The ValidatingAdmissionPolicy status controller (kube-controller-manager's
 * `validatingadmissionpolicy-status-controller`): after each change of a policy's spec it writes
 * `status.observedGeneration` and `status.typeChecking`: the expressions type-checked against the
 * schemas of the kinds the policy matches (policy-type-checking.ts), what fails as expressionWarnings.
 */
import type { ValidatingAdmissionPolicy } from 'kubernetes-types/admissionregistration/v1.js';
import { asStored } from '../store/kube-object.js';
import type { StoreEvent } from '../store/object-store.js';
import type { ResourceCatalog } from '../registry/resource-catalog.js';
import { typeCheckPolicy } from '../admission/policy-type-checking.js';
import type { ControllerClient } from './controller-client.js';
import type { BuiltinController } from './controller-scheduler.js';

const bucket = 'validatingadmissionpolicies.admissionregistration.k8s.io';
const resource = 'admissionregistration.k8s.io/validatingadmissionpolicies';

export class AdmissionPolicyStatusController implements BuiltinController {
  readonly name = 'validatingadmissionpolicy-status-controller';

  constructor(
    private readonly client: ControllerClient,
    private readonly catalog: ResourceCatalog,
  ) {}

  initialKeys(): string[] {
    return this.client.list(resource).map((p) => p.metadata.name);
  }

  keysFor(event: StoreEvent): string[] {
    return event.bucket === bucket && event.type !== 'DELETED' ? [event.object.metadata.name] : [];
  }

  reconcile(name: string): void {
    const policy = this.client.get(resource, undefined, name);
    if (!policy || asStored<ValidatingAdmissionPolicy>(policy).status?.observedGeneration === policy.metadata.generation) return;
    const expressionWarnings = typeCheckPolicy(policy, this.catalog);
    const typeChecking = expressionWarnings.length ? { expressionWarnings } : {};
    this.client.updateStatus(resource, { ...policy, status: { ...(policy.status ?? {}), observedGeneration: policy.metadata.generation, typeChecking } });
  }
}
