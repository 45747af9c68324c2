/**
 * A small stand-in for cert-manager's controller in the local cluster: Issuers and ClusterIssuers of
 * the `selfSigned` and `ca` kinds become Ready, and each Certificate they are named by gets its Secret
 * (`kubernetes.io/tls`: tls.crt, tls.key, ca.crt, with cert-manager's annotations) and a Ready
 * condition — what a kubebuilder project's config/certmanager asks of a cluster. Signing is
 * asynchronous (WebCrypto); the result is written by the next reconcile of the key.
 *
 * Where it differs from cert-manager: a `selfSigned` issuer signs each Certificate with a CA made for
 * that Certificate (ca.crt is that CA, not the leaf itself) unless it has `isCA: true` (then it is its
 * own self-signed CA, as in cert-manager's CA bootstrap); renewal before expiry, ACME, Vault and
 * the other issuer kinds are not done (such an issuer is Ready=False and says so).
 */
import type { CustomResourceDefinition } from 'kubernetes-types/apiextensions/v1.js';
import type { Secret } from 'kubernetes-types/core/v1.js';
import type { Condition } from 'kubernetes-types/meta/v1.js';
import { createCertificateAuthority, issueServingCertificate, loadCertificateAuthority, type CertificateAuthority } from '../../certificates/self-signed.js';
import type { ClusterClock } from '../clock/virtual-clock.js';
import type { ControllerClient } from '../controllers/controller-client.js';
import type { BuiltinController } from '../controllers/controller-scheduler.js';
import { rfc3339 } from '../registry/system-metadata.js';
import { asStored } from '../store/kube-object.js';
import type { KubeObject, StoreEvent, Stored } from '../store/object-store.js';
import { certManagerGroup } from './cert-manager-crds.js';
import type { Certificate, Issuer, IssuerRef, IssuerSpec } from './cert-manager-types.js';

const issuers = `${certManagerGroup}/issuers`;
const clusterIssuers = `${certManagerGroup}/clusterissuers`;
const certificates = `${certManagerGroup}/certificates`;
const buckets = { issuer: `issuers.${certManagerGroup}`, clusterIssuer: `clusterissuers.${certManagerGroup}`, certificate: `certificates.${certManagerGroup}` };

/** Where a ClusterIssuer's `ca.secretName` is read (cert-manager's --cluster-resource-namespace default). */
export const clusterResourceNamespace = 'cert-manager';
const defaultDurationMs = 90 * 24 * 3600 * 1000;

/** The Secret annotations cert-manager writes (the injector and users read them). */
export const secretAnnotations = { certificateName: 'cert-manager.io/certificate-name', issuerName: 'cert-manager.io/issuer-name', issuerKind: 'cert-manager.io/issuer-kind', issuerGroup: 'cert-manager.io/issuer-group', altNames: 'cert-manager.io/alt-names', commonName: 'cert-manager.io/common-name' };

interface Signed {
  uid: string;
  generation: number;
  tlsCrt?: string;
  tlsKey?: string;
  caCrt?: string;
  notBefore?: number;
  notAfter?: number;
  error?: string;
}

const b64 = (text: string): string => Buffer.from(text).toString('base64');
const fromB64 = (text: string | undefined): string => (text ? Buffer.from(text, 'base64').toString('utf8') : '');

/** `2160h`, `90m`, `1h30m` (Go durations as cert-manager takes them) → ms; undefined when absent or unreadable. */
function durationMs(text: unknown): number | undefined {
  if (typeof text !== 'string' || !/^(\d+(\.\d+)?(h|m|s))+$/.test(text)) return undefined;
  let ms = 0;
  for (const [, n, , unit] of text.matchAll(/(\d+(\.\d+)?)(h|m|s)/g)) ms += Number(n) * (unit === 'h' ? 3600_000 : unit === 'm' ? 60_000 : 1000);
  return ms;
}

function condition(previous: { status?: { conditions?: Condition[] } } | undefined, status: 'True' | 'False', reason: string, message: string, now: number, generation?: number): Record<string, unknown> {
  const old = (previous?.status?.conditions ?? []).find((c: Condition) => c.type === 'Ready');
  const since = old && old.status === status ? old.lastTransitionTime : rfc3339(now);
  return { type: 'Ready', status, reason, message, lastTransitionTime: since, ...(generation !== undefined ? { observedGeneration: generation } : {}) };
}

export class CertificateIssuer implements BuiltinController {
  readonly name = 'cert-manager-controller';
  private readonly results = new Map<string, Signed>();
  private readonly inFlight = new Set<string>();
  /** Set by the installer: puts a key back on this controller's queue. */
  requeue: (key: string) => void = () => {};

  constructor(private readonly client: ControllerClient, private readonly clock: ClusterClock) {}

  private served(): boolean {
    return Boolean(this.client.typeOfBucket(buckets.certificate) && this.client.typeOfBucket(buckets.issuer) && this.client.typeOfBucket(buckets.clusterIssuer));
  }

  initialKeys(): string[] {
    if (!this.served()) return [];
    return [
      ...this.client.list(issuers).map((o) => `Issuer:${o.metadata.namespace}/${o.metadata.name}`),
      ...this.client.list(clusterIssuers).map((o) => `ClusterIssuer:/${o.metadata.name}`),
      ...this.client.list(certificates).map((o) => `Certificate:${o.metadata.namespace}/${o.metadata.name}`),
    ];
  }

  keysFor(event: StoreEvent): string[] {
    const o = event.object;
    if (event.bucket === 'customresourcedefinitions.apiextensions.k8s.io' && asStored<CustomResourceDefinition>(o).spec?.group === certManagerGroup) return this.served() ? this.initialKeys() : [];
    if (!this.served()) return [];
    if (event.bucket === buckets.certificate) return event.type === 'DELETED' ? [] : [`Certificate:${o.metadata.namespace}/${o.metadata.name}`];
    if (event.bucket === buckets.issuer || event.bucket === buckets.clusterIssuer) {
      const kind = event.bucket === buckets.issuer ? 'Issuer' : 'ClusterIssuer';
      const own = event.type === 'DELETED' ? [] : [`${kind}:${o.metadata.namespace ?? ''}/${o.metadata.name}`];
      return [...own, ...this.certificatesOf(kind, o.metadata.namespace, o.metadata.name)];
    }
    if (event.bucket === 'secrets') {
      // a Secret a Certificate writes to changed or went away: check it is still what the Certificate says;
      // a ca issuer's key pair came or went: the issuer and what it signs
      const ns = o.metadata.namespace;
      const written = this.client.list(certificates, ns).filter((c) => asStored<Certificate>(c).spec?.secretName === o.metadata.name).map((c) => `Certificate:${c.metadata.namespace}/${c.metadata.name}`);
      const signers = [
        ...this.client.list(issuers, ns).filter((i) => asStored<Issuer>(i).spec?.ca?.secretName === o.metadata.name).map((i) => ['Issuer', i] as const),
        ...(ns === clusterResourceNamespace ? this.client.list(clusterIssuers).filter((i) => asStored<Issuer>(i).spec?.ca?.secretName === o.metadata.name).map((i) => ['ClusterIssuer', i] as const) : []),
      ];
      return [...written, ...signers.flatMap(([kind, i]) => [`${kind}:${i.metadata.namespace ?? ''}/${i.metadata.name}`, ...this.certificatesOf(kind, i.metadata.namespace, i.metadata.name)])];
    }
    return [];
  }

  /** Certificates naming an issuer, as keys. */
  private certificatesOf(kind: string, namespace: string | undefined, name: string): string[] {
    return this.client
      .list(certificates, kind === 'Issuer' ? namespace : undefined)
      .filter((c) => (asStored<Certificate>(c).spec?.issuerRef?.kind ?? 'Issuer') === kind && asStored<Certificate>(c).spec?.issuerRef?.name === name)
      .map((c) => `Certificate:${c.metadata.namespace}/${c.metadata.name}`);
  }

  /** No signature in progress (the cluster's settle waits for them). */
  idle(): boolean {
    return this.inFlight.size === 0;
  }

  reconcile(key: string): void {
    if (!this.served()) return;
    const colon = key.indexOf(':');
    const kind = key.slice(0, colon);
    const [namespace, name] = key.slice(colon + 1).split('/') as [string, string];
    if (kind === 'Certificate') this.reconcileCertificate(namespace, name);
    else this.reconcileIssuer(kind === 'Issuer' ? issuers : clusterIssuers, namespace || undefined, name);
  }

  /** Why an issuer cannot sign (undefined: it can), and the Ready condition's reason and message when it can. */
  private issuerProblem(issuer: Stored<Issuer>, kind: string): string | undefined {
    const spec: IssuerSpec = issuer.spec ?? {};
    if (spec.selfSigned) return undefined;
    if (spec.ca) {
      const ns = kind === 'ClusterIssuer' ? clusterResourceNamespace : issuer.metadata.namespace;
      const secret = spec.ca.secretName ? this.client.get('secrets', ns, spec.ca.secretName) : undefined;
      if (!secret) return `Error getting keypair for CA issuer: secret "${String(spec.ca.secretName)}" not found`;
      const { data } = asStored<Secret>(secret);
      if (!data?.['tls.crt'] || !data?.['tls.key']) return `Error getting keypair for CA issuer: secret "${String(spec.ca.secretName)}" has no tls.crt and tls.key`;
      return undefined;
    }
    return `the local cluster's cert-manager stand-in issues with selfSigned and ca issuers only (this ${kind} has ${Object.keys(spec).join(', ') || 'no issuer type'})`;
  }

  private reconcileIssuer(resource: string, namespace: string | undefined, name: string): void {
    const stored = this.client.get(resource, namespace, name);
    if (!stored) return;
    const issuer = asStored<Issuer>(stored);
    const kind = resource === issuers ? 'Issuer' : 'ClusterIssuer';
    const problem = this.issuerProblem(issuer, kind);
    const now = this.clock.now();
    const ready = problem ? condition(issuer, 'False', 'ErrInitIssuer', problem, now, issuer.metadata.generation) : condition(issuer, 'True', issuer.spec?.ca ? 'KeyPairVerified' : 'IsReady', issuer.spec?.ca ? 'Signing CA verified' : '', now, issuer.metadata.generation);
    const current = (issuer.status?.conditions ?? []).find((c: Condition) => c.type === 'Ready');
    if (current && current.status === ready.status && current.message === ready.message && current.observedGeneration === ready.observedGeneration) return;
    this.client.updateStatus(resource, { ...issuer, status: { ...issuer.status, conditions: [ready] } });
  }

  private setCertificateReady(certificate: Stored<Certificate>, status: 'True' | 'False', reason: string, message: string, extra: Record<string, unknown> = {}): void {
    const ready = condition(certificate, status, reason, message, this.clock.now(), certificate.metadata.generation);
    const current = (certificate.status?.conditions ?? []).find((c: Condition) => c.type === 'Ready');
    const same = current && current.status === status && current.message === message && current.observedGeneration === ready.observedGeneration;
    if (same && Object.keys(extra).length === 0) return;
    this.client.updateStatus(certificates, { ...certificate, status: { ...certificate.status, ...extra, conditions: [same ? current : ready] } });
  }

  private reconcileCertificate(namespace: string, name: string): void {
    const stored = this.client.get(certificates, namespace, name);
    if (!stored) return;
    const certificate = asStored<Certificate>(stored);
    const key = `${namespace}/${name}`;
    const ref: Partial<IssuerRef> = certificate.spec?.issuerRef ?? {};
    const kind: string = ref.kind ?? 'Issuer';
    const storedIssuer = kind === 'ClusterIssuer' ? this.client.get(clusterIssuers, undefined, ref.name!) : kind === 'Issuer' ? this.client.get(issuers, namespace, ref.name!) : undefined;
    if (!storedIssuer) return this.setCertificateReady(certificate, 'False', 'Pending', `Referenced "${kind}" not found: ${kind.toLowerCase()}.${certManagerGroup} "${String(ref.name)}" not found`);
    const issuer = asStored<Issuer>(storedIssuer);
    const problem = this.issuerProblem(issuer, kind);
    if (problem) return this.setCertificateReady(certificate, 'False', 'Pending', `Issuer ${String(ref.name)} is not ready: ${problem}`);

    const altNames = (certificate.spec?.dnsNames ?? []).join(',');
    const secret = this.client.get('secrets', namespace, certificate.spec.secretName);
    const annotations = secret?.metadata.annotations ?? {};
    const upToDate = secret && annotations[secretAnnotations.certificateName] === name && annotations[secretAnnotations.altNames] === altNames && annotations[secretAnnotations.issuerName] === ref.name && annotations[secretAnnotations.issuerKind] === kind && asStored<Secret>(secret).data?.['tls.crt'];
    if (upToDate) return this.setCertificateReady(certificate, 'True', 'Ready', 'Certificate is up to date and has not expired');

    const done = this.results.get(key);
    if (done && done.uid === certificate.metadata.uid && done.generation === certificate.metadata.generation) {
      this.results.delete(key);
      if (done.error) return this.setCertificateReady(certificate, 'False', 'Failed', done.error);
      this.writeSecret(certificate, secret, kind, altNames, done);
      return this.setCertificateReady(certificate, 'True', 'Ready', 'Certificate is up to date and has not expired', {
        notBefore: rfc3339(done.notBefore!),
        notAfter: rfc3339(done.notAfter!),
        renewalTime: rfc3339(done.notAfter! - (done.notAfter! - done.notBefore!) / 3),
        revision: (certificate.status?.revision ?? 0) + 1,
      });
    }
    if (this.inFlight.has(key)) return;
    this.inFlight.add(key);
    const { uid, generation } = certificate.metadata as { uid: string; generation: number };
    this.sign(certificate, issuer, kind)
      .then((signed) => this.results.set(key, { uid, generation, ...signed }), (err: Error) => this.results.set(key, { uid, generation, error: err.message }))
      .finally(() => {
        this.inFlight.delete(key);
        this.requeue(`Certificate:${key}`);
      });
  }

  private async signingAuthority(certificate: Stored<Certificate>, issuer: Stored<Issuer>, kind: string): Promise<CertificateAuthority> {
    if (issuer.spec?.ca) {
      const ns = kind === 'ClusterIssuer' ? clusterResourceNamespace : issuer.metadata.namespace;
      const secret = this.client.get('secrets', ns, issuer.spec.ca.secretName)!;
      const data = asStored<Secret>(secret).data!;
      return loadCertificateAuthority(fromB64(data['tls.crt']), fromB64(data['tls.key']));
    }
    return createCertificateAuthority(`${certificate.metadata.name}.${certificate.metadata.namespace}`, { now: new Date(this.clock.now()) });
  }

  private async sign(certificate: Stored<Certificate>, issuer: Stored<Issuer>, kind: string): Promise<Omit<Signed, 'uid' | 'generation'>> {
    const hosts: string[] = [...(certificate.spec?.dnsNames ?? []), ...(certificate.spec?.ipAddresses ?? [])];
    const commonName: string = certificate.spec?.commonName ?? hosts[0] ?? certificate.metadata.name;
    if (hosts.length === 0) hosts.push(commonName);
    const now = this.clock.now();
    const validMs = durationMs(certificate.spec?.duration) ?? defaultDurationMs;
    if (certificate.spec?.isCA === true && issuer.spec?.selfSigned) {
      // cert-manager's CA bootstrap: a self-signed CA certificate, which is its own ca.crt
      const ca = await createCertificateAuthority(commonName, { now: new Date(now), validDays: validMs / (24 * 3600 * 1000) });
      return { tlsCrt: ca.certPem, tlsKey: ca.keyPem, caCrt: ca.certPem, notBefore: now - 3600_000, notAfter: now + validMs };
    }
    const authority = await this.signingAuthority(certificate, issuer, kind);
    const leaf = await issueServingCertificate(authority, commonName, hosts, { now: new Date(now), validDays: validMs / (24 * 3600 * 1000) });
    // issue() backdates by an hour, as the cluster's own certificates
    return { tlsCrt: leaf.certPem, tlsKey: leaf.keyPem, caCrt: authority.certPem, notBefore: now - 3600_000, notAfter: now + validMs };
  }

  private writeSecret(certificate: Stored<Certificate>, existing: KubeObject | undefined, kind: string, altNames: string, signed: Signed): void {
    const ref = certificate.spec.issuerRef;
    const annotations = {
      [secretAnnotations.certificateName]: certificate.metadata.name,
      [secretAnnotations.issuerName]: ref.name,
      [secretAnnotations.issuerKind]: kind,
      [secretAnnotations.issuerGroup]: ref.group ?? certManagerGroup,
      [secretAnnotations.altNames]: altNames,
      [secretAnnotations.commonName]: certificate.spec?.commonName ?? '',
    };
    const data = { 'tls.crt': b64(signed.tlsCrt!), 'tls.key': b64(signed.tlsKey!), 'ca.crt': b64(signed.caCrt!) };
    if (existing) {
      this.client.update('secrets', { ...existing, metadata: { ...existing.metadata, annotations: { ...existing.metadata.annotations, ...annotations } }, data: { ...asStored<Secret>(existing).data, ...data } });
    } else {
      this.client.create('secrets', certificate.metadata.namespace, {
        apiVersion: 'v1',
        kind: 'Secret',
        metadata: { name: certificate.spec.secretName, namespace: certificate.metadata.namespace, annotations, labels: { 'controller.cert-manager.io/fao': 'true' } },
        type: 'kubernetes.io/tls',
        data,
      });
    }
  }
}
