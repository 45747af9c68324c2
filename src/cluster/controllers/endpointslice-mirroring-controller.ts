/**
 * The EndpointSlice mirroring controller: Endpoints written by hand for a Service without a selector
 * are mirrored into EndpointSlices (`<endpoints>-<5 chars>`, managed-by
 * endpointslicemirroring-controller.k8s.io, owned by the Endpoints), one per subset: ready addresses
 * with ready=true, not-ready ones with ready=false. Endpoints labelled skip-mirror are left alone.
 */
import type { Endpoint } from 'kubernetes-types/discovery/v1.js';
import type { EndpointAddress, Endpoints, EndpointSubset } from 'kubernetes-types/core/v1.js';
import { asStored } from '../store/kube-object.js';
import type { KubeObject, NewKubeObject, StoreEvent } from '../store/object-store.js';
import type { ControllerClient } from './controller-client.js';
import type { BuiltinController } from './controller-scheduler.js';
import { managedByLabel, serviceNameLabel } from './endpointslice-controller.js';
import { hasSelector, lastChangeTriggerTime } from './service-pods.js';

export const mirroringControllerName = 'endpointslicemirroring-controller.k8s.io';
const skipMirrorLabel = 'endpointslice.kubernetes.io/skip-mirror';

const key = (o: KubeObject): string => `${o.metadata.namespace}/${o.metadata.name}`;

function mirroredEndpoint(address: EndpointAddress, ready: boolean): Endpoint {
  return {
    addresses: [address.ip],
    conditions: { ready },
    ...(address.hostname ? { hostname: address.hostname } : {}),
    ...(address.targetRef ? { targetRef: address.targetRef } : {}),
    ...(address.nodeName ? { nodeName: address.nodeName } : {}),
  };
}

export class EndpointSliceMirroringController implements BuiltinController {
  readonly name = 'endpointslice-mirroring-controller';

  constructor(private readonly client: ControllerClient) {}

  initialKeys(): string[] {
    return this.client.list('endpoints').map(key);
  }

  keysFor(event: StoreEvent): string[] {
    if (event.bucket === 'endpoints' || event.bucket === 'services') return [key(event.object)];
    if (event.bucket === 'endpointslices.discovery.k8s.io' && event.object.metadata.labels?.[managedByLabel] === mirroringControllerName && event.type !== 'ADDED') {
      const service = event.object.metadata.labels?.[serviceNameLabel];
      return service ? [`${event.object.metadata.namespace}/${service}`] : [];
    }
    return [];
  }

  reconcile(endpointsKey: string): void {
    const [namespace, name] = endpointsKey.split('/') as [string, string];
    const endpoints = this.client.get('endpoints', namespace, name);
    const service = this.client.get('services', namespace, name);
    const existing = this.client
      .list('discovery.k8s.io/endpointslices', namespace)
      .filter((s) => s.metadata.labels?.[serviceNameLabel] === name && s.metadata.labels?.[managedByLabel] === mirroringControllerName)
      .sort((a, b) => (a.metadata.name < b.metadata.name ? -1 : 1));
    const mirror = endpoints && service && !hasSelector(service) && endpoints.metadata.labels?.[skipMirrorLabel] !== 'true';
    const desired = mirror
      ? (asStored<Endpoints>(endpoints).subsets ?? []).map((subset: EndpointSubset) => ({
          endpoints: [...(subset.addresses ?? []).map((a) => mirroredEndpoint(a, true)), ...(subset.notReadyAddresses ?? []).map((a) => mirroredEndpoint(a, false))],
          ports: (subset.ports ?? []).map((p) => ({ name: p.name ?? '', port: p.port, protocol: p.protocol ?? 'TCP', ...(p.appProtocol ? { appProtocol: p.appProtocol } : {}) })),
        }))
      : [];
    const labels: Record<string, string> = { ...(endpoints?.metadata.labels ?? {}), [serviceNameLabel]: name, [managedByLabel]: mirroringControllerName };
    const annotations: Record<string, string> = { ...(endpoints?.metadata.annotations ?? {}) };
    delete annotations[lastChangeTriggerTime];
    delete annotations['kubectl.kubernetes.io/last-applied-configuration'];
    for (const want of desired) {
      const slice = existing.shift();
      if (slice && JSON.stringify(slice.endpoints ?? []) === JSON.stringify(want.endpoints) && JSON.stringify(slice.ports ?? []) === JSON.stringify(want.ports) && JSON.stringify(slice.metadata.labels ?? {}) === JSON.stringify(labels)) continue;
      const body: NewKubeObject = {
        apiVersion: 'discovery.k8s.io/v1',
        kind: 'EndpointSlice',
        metadata: {
          ...(slice?.metadata ?? { generateName: `${name}-`, namespace }),
          labels,
          ...(Object.keys(annotations).length ? { annotations } : {}),
          ownerReferences: [{ apiVersion: 'v1', kind: 'Endpoints', name, uid: endpoints!.metadata.uid!, controller: true, blockOwnerDeletion: true }],
        },
        addressType: 'IPv4',
        endpoints: want.endpoints,
        ports: want.ports,
      };
      if (slice) this.client.update('discovery.k8s.io/endpointslices', body as KubeObject); // named: it is the existing slice's metadata
      else this.client.create('discovery.k8s.io/endpointslices', namespace, body);
    }
    for (const extra of existing) this.client.delete('discovery.k8s.io/endpointslices', namespace, extra.metadata.name);
  }
}
