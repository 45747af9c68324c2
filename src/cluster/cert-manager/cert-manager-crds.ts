/**
 * The cert-manager.io/v1 CustomResourceDefinitions the local cluster serves when it stands in for
 * cert-manager (`startLocalCluster({ certManager: true })`, `cluster start --cert-manager`): Issuer,
 * ClusterIssuer and Certificate — the kinds a kubebuilder project's config/certmanager applies. The
 * schemas keep what the local issuer reads typed (issuerRef, dnsNames, secretName) and preserve the
 * rest, so any manifest written for the real cert-manager is accepted as it is.
 */
import type { KubeObject } from '../store/object-store.js';

export const certManagerGroup = 'cert-manager.io';

const preserved = { type: 'object', 'x-kubernetes-preserve-unknown-fields': true };

const readyColumn = { name: 'Ready', type: 'string', jsonPath: '.status.conditions[?(@.type=="Ready")].status' };
const ageColumn = { name: 'Age', type: 'date', jsonPath: '.metadata.creationTimestamp' };

function definition(plural: string, kind: string, scope: 'Namespaced' | 'Cluster', spec: Record<string, unknown>, columns: Array<Record<string, string>>, shortNames: string[]): KubeObject {
  return {
    apiVersion: 'apiextensions.k8s.io/v1',
    kind: 'CustomResourceDefinition',
    metadata: { name: `${plural}.${certManagerGroup}`, labels: { 'app.kubernetes.io/name': 'cert-manager', 'app.kubernetes.io/managed-by': 'kubeforge' } },
    spec: {
      group: certManagerGroup,
      names: { plural, singular: kind.toLowerCase(), kind, listKind: `${kind}List`, shortNames, categories: ['cert-manager'] },
      scope,
      versions: [
        {
          name: 'v1',
          served: true,
          storage: true,
          subresources: { status: {} },
          additionalPrinterColumns: columns,
          schema: { openAPIV3Schema: { type: 'object', required: ['spec'], properties: { spec, status: preserved } } },
        },
      ],
    },
  };
}

const issuerSpec = preserved;

const certificateSpec = {
  type: 'object',
  'x-kubernetes-preserve-unknown-fields': true,
  required: ['issuerRef', 'secretName'],
  properties: {
    secretName: { type: 'string' },
    commonName: { type: 'string' },
    dnsNames: { type: 'array', items: { type: 'string' } },
    ipAddresses: { type: 'array', items: { type: 'string' } },
    duration: { type: 'string' },
    issuerRef: { type: 'object', required: ['name'], properties: { name: { type: 'string' }, kind: { type: 'string' }, group: { type: 'string' } } },
  },
};

/** The three definitions, in the order they are created. */
export function certManagerDefinitions(): KubeObject[] {
  return [
    definition('issuers', 'Issuer', 'Namespaced', issuerSpec, [readyColumn, ageColumn], []),
    definition('clusterissuers', 'ClusterIssuer', 'Cluster', issuerSpec, [readyColumn, ageColumn], []),
    definition('certificates', 'Certificate', 'Namespaced', certificateSpec, [readyColumn, { name: 'Secret', type: 'string', jsonPath: '.spec.secretName' }, ageColumn], ['cert', 'certs']),
  ];
}
