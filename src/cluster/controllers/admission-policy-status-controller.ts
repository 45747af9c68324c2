/**
 * The ValidatingAdmissionPolicy status controller (kube-controller-manager's
 * `validatingadmissionpolicy-status-controller`): after each change of a policy's spec it writes
 * `status.observedGeneration` and `status.typeChecking`. Type checking against the matched kinds'
 * schemas is not done: expressionWarnings stay empty (compile errors are already refused at write time).
 */
import type { StoreEvent } from '../store/object-store.js';
import type { ControllerClient } from './controller-client.js';
import type { BuiltinController } from './controller-scheduler.js';

const bucket = 'validatingadmissionpolicies.admissionregistration.k8s.io';
const resource = 'admissionregistration.k8s.io/validatingadmissionpolicies';

export class AdmissionPolicyStatusController implements BuiltinController {
  readonly name = 'validatingadmissionpolicy-status-controller';

  constructor(private readonly client: ControllerClient) {}

  initialKeys(): string[] {
    return this.client.list(resource).map((p) => p.metadata.name);
  }

  keysFor(event: StoreEvent): string[] {
    return event.bucket === bucket && event.type !== 'DELETED' ? [event.object.metadata.name] : [];
  }

  reconcile(name: string): void {
    const policy = this.client.get(resource, undefined, name);
    if (!policy || policy.status?.observedGeneration === policy.metadata.generation) return;
    this.client.updateStatus(resource, { ...policy, status: { ...(policy.status ?? {}), observedGeneration: policy.metadata.generation, typeChecking: {} } });
  }
}
