/**
 * The `kubernetes` Service in `default`, as kube-apiserver's bootstrap controller keeps it: cluster IP
 * 10.96.0.1, port `https` 443 → 6443, and its Endpoints and EndpointSlice pointing at the API server's
 * advertise address (the control-plane node's InternalIP). In-cluster clients resolve the API through it.
 */
import { apiServerAdvertiseAddress, apiServerSecurePort } from './control-plane-endpoint.js';
import type { ObjectOperations } from './registry/object-operations.js';
import type { ResourceCatalog } from './registry/resource-catalog.js';
import { kubernetesServiceIP } from './registry/builtin/service-network.js';

export function bootstrapKubernetesService(catalog: ResourceCatalog, operations: ObjectOperations): void {
  const written = { fieldManager: 'kube-apiserver' };
  const services = catalog.find('', 'v1', 'services');
  const endpoints = catalog.find('', 'v1', 'endpoints');
  const slices = catalog.find('discovery.k8s.io', 'v1', 'endpointslices');
  if (!services) return;
  operations.create(services, 'default', {
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
  }, written);
  if (endpoints) {
    operations.create(endpoints, 'default', {
      apiVersion: 'v1',
      kind: 'Endpoints',
      metadata: { name: 'kubernetes', namespace: 'default', labels: { 'endpointslice.kubernetes.io/skip-mirror': 'true' } },
      subsets: [{ addresses: [{ ip: apiServerAdvertiseAddress }], ports: [{ name: 'https', port: apiServerSecurePort, protocol: 'TCP' }] }],
    }, written);
  }
  if (slices) {
    operations.create(slices, 'default', {
      apiVersion: 'discovery.k8s.io/v1',
      kind: 'EndpointSlice',
      metadata: { name: 'kubernetes', namespace: 'default', labels: { 'kubernetes.io/service-name': 'kubernetes' } },
      addressType: 'IPv4',
      endpoints: [{ addresses: [apiServerAdvertiseAddress], conditions: { ready: true } }],
      ports: [{ name: 'https', port: apiServerSecurePort, protocol: 'TCP' }],
    }, written);
  }
}
