/**
 * What the endpoints, EndpointSlice and disruption controllers ask of pods: which pods a Service or
 * a LabelSelector selects, whether a pod is ready, whether it belongs in endpoints at all, which
 * container port a Service port's targetPort names, and the trigger-time annotation they write.
 */
import type { Pod, PodCondition, Service, ServicePort } from 'kubernetes-types/core/v1.js';
import { labelSelectorToString, matchesLabels, parseLabelSelector } from '../selectors/label-selector.js';
import type { Stored } from '../store/object-store.js';

export const lastChangeTriggerTime = 'endpoints.kubernetes.io/last-change-trigger-time';
export const headlessLabel = 'service.kubernetes.io/headless';

/** A Service with a non-empty selector (selector-less Services get Endpoints written by hand). */
export function hasSelector(service: Stored<Service>): boolean {
  return Object.keys(service.spec?.selector ?? {}).length > 0;
}

/** The pod's labels match every key=value of the Service's selector. */
export function serviceSelects(service: Stored<Service>, pod: Stored<Pod>): boolean {
  const selector: Record<string, string> = service.spec?.selector ?? {};
  const labels: Record<string, string> = pod.metadata.labels ?? {};
  return Object.entries(selector).every(([k, v]) => labels[k] === v);
}

/** metav1.LabelSelector semantics: nil selects nothing, `{}` selects everything. */
export function labelSelectorSelects(selector: unknown, labels: Record<string, string> | undefined): boolean {
  if (!selector || typeof selector !== 'object') return false;
  return matchesLabels(parseLabelSelector(labelSelectorToString(selector as never)), labels);
}

/** The pod's Ready condition is True. */
export function isPodReady(pod: Stored<Pod>): boolean {
  return (pod.status?.conditions ?? []).some((c: PodCondition) => c.type === 'Ready' && c.status === 'True');
}

const isTerminal = (pod: Stored<Pod>): boolean => pod.status?.phase === 'Succeeded' || pod.status?.phase === 'Failed';

/** ShouldPodBeInEndpoints: an IP, not finished, and (unless terminating pods are included) not terminating. */
export function belongsInEndpoints(pod: Stored<Pod>, includeTerminating: boolean): boolean {
  if (isTerminal(pod) || !pod.status?.podIP) return false;
  return includeTerminating || !pod.metadata.deletionTimestamp;
}

/**
 * The pod port a Service port reaches: a number is taken as is; a name is looked up among the
 * containers' ports with the same protocol (undefined when the pod has no such port).
 */
export function resolveTargetPort(pod: Stored<Pod>, servicePort: ServicePort): number | undefined {
  const target = servicePort.targetPort ?? servicePort.port;
  if (typeof target === 'number') return target;
  const protocol = servicePort.protocol ?? 'TCP';
  for (const c of pod.spec?.containers ?? []) {
    for (const p of c.ports ?? []) if (p.name === target && (p.protocol ?? 'TCP') === protocol) return p.containerPort;
  }
  if (/^\d+$/.test(String(target))) return Number(target);
  return undefined;
}

/** When the pod last changed in a way endpoints see: its Ready transition, else its creation. */
export function podChangeTime(pod: Stored<Pod>): number {
  const ready = (pod.status?.conditions ?? []).find((c: PodCondition) => c.type === 'Ready');
  return Date.parse(ready?.lastTransitionTime ?? pod.metadata.creationTimestamp ?? '') || 0;
}

/** RFC 3339 as Go's RFC3339Nano prints a whole-second time. */
export function triggerTimeText(ms: number): string {
  return new Date(ms).toISOString().replace(/\.000Z$/, 'Z');
}

/** The pod reference endpoints carry. */
export function podReference(pod: Stored<Pod>): Record<string, string> {
  return { kind: 'Pod', namespace: pod.metadata.namespace!, name: pod.metadata.name, uid: pod.metadata.uid! };
}

/** The labels a Service's Endpoints/EndpointSlices copy from it, plus the headless marker. */
export function labelsFromService(service: Stored<Service>): Record<string, string> {
  const labels: Record<string, string> = { ...(service.metadata.labels ?? {}) };
  if (service.spec?.clusterIP === 'None') labels[headlessLabel] = '';
  return labels;
}
