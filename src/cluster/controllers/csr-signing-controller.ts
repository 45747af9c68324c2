/**
 * The CSR signing controller of kube-controller-manager (csrsigning) for the client signers a
 * default 1.32 cluster signs with its CA: `kubernetes.io/kube-apiserver-client` and
 * `kubernetes.io/kube-apiserver-client-kubelet`. An approved request is checked against its signer's
 * rules (a `Failed` condition, reason SignerValidationFailure, when it breaks them) and signed with
 * the cluster CA — valid from 5 minutes before now (cluster clock) for expirationSeconds, at most a
 * year. Signing is asynchronous (WebCrypto): the result is written by the next reconcile of the key.
 */
import type { CertificateSigningRequest, CertificateSigningRequestCondition } from 'kubernetes-types/certificates/v1.js';
import type * as x509 from '@peculiar/x509';
import { randomBytes } from 'node:crypto';
import { type CertificateAuthority } from '../../certificates/self-signed.js';
import { loadX509 } from '../../certificates/x509-module.js';
import type { ClusterClock } from '../clock/virtual-clock.js';
import { parseCertificateRequest } from '../registry/builtin/csr-kinds.js';
import { rfc3339 } from '../registry/system-metadata.js';
import { asStored } from '../store/kube-object.js';
import type { Stored, StoreEvent } from '../store/object-store.js';
import type { ControllerClient } from './controller-client.js';
import type { BuiltinController } from './controller-scheduler.js';

const csrs = 'certificates.k8s.io/certificatesigningrequests';
const clientSigner = 'kubernetes.io/kube-apiserver-client';
const kubeletClientSigner = 'kubernetes.io/kube-apiserver-client-kubelet';
const maxDurationMs = 365 * 24 * 3600 * 1000;
const backdateMs = 5 * 60 * 1000;

const hasTrue = (csr: Stored<CertificateSigningRequest>, type: string): boolean => (csr.status?.conditions ?? []).some((c: CertificateSigningRequestCondition) => c.type === type && c.status === 'True');

/** Why `signer` refuses this request (the SignerValidationFailure message), or undefined when it is fine. */
function signerRefusal(signer: string, csr: x509.Pkcs10CertificateRequest, usages: string[]): string | undefined {
  const hasSan = csr.extensions.some((e) => e.type === '2.5.29.17');
  if (signer === kubeletClientSigner) {
    const subject = csr.subjectName.toJSON();
    const organizations = subject.flatMap((rdn) => rdn.O ?? []);
    const commonName = subject.flatMap((rdn) => rdn.CN ?? [])[0] ?? '';
    if (organizations.length !== 1 || organizations[0] !== 'system:nodes') return 'subject organization is not system:nodes';
    if (!commonName.startsWith('system:node:')) return 'subject common name does not begin with system:node:';
    if (hasSan) return 'subjectAltNames are not allowed';
  }
  const allowed = ['client auth', 'digital signature', 'key encipherment'];
  const bad = usages.filter((u) => !allowed.includes(u));
  if (bad.length) return `invalid usage for client certificate: ${bad.join(', ')}`;
  if (!usages.includes('client auth')) return 'missing required usage for client certificate: client auth';
  return undefined;
}

async function sign(authority: CertificateAuthority, csr: x509.Pkcs10CertificateRequest, usages: string[], now: number, expirationSeconds: number | undefined): Promise<string> {
  // the same module instance csr-kinds parsed the request with, its crypto provider set
  const x509 = await loadX509();
  const duration = Math.min(expirationSeconds ? expirationSeconds * 1000 : maxDurationMs, maxDurationMs);
  let keyUsage = 0;
  if (usages.includes('digital signature')) keyUsage |= x509.KeyUsageFlags.digitalSignature;
  if (usages.includes('key encipherment')) keyUsage |= x509.KeyUsageFlags.keyEncipherment;
  const publicKey = await csr.publicKey.export();
  const cert = await x509.X509CertificateGenerator.create({
    serialNumber: `01${randomBytes(15).toString('hex')}`,
    subject: csr.subjectName,
    issuer: authority.subject,
    notBefore: new Date(now - backdateMs),
    notAfter: new Date(now + duration),
    signingAlgorithm: { name: 'ECDSA', hash: 'SHA-256' },
    publicKey: publicKey as never,
    signingKey: authority.signingKey as never,
    extensions: [
      new x509.BasicConstraintsExtension(false, undefined, true),
      ...(keyUsage ? [new x509.KeyUsagesExtension(keyUsage, true)] : []),
      new x509.ExtendedKeyUsageExtension([x509.ExtendedKeyUsage.clientAuth]),
      await x509.AuthorityKeyIdentifierExtension.create(authority.publicKey as never),
    ],
  });
  return cert.toString('pem');
}

export class CsrSigningController implements BuiltinController {
  readonly name = 'csrsigning-controller';
  /** Finished signatures waiting to be written, by CSR name (with the uid they were made for). */
  private readonly results = new Map<string, { uid: string; certificate?: string; error?: string }>();
  private readonly inFlight = new Set<string>();
  /** Set by install.ts: puts a key back on this controller's queue. */
  requeue: (key: string) => void = () => {};

  constructor(private readonly client: ControllerClient, private readonly clock: ClusterClock, private readonly authority: CertificateAuthority) {}

  initialKeys(): string[] {
    return this.client.list(csrs).map((c) => c.metadata.name);
  }

  keysFor(event: StoreEvent): string[] {
    return event.bucket === 'certificatesigningrequests.certificates.k8s.io' && event.type !== 'DELETED' ? [event.object.metadata.name] : [];
  }

  /** No signature in progress (the cluster's settle waits for them). */
  idle(): boolean {
    return this.inFlight.size === 0;
  }

  reconcile(name: string): void {
    const stored = this.client.get(csrs, undefined, name);
    const csr = stored && asStored<CertificateSigningRequest>(stored);
    if (!csr || csr.status?.certificate || !hasTrue(csr, 'Approved') || hasTrue(csr, 'Failed') || hasTrue(csr, 'Denied')) return;
    const signer = csr.spec?.signerName;
    if (signer !== clientSigner && signer !== kubeletClientSigner) return;
    const done = this.results.get(name);
    if (done && done.uid === csr.metadata.uid) {
      this.results.delete(name);
      if (done.certificate) this.client.updateStatus(csrs, { ...csr, status: { ...csr.status, certificate: Buffer.from(done.certificate).toString('base64') } });
      else this.fail(csr, done.error ?? 'signing failed');
      return;
    }
    if (this.inFlight.has(name)) return;
    const parsed = parseCertificateRequest(csr.spec?.request);
    if ('error' in parsed) return this.fail(csr, parsed.error);
    const usages: string[] = csr.spec?.usages ?? [];
    const refusal = signerRefusal(signer, parsed.csr, usages);
    if (refusal) return this.fail(csr, refusal);
    this.inFlight.add(name);
    const uid = csr.metadata.uid!;
    sign(this.authority, parsed.csr, usages, this.clock.now(), csr.spec?.expirationSeconds)
      .then((certificate) => this.results.set(name, { uid, certificate }), (err: Error) => this.results.set(name, { uid, error: err.message }))
      .finally(() => {
        this.inFlight.delete(name);
        this.requeue(name);
      });
  }

  private fail(csr: Stored<CertificateSigningRequest>, message: string): void {
    const stamp = rfc3339(this.clock.now());
    const condition = { type: 'Failed', status: 'True', reason: 'SignerValidationFailure', message, lastUpdateTime: stamp, lastTransitionTime: stamp };
    this.client.updateStatus(csrs, { ...csr, status: { ...csr.status, conditions: [...(csr.status?.conditions ?? []), condition] } });
  }
}
