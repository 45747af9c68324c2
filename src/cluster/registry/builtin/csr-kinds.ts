/**
 * certificates.k8s.io/v1 CertificateSigningRequests: the requester's identity written into the spec
 * on create, the spec immutable, the 1.32 validation of request/signerName/usages/expirationSeconds,
 * the `/approval` subresource `kubectl certificate approve|deny` writes, and the printer's columns.
 * Signing happens in controllers/csr-signing-controller.ts.
 */
import type { CertificateSigningRequest, CertificateSigningRequestCondition, CertificateSigningRequestSpec } from 'kubernetes-types/certificates/v1.js';
import { X509Certificate } from 'node:crypto';
import type * as X509 from '@peculiar/x509';
import { x509Now } from '../../../certificates/x509-module.js';
import { type FieldError, GoSyntaxValue, invalid, notSupported, required } from '../../errors/field-errors.js';
import type { KubeObject } from '../../store/object-store.js';
import { asStored } from '../../store/kube-object.js';
import { defineKind } from '../define-kind.js';
import { dns1123SubdomainErrors } from '../object-meta.js';
import type { ResourceType } from '../resource-type.js';
import { age, ageColumn, column, humanDuration, nameColumn } from '../table-format.js';

export const validUsages = [
  'any', 'cert sign', 'client auth', 'code signing', 'content commitment', 'crl sign', 'data encipherment', 'decipher only',
  'digital signature', 'email protection', 'encipher only', 'ipsec end system', 'ipsec tunnel', 'ipsec user', 'key agreement',
  'key encipherment', 'microsoft sgc', 'netscape sgc', 'ocsp signing', 's/mime', 'server auth', 'signing', 'timestamping',
];

/** Go's %#v of a []byte, as field errors render the request. */
function goBytes(bytes: Buffer): GoSyntaxValue {
  return new GoSyntaxValue(`[]byte{${[...bytes].map((b) => `0x${b.toString(16)}`).join(', ')}}`);
}

/** The PKCS#10 request in `spec.request` (base64 of a PEM block), or the error text the server gives. */
export function parseCertificateRequest(request: unknown): { csr: X509.Pkcs10CertificateRequest } | { error: string; bytes: Buffer } {
  const bytes = Buffer.from(typeof request === 'string' ? request : '', 'base64');
  const pem = bytes.toString('latin1');
  const block = /-----BEGIN ([A-Z ]+)-----([\s\S]*?)-----END \1-----/.exec(pem);
  if (!block) return { error: 'PEM block type must be CERTIFICATE REQUEST', bytes };
  if (block[1] !== 'CERTIFICATE REQUEST') return { error: 'PEM block type must be CERTIFICATE REQUEST', bytes };
  try {
    return { csr: new (x509Now().Pkcs10CertificateRequest)(block[0]) };
  } catch (err) {
    return { error: `asn1: structure error: ${(err as Error).message}`, bytes };
  }
}

function validateSignerName(name: unknown): FieldError[] {
  const path = 'spec.signerName';
  if (typeof name !== 'string' || name === '') return [required(path)];
  const parts = name.split('/');
  if (parts.length < 2 || parts[0] === '' || parts.slice(1).join('/') === '') {
    return [invalid(path, name, "must be a fully qualified domain and path of the form 'example.com/signer-name'")];
  }
  return dns1123SubdomainErrors(parts[0]!).map((m) => invalid(path, name, m));
}

function validateCsr(o: KubeObject): FieldError[] {
  const spec: Partial<CertificateSigningRequestSpec> = asStored<CertificateSigningRequest>(o).spec ?? {};
  const errs: FieldError[] = [];
  if (!spec.request) errs.push(invalid('spec.request', goBytes(Buffer.alloc(0)), 'PEM block type must be CERTIFICATE REQUEST'));
  else {
    const parsed = parseCertificateRequest(spec.request);
    if ('error' in parsed) errs.push(invalid('spec.request', goBytes(parsed.bytes), parsed.error));
  }
  const usages: unknown[] = Array.isArray(spec.usages) ? spec.usages : [];
  if (usages.length === 0) errs.push(required('spec.usages', 'usages must be provided'));
  const seen = new Set<unknown>();
  usages.forEach((u, i) => {
    if (!validUsages.includes(u as string)) errs.push(notSupported(`spec.usages[${i}]`, u, validUsages));
    if (seen.has(u)) errs.push({ type: 'FieldValueDuplicate', field: `spec.usages[${i}]`, value: u });
    seen.add(u);
  });
  errs.push(...validateSignerName(spec.signerName));
  if (typeof spec.expirationSeconds === 'number' && spec.expirationSeconds < 600) {
    errs.push(invalid('spec.expirationSeconds', spec.expirationSeconds, 'may not specify a duration less than 600 seconds (10 minutes)'));
  }
  return errs;
}

/** The conditions of an approval write: known types, Approved and Denied exclusive, each at most once. */
export function validateConditions(conditions: unknown): FieldError[] {
  const errs: FieldError[] = [];
  const list: Array<CertificateSigningRequestCondition | undefined> = Array.isArray(conditions) ? conditions : [];
  const types = new Map<string | undefined, number>();
  list.forEach((c, i) => {
    const at = `status.conditions[${i}]`;
    if (!c?.type) errs.push(required(`${at}.type`));
    if (!['True', 'False', 'Unknown'].includes(c?.status as string)) errs.push(notSupported(`${at}.status`, c?.status ?? '', ['False', 'True', 'Unknown']));
    const type = c?.type;
    if (['Approved', 'Denied', 'Failed'].includes(type as string)) {
      if (types.has(type)) errs.push({ type: 'FieldValueDuplicate', field: `${at}.type`, value: type });
      if ((type === 'Approved' || type === 'Denied') && c?.status !== 'True') errs.push(notSupported(`${at}.status`, c?.status, ['True']));
    }
    types.set(type, i);
  });
  if (types.has('Approved') && types.has('Denied')) {
    const i = Math.max(types.get('Approved')!, types.get('Denied')!);
    errs.push(invalid(`status.conditions[${i}].type`, list[i]!.type, 'Approved and Denied conditions are mutually exclusive'));
  }
  return errs;
}

/** The RequestedDuration cell: the requested lifetime, or <none>. */
const csrExpiration = (seconds: number | undefined): string => (typeof seconds === 'number' ? humanDuration(seconds * 1000) : '<none>');

const conditionState = (o: KubeObject): string => {
  const status = asStored<CertificateSigningRequest>(o).status;
  const conditions: CertificateSigningRequestCondition[] = status?.conditions ?? [];
  const names = conditions.filter((c) => c.status === 'True').map((c) => c.type);
  const state = names.length ? names.join(',') : 'Pending';
  return status?.certificate ? `${state},Issued` : state;
};

export const certificateSigningRequests: ResourceType = defineKind({
  group: 'certificates.k8s.io',
  resource: 'certificatesigningrequests',
  kind: 'CertificateSigningRequest',
  namespaced: false,
  shortNames: ['csr'],
  statusSubresource: true,
  otherSubresources: ['approval'],
  fields: ['spec', 'status'],
  table: {
    columns: [
      nameColumn,
      ageColumn,
      column('SignerName', 'string', 'Name of the signer'),
      column('Requestor', 'string', 'Name of the user that requested the certificate'),
      column('RequestedDuration', 'string', 'Requested duration of the certificate'),
      column('Condition', 'string', 'The current state of the request'),
    ],
    cells: (o, now) => [
      o.metadata.name,
      age(o.metadata.creationTimestamp, now),
      asStored<CertificateSigningRequest>(o).spec?.signerName ?? '',
      asStored<CertificateSigningRequest>(o).spec?.username ?? '',
      csrExpiration(asStored<CertificateSigningRequest>(o).spec?.expirationSeconds),
      conditionState(o),
    ],
  },
  strategy: {
    prepareForCreate(o) {
      o.status = {};
    },
    prepareForUpdate(o, old) {
      o.spec = old.spec;
    },
    validateCreate: validateCsr,
    validateUpdate: (o) => validateConditions(asStored<CertificateSigningRequest>(o).status?.conditions),
    fieldLabels: (o) => ({ 'spec.signerName': asStored<CertificateSigningRequest>(o).spec?.signerName ?? '' }),
  },
});

/** Sets the requester's identity on a CSR being created (the server ignores what the client wrote). */
export function stampRequester(body: KubeObject, user: { username: string; uid?: string; groups: string[]; extra?: Record<string, string[]> }): void {
  if (!body || typeof body !== 'object') return;
  body.spec ??= {};
  const spec = asStored<CertificateSigningRequest>(body).spec;
  spec.username = user.username;
  if (user.uid) spec.uid = user.uid;
  else delete spec.uid;
  spec.groups = [...user.groups];
  if (user.extra && Object.keys(user.extra).length) spec.extra = user.extra;
  else delete spec.extra;
}

/** Whether a PEM certificate parses (the signer's output, for tests and the controller's checks). */
export function certificateSubject(pem: string): string {
  return new X509Certificate(pem).subject;
}

export const csrKinds: ResourceType[] = [certificateSigningRequests];
