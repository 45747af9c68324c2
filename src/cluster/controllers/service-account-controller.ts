/**
 * ServiceAccount controller and root-CA publisher (§7.4): every active namespace gets the `default`
 * ServiceAccount and, when the cluster has a CA, the `kube-root-ca.crt` ConfigMap; both come back if deleted.
 */
import type { StoreEvent } from '../store/object-store.js';
import type { ControllerClient } from './controller-client.js';
import type { BuiltinController } from './controller-scheduler.js';

export const rootCaConfigMap = 'kube-root-ca.crt';

export class ServiceAccountController implements BuiltinController {
  readonly name = 'serviceaccount-controller';

  /** `rootCaClient` writes the ConfigMap under the root-ca-cert-publisher identity. */
  constructor(private readonly client: ControllerClient, private readonly caCertPem: string | undefined, private readonly rootCaClient: ControllerClient = client) {}

  initialKeys(): string[] {
    return this.client.list('namespaces').map((n) => n.metadata.name);
  }

  keysFor(event: StoreEvent): string[] {
    const o = event.object;
    if (event.bucket === 'namespaces') return event.type === 'DELETED' ? [] : [o.metadata.name];
    if (event.type !== 'DELETED' || !o.metadata.namespace) return [];
    if (event.bucket === 'serviceaccounts' && o.metadata.name === 'default') return [o.metadata.namespace];
    if (event.bucket === 'configmaps' && o.metadata.name === rootCaConfigMap) return [o.metadata.namespace];
    return [];
  }

  reconcile(namespace: string): void {
    const ns = this.client.get('namespaces', undefined, namespace);
    if (!ns || ns.metadata.deletionTimestamp) return;
    if (!this.client.get('serviceaccounts', namespace, 'default')) {
      this.client.create('serviceaccounts', namespace, { apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name: 'default', namespace } });
    }
    if (this.caCertPem && !this.rootCaClient.get('configmaps', namespace, rootCaConfigMap)) {
      this.rootCaClient.create('configmaps', namespace, {
        apiVersion: 'v1',
        kind: 'ConfigMap',
        metadata: { name: rootCaConfigMap, namespace, annotations: { 'kubernetes.io/description': 'Contains a CA bundle that can be used to verify the kube-apiserver when using internal endpoints such as the internal service IP or kubernetes.default.svc. No other usage is guaranteed across distributions of Kubernetes clusters.' } },
        data: { 'ca.crt': this.caCertPem },
      });
    }
  }
}
