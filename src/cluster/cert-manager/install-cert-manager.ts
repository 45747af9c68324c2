/**
 * Installs the local cluster's cert-manager stand-in (`startLocalCluster({ certManager: true })`,
 * `kubeforge cluster start --cert-manager`): creates the cert-manager.io CRDs when they are absent
 * and adds the issuer and the CA injector to the built-in controllers, under cert-manager's own
 * ServiceAccount identities.
 */
import type { ControllerClient, ControllerIdentity } from '../controllers/controller-client.js';
import type { ControllerScheduler } from '../controllers/controller-scheduler.js';
import type { ClusterClock } from '../clock/virtual-clock.js';
import { CaInjector } from './ca-injector.js';
import { certManagerDefinitions } from './cert-manager-crds.js';
import { CertificateIssuer } from './certificate-issuer.js';

const inCertManager = (name: string): ControllerIdentity => ({
  user: `system:serviceaccount:cert-manager:${name}`,
  groups: ['system:serviceaccounts', 'system:serviceaccounts:cert-manager', 'system:authenticated'],
  fieldManager: name,
});

export const certManagerIdentities = { controller: inCertManager('cert-manager'), cainjector: inCertManager('cert-manager-cainjector') };

export interface InstalledCertManager {
  issuer: CertificateIssuer;
  injector: CaInjector;
}

export function installCertManager(scheduler: ControllerScheduler, clock: ClusterClock, client: (identity: ControllerIdentity) => ControllerClient): InstalledCertManager {
  const controllerClient = client(certManagerIdentities.controller);
  for (const crd of certManagerDefinitions()) {
    if (!controllerClient.get('apiextensions.k8s.io/customresourcedefinitions', undefined, crd.metadata.name)) controllerClient.create('apiextensions.k8s.io/customresourcedefinitions', undefined, crd);
  }
  const issuer = new CertificateIssuer(controllerClient, clock);
  issuer.requeue = (key) => scheduler.enqueue(issuer.name, key);
  scheduler.add(issuer);
  const injector = new CaInjector(client(certManagerIdentities.cainjector));
  scheduler.add(injector);
  return { issuer, injector };
}
