/**
 * The `kubernetes` Service in `default`, as kube-apiserver's bootstrap controller keeps it: cluster IP
 * 10.96.0.1, port `https` 443 → 6443, and its Endpoints and EndpointSlice pointing at the API server's
 * advertise address (the control-plane node's InternalIP). In-cluster clients resolve the API through it.
 * Written at start-up, and written again when deleted (the controller below).
 */
import { apiServerAdvertiseAddress, apiServerSecurePort } from './control-plane-endpoint.js';
import type { ObjectOperations } from './registry/object-operations.js';
import type { ResourceCatalog } from './registry/resource-catalog.js';
import { kubernetesServiceIP } from './registry/builtin/service-network.js';
import type { KubeObject, StoreEvent } from './store/object-store.js';
import type { ControllerClient } from './controllers/controller-client.js';
import type { BuiltinController } from './controllers/controller-scheduler.js';

/** The three objects, by resource name as ControllerClient takes it. */
export function kubernetesServiceObjects(): Array<{ resource: string; object: KubeObject }> {
  return [
    {
      resource: 'services',
      object: {
        apiVersion: 'v1',
        kind: 'Service',
        metadata: { name: 'kubernetes', namespace: 'default', labels: { component: 'apiserver', provider: 'kubernetes' } },
        spec: {
          type: 'ClusterIP',
          clusterIP: kubernetesServiceIP,
          clusterIPs: [kubernetesServiceIP],
          ports: [{ name: 'https', protocol: 'TCP', port: 443, targetPort: apiServerSecurePort }],
          sessionAffinity: 'None',
          ipFamilies: ['IPv4'],
          ipFamilyPolicy: 'SingleStack',
          internalTrafficPolicy: 'Cluster',
        },
      },
    },
    {
      resource: 'endpoints',
      object: {
        apiVersion: 'v1',
        kind: 'Endpoints',
        metadata: { name: 'kubernetes', namespace: 'default', labels: { 'endpointslice.kubernetes.io/skip-mirror': 'true' } },
        subsets: [{ addresses: [{ ip: apiServerAdvertiseAddress }], ports: [{ name: 'https', port: apiServerSecurePort, protocol: 'TCP' }] }],
      },
    },
    {
      resource: 'discovery.k8s.io/endpointslices',
      object: {
        apiVersion: 'discovery.k8s.io/v1',
        kind: 'EndpointSlice',
        metadata: { name: 'kubernetes', namespace: 'default', labels: { 'kubernetes.io/service-name': 'kubernetes' } },
        addressType: 'IPv4',
        endpoints: [{ addresses: [apiServerAdvertiseAddress], conditions: { ready: true } }],
        ports: [{ name: 'https', port: apiServerSecurePort, protocol: 'TCP' }],
      },
    },
  ];
}

export function bootstrapKubernetesService(catalog: ResourceCatalog, operations: ObjectOperations): void {
  for (const { resource, object } of kubernetesServiceObjects()) {
    const [group, name] = resource.includes('/') ? resource.split('/') as [string, string] : ['', resource];
    const rt = catalog.find(group, 'v1', name);
    if (rt) operations.create(rt, 'default', object, { fieldManager: 'kube-apiserver' });
  }
}

const buckets: Record<string, string> = { services: 'services', endpoints: 'endpoints', 'endpointslices.discovery.k8s.io': 'discovery.k8s.io/endpointslices' };

/** Writes the `kubernetes` Service, Endpoints or EndpointSlice again when one is deleted. */
export class KubernetesServiceController implements BuiltinController {
  readonly name = 'kubernetes-service-controller';

  constructor(private readonly client: ControllerClient) {}

  keysFor(event: StoreEvent): string[] {
    const resource = buckets[event.bucket];
    const o = event.object;
    return resource && event.type === 'DELETED' && o.metadata.namespace === 'default' && o.metadata.name === 'kubernetes' ? [resource] : [];
  }

  reconcile(resource: string): void {
    const wanted = kubernetesServiceObjects().find((o) => o.resource === resource);
    if (!wanted || this.client.get(resource, 'default', 'kubernetes')) return;
    this.client.create(resource, 'default', wanted.object);
  }
}
