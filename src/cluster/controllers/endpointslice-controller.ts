/**
 * The EndpointSlice controller: for each Service with a selector, discovery.k8s.io/v1 EndpointSlices
 * named `<service>-<5 chars>` (labels kubernetes.io/service-name and endpointslice.kubernetes.io/managed-by,
 * owned by the Service), one group of slices per distinct port set, at most 100 endpoints per slice, with
 * the ready/serving/terminating conditions of 1.32; a Service without endpoints keeps one empty slice.
 */
import type { Pod, Service, ServicePort } from 'kubernetes-types/core/v1.js';
import type { Endpoint, EndpointPort } from 'kubernetes-types/discovery/v1.js';
import type { ClusterClock } from '../clock/virtual-clock.js';
import type { KubeObject, NewKubeObject, Stored, StoreEvent } from '../store/object-store.js';
import type { ControllerClient } from './controller-client.js';
import type { BuiltinController } from './controller-scheduler.js';
import { belongsInEndpoints, hasSelector, isPodReady, labelsFromService, lastChangeTriggerTime, podChangeTime, podReference, resolveTargetPort, serviceSelects, triggerTimeText } from './service-pods.js';

export const serviceNameLabel = 'kubernetes.io/service-name';
export const managedByLabel = 'endpointslice.kubernetes.io/managed-by';
export const endpointSliceControllerName = 'endpointslice-controller.k8s.io';
export const maxEndpointsPerSlice = 100;

const key = (o: KubeObject): string => `${o.metadata.namespace}/${o.metadata.name}`;

/** What one EndpointSlice holds: a port set (none for the placeholder slice) and its endpoints. */
interface SliceContent {
  ports: EndpointPort[];
  endpoints: Endpoint[];
}

/** Desired endpoints of a Service grouped by their port set (JSON of the ports → ports and endpoints). */
export function desiredEndpoints(service: Stored<Service>, pods: Array<Stored<Pod>>): Map<string, SliceContent> {
  const publishNotReady = service.spec?.publishNotReadyAddresses === true;
  const servicePorts: ServicePort[] = service.spec?.ports ?? [];
  const groups = new Map<string, SliceContent>();
  for (const pod of pods) {
    if (!belongsInEndpoints(pod, true)) continue;
    const ports: EndpointPort[] = [];
    for (const sp of servicePorts) {
      const port = resolveTargetPort(pod, sp);
      if (port === undefined) continue;
      ports.push({ name: sp.name ?? '', port, protocol: sp.protocol ?? 'TCP', ...(sp.appProtocol ? { appProtocol: sp.appProtocol } : {}) });
    }
    const serving = isPodReady(pod);
    const terminating = Boolean(pod.metadata.deletionTimestamp);
    const endpoint: Endpoint = {
      addresses: [pod.status!.podIP!], // pods in endpoints have their IP
      conditions: { ready: publishNotReady || (serving && !terminating), serving, terminating },
      ...(pod.spec?.hostname && pod.spec?.subdomain === service.metadata.name ? { hostname: pod.spec.hostname } : {}),
      targetRef: podReference(pod),
      ...(pod.spec?.nodeName ? { nodeName: pod.spec.nodeName } : {}),
    };
    const portsKey = JSON.stringify(ports);
    const group = groups.get(portsKey) ?? { ports, endpoints: [] };
    groups.set(portsKey, group);
    group.endpoints.push(endpoint);
  }
  for (const g of groups.values()) g.endpoints.sort((a, b) => (a.addresses[0] < b.addresses[0] ? -1 : a.addresses[0] > b.addresses[0] ? 1 : 0));
  return groups;
}

const chunks = <T>(list: T[], size: number): T[][] => {
  const out: T[][] = [];
  for (let i = 0; i < list.length; i += size) out.push(list.slice(i, i + size));
  return out;
};

export class EndpointSliceController implements BuiltinController {
  readonly name = 'endpointslice-controller';

  constructor(private readonly client: ControllerClient, private readonly clock: ClusterClock) {}

  initialKeys(): string[] {
    return this.client.list('services').filter(hasSelector).map(key);
  }

  keysFor(event: StoreEvent): string[] {
    if (event.bucket === 'services') return [key(event.object)];
    if (event.bucket === 'endpointslices.discovery.k8s.io') {
      const o = event.object;
      const service = o.metadata.labels?.[serviceNameLabel];
      return service && o.metadata.labels?.[managedByLabel] === endpointSliceControllerName && event.type !== 'ADDED' ? [`${o.metadata.namespace}/${service}`] : [];
    }
    if (event.bucket !== 'pods') return [];
    const pods = [event.object, ...(event.oldObject ? [event.oldObject] : [])];
    return this.client
      .list('services', event.object.metadata.namespace)
      .filter((s) => hasSelector(s) && pods.some((p) => serviceSelects(s, p)))
      .map(key);
  }

  private ownedSlices(namespace: string, name: string): KubeObject[] {
    return this.client
      .list('discovery.k8s.io/endpointslices', namespace)
      .filter((s) => s.metadata.labels?.[serviceNameLabel] === name && s.metadata.labels?.[managedByLabel] === endpointSliceControllerName);
  }

  reconcile(serviceKey: string): void {
    const [namespace, name] = serviceKey.split('/') as [string, string];
    const service = this.client.get('services', namespace, name);
    const existing = this.ownedSlices(namespace, name);
    if (!service || !hasSelector(service) || service.metadata.deletionTimestamp) {
      // slices of a deleted Service go with it (garbage collection by owner); a selector removed drops them now
      if (service && !hasSelector(service)) for (const s of existing) this.client.delete('discovery.k8s.io/endpointslices', namespace, s.metadata.name);
      return;
    }
    const pods = this.client.list('pods', namespace).filter((p) => serviceSelects(service, p));
    const desired: Array<{ ports: EndpointPort[] | undefined; endpoints: Endpoint[] }> = [];
    for (const group of desiredEndpoints(service, pods).values()) {
      for (const part of chunks(group.endpoints, maxEndpointsPerSlice)) desired.push({ ports: group.ports, endpoints: part });
    }
    // a Service with nothing to route to keeps one placeholder slice without ports or endpoints
    if (desired.length === 0) desired.push({ ports: undefined, endpoints: [] });
    const changedAt = Math.max(Date.parse(service.metadata.creationTimestamp ?? '') || 0, ...pods.map(podChangeTime));
    const labels = { ...labelsFromService(service), [serviceNameLabel]: name, [managedByLabel]: endpointSliceControllerName };
    const reusable = [...existing].sort((a, b) => (a.metadata.name < b.metadata.name ? -1 : 1));
    for (const want of desired) {
      // keep a slice already carrying these ports when there is one
      const i = reusable.findIndex((s) => JSON.stringify(s.ports ?? null) === JSON.stringify(want.ports ?? null));
      const slice = i === -1 ? reusable.shift() : reusable.splice(i, 1)[0];
      this.write(service, slice, want, labels, changedAt || this.clock.now());
    }
    for (const extra of reusable) this.client.delete('discovery.k8s.io/endpointslices', namespace, extra.metadata.name);
  }

  private write(service: KubeObject, slice: KubeObject | undefined, want: { ports: EndpointPort[] | undefined; endpoints: Endpoint[] }, labels: Record<string, string>, changedAt: number): void {
    const same =
      slice &&
      JSON.stringify(slice.endpoints ?? []) === JSON.stringify(want.endpoints) &&
      JSON.stringify(slice.ports ?? null) === JSON.stringify(want.ports ?? null) &&
      JSON.stringify(slice.metadata.labels ?? {}) === JSON.stringify(labels);
    if (same) return;
    const { namespace, name } = service.metadata;
    const body: NewKubeObject = {
      apiVersion: 'discovery.k8s.io/v1',
      kind: 'EndpointSlice',
      metadata: {
        ...(slice?.metadata ?? { generateName: `${name}-`, namespace }),
        labels,
        annotations: { ...(slice?.metadata.annotations ?? {}), [lastChangeTriggerTime]: triggerTimeText(changedAt) },
        ownerReferences: [{ apiVersion: 'v1', kind: 'Service', name, uid: service.metadata.uid!, controller: true, blockOwnerDeletion: true }],
      },
      addressType: 'IPv4',
      endpoints: want.endpoints,
      ...(want.ports ? { ports: want.ports } : {}),
    };
    if (slice) this.client.update('discovery.k8s.io/endpointslices', body as KubeObject); // named: it is the existing slice's metadata
    else this.client.create('discovery.k8s.io/endpointslices', namespace, body);
  }
}
