/**
 * The Priority admission plugin (1.32's plugin/pkg/admission/priority): a new pod's priorityClassName
 * resolves to spec.priority and spec.preemptionPolicy from its PriorityClass — with no class named, the
 * globalDefault class's (naming it on the pod), else 0 and PreemptLowerPriority; an unknown class, or a
 * priority / preemptionPolicy in the pod that differs from the computed one, is refused with 1.32's 403.
 * Updates keep the stored priority and preemptionPolicy. On PriorityClasses it keeps globalDefault to one class.
 * (Since 1.17 the system-* classes may be used in any namespace; ResourceQuota scopes limit them.)
 */
import type { PodSpec } from 'kubernetes-types/core/v1.js';
import type { PriorityClass } from 'kubernetes-types/scheduling/v1.js';
import { asStored } from '../../store/kube-object.js';
import type { KubeObject, Stored } from '../../store/object-store.js';
import type { AdmissionPlugin, AdmissionRequest, AdmissionServices } from '../admission-chain.js';
import { admissionForbidden } from './admission-errors.js';

const defaultPreemptionPolicy = 'PreemptLowerPriority';

function isPodWrite(request: AdmissionRequest): boolean {
  return request.rt.group === '' && request.rt.resource === 'pods' && !request.subresource;
}

export class PriorityAdmission implements AdmissionPlugin {
  constructor(private readonly services: AdmissionServices) {}

  admit(request: AdmissionRequest): void {
    const spec = request.object?.spec as PodSpec | undefined;
    if (!isPodWrite(request) || !spec || typeof spec !== 'object') return;
    if (request.operation === 'UPDATE') {
      const old = (request.oldObject?.spec ?? {}) as Partial<PodSpec>;
      if (spec.priority === undefined && old.priority !== undefined) spec.priority = old.priority;
      if (spec.preemptionPolicy === undefined && old.preemptionPolicy !== undefined) spec.preemptionPolicy = old.preemptionPolicy;
      return;
    }
    if (request.operation !== 'CREATE') return;
    let priority = 0;
    let preemptionPolicy: string | undefined = defaultPreemptionPolicy;
    if (!spec.priorityClassName) {
      const fallback = this.globalDefault();
      if (fallback) {
        spec.priorityClassName = fallback.metadata.name;
        priority = Number(fallback.value ?? 0);
        preemptionPolicy = fallback.preemptionPolicy;
      }
    } else {
      const named = this.priorityClasses().find((pc) => pc.metadata.name === spec.priorityClassName);
      if (!named) throw admissionForbidden(request, [`no PriorityClass with name ${spec.priorityClassName} was found`]);
      const namedClass = asStored<PriorityClass>(named);
      priority = Number(namedClass.value ?? 0);
      preemptionPolicy = namedClass.preemptionPolicy;
    }
    if (spec.priority !== undefined && spec.priority !== null && spec.priority !== priority) {
      throw admissionForbidden(request, [`the integer value of priority (${spec.priority}) must not be provided in pod spec; priority admission controller computed ${priority} from the given PriorityClass name`]);
    }
    spec.priority = priority;
    if (preemptionPolicy !== undefined) {
      if (spec.preemptionPolicy !== undefined && spec.preemptionPolicy !== null && spec.preemptionPolicy !== preemptionPolicy) {
        throw admissionForbidden(request, [`the string value of PreemptionPolicy (${spec.preemptionPolicy}) must not be provided in pod spec; priority admission controller computed ${preemptionPolicy} from the given PriorityClass name`]);
      }
      spec.preemptionPolicy = preemptionPolicy;
    }
  }

  validate(request: AdmissionRequest): void {
    const { rt, object, operation, subresource } = request;
    if (rt.group !== 'scheduling.k8s.io' || rt.resource !== 'priorityclasses' || subresource || !object?.globalDefault) return;
    if (operation !== 'CREATE' && operation !== 'UPDATE') return;
    const existing = this.globalDefault();
    if (existing && (operation === 'CREATE' || existing.metadata.name !== object.metadata.name)) {
      throw admissionForbidden(request, [`PriorityClass ${existing.metadata.name} is already marked as default. Only one default can exist`]);
    }
  }

  private priorityClasses(): readonly KubeObject[] {
    const rt = this.services.catalog.find('scheduling.k8s.io', 'v1', 'priorityclasses');
    return rt ? this.services.store.listShared(rt.bucket) : [];
  }

  /** The globalDefault class; should a race have made several, the lowest value (getDefaultPriorityClass). */
  private globalDefault(): Stored<PriorityClass> | undefined {
    let found: Stored<PriorityClass> | undefined;
    for (const stored of this.priorityClasses()) {
      const pc = asStored<PriorityClass>(stored);
      if (pc.globalDefault && (!found || Number(found.value ?? 0) > Number(pc.value ?? 0))) found = pc;
    }
    return found;
  }
}
