/**
 * The endpoints controller: keeps one core/v1 Endpoints per Service with a selector — ready pods in
 * `addresses`, not-ready ones in `notReadyAddresses` (all in `addresses` with publishNotReadyAddresses),
 * each with its node and pod reference, grouped into subsets by the ports their targetPorts resolve
 * to — and removes it with the Service. Selector-less Services keep the Endpoints their owner writes.
 */
import type { EndpointPort, Pod, Service, ServicePort } from 'kubernetes-types/core/v1.js';
import type { ClusterClock } from '../clock/virtual-clock.js';
import type { KubeObject, Stored, StoreEvent } from '../store/object-store.js';
import type { ControllerClient } from './controller-client.js';
import type { BuiltinController } from './controller-scheduler.js';
import { belongsInEndpoints, hasSelector, isPodReady, labelsFromService, lastChangeTriggerTime, podChangeTime, podReference, resolveTargetPort, serviceSelects, triggerTimeText } from './service-pods.js';

interface Address {
  ip: string;
  nodeName?: string;
  hostname?: string;
  targetRef: Record<string, string>;
}

const key = (o: KubeObject): string => `${o.metadata.namespace}/${o.metadata.name}`;
const byIP = (a: Address, b: Address): number => (a.ip < b.ip ? -1 : a.ip > b.ip ? 1 : 0);

/** The subsets of a Service's Endpoints computed from its pods (RepackSubsets: one subset per port set). */
export function endpointSubsets(service: Stored<Service>, pods: Array<Stored<Pod>>): Array<Record<string, unknown>> {
  const publishNotReady = service.spec?.publishNotReadyAddresses === true;
  const servicePorts: ServicePort[] = service.spec?.ports ?? [];
  const groups = new Map<string, { ports: EndpointPort[]; ready: Address[]; notReady: Address[] }>();
  for (const pod of pods) {
    if (!belongsInEndpoints(pod, publishNotReady)) continue;
    // pods in endpoints have their IP
    const address: Address = { ip: pod.status!.podIP!, ...(pod.spec?.nodeName ? { nodeName: pod.spec.nodeName } : {}), targetRef: podReference(pod) };
    if (pod.spec?.hostname && pod.spec?.subdomain === service.metadata.name) address.hostname = pod.spec.hostname;
    const ports: EndpointPort[] = [];
    for (const sp of servicePorts) {
      const port = resolveTargetPort(pod, sp);
      if (port === undefined) continue;
      ports.push({ ...(sp.name ? { name: sp.name } : {}), port, protocol: sp.protocol ?? 'TCP', ...(sp.appProtocol ? { appProtocol: sp.appProtocol } : {}) });
    }
    if (servicePorts.length > 0 && ports.length === 0) continue;
    ports.sort((a, b) => ((a.name ?? '') < (b.name ?? '') ? -1 : (a.name ?? '') > (b.name ?? '') ? 1 : a.port - b.port));
    const portsKey = JSON.stringify(ports);
    const group = groups.get(portsKey) ?? { ports, ready: [], notReady: [] };
    groups.set(portsKey, group);
    (publishNotReady || isPodReady(pod) ? group.ready : group.notReady).push(address);
  }
  return [...groups.values()].map((g) => ({
    ...(g.ready.length ? { addresses: g.ready.sort(byIP) } : {}),
    ...(g.notReady.length ? { notReadyAddresses: g.notReady.sort(byIP) } : {}),
    ...(g.ports.length ? { ports: g.ports } : {}),
  }));
}

export class EndpointsController implements BuiltinController {
  readonly name = 'endpoint-controller';

  constructor(private readonly client: ControllerClient, private readonly clock: ClusterClock) {}

  initialKeys(): string[] {
    return this.client.list('services').filter(hasSelector).map(key);
  }

  keysFor(event: StoreEvent): string[] {
    if (event.bucket === 'services') return [key(event.object)];
    if (event.bucket === 'endpoints') return event.type === 'ADDED' ? [] : [key(event.object)];
    if (event.bucket !== 'pods') return [];
    const pods = [event.object, ...(event.oldObject ? [event.oldObject] : [])];
    return this.client
      .list('services', event.object.metadata.namespace)
      .filter((s) => hasSelector(s) && pods.some((p) => serviceSelects(s, p)))
      .map(key);
  }

  reconcile(serviceKey: string): void {
    const [namespace, name] = serviceKey.split('/') as [string, string];
    const service = this.client.get('services', namespace, name);
    const current = this.client.get('endpoints', namespace, name);
    if (!service) {
      if (current && !current.metadata.labels?.['endpointslice.kubernetes.io/skip-mirror'] && name !== 'kubernetes') this.client.delete('endpoints', namespace, name);
      return;
    }
    if (!hasSelector(service) || service.metadata.deletionTimestamp) return;
    const pods = this.client.list('pods', namespace).filter((p) => serviceSelects(service, p));
    const subsets = endpointSubsets(service, pods);
    const labels = labelsFromService(service);
    if (current && JSON.stringify(current.subsets ?? []) === JSON.stringify(subsets) && JSON.stringify(current.metadata.labels ?? {}) === JSON.stringify(labels)) return;
    const changedAt = Math.max(Date.parse(service.metadata.creationTimestamp ?? '') || 0, ...pods.map(podChangeTime));
    const annotations = { ...(current?.metadata.annotations ?? {}), [lastChangeTriggerTime]: triggerTimeText(changedAt || this.clock.now()) };
    const body: KubeObject = {
      apiVersion: 'v1',
      kind: 'Endpoints',
      metadata: { ...(current?.metadata ?? { name, namespace }), labels, annotations },
      ...(subsets.length ? { subsets } : {}),
    };
    if (Object.keys(labels).length === 0) delete body.metadata.labels;
    if (current) this.client.update('endpoints', body);
    else this.client.create('endpoints', namespace, body);
  }
}
