/**
 * The fields of cert-manager's Certificate and Issuer/ClusterIssuer (cert-manager.io/v1) that the local
 * cluster's stand-in reads: kubernetes-types has no types for cert-manager's own kinds. Read a stored
 * object through them with `asStored<Certificate>(obj)`.
 */
import type { Condition } from 'kubernetes-types/meta/v1.js';

/** spec.issuerRef: the Issuer (or ClusterIssuer) that signs a Certificate. */
export interface IssuerRef {
  name: string;
  kind?: string;
  group?: string;
}

export interface CertificateSpec {
  secretName: string;
  issuerRef: IssuerRef;
  dnsNames?: string[];
  ipAddresses?: string[];
  commonName?: string;
  /** A Go duration (`2160h`). */
  duration?: string;
  isCA?: boolean;
}

export interface Certificate {
  spec: CertificateSpec;
  status?: { conditions?: Condition[]; revision?: number; notBefore?: string; notAfter?: string; renewalTime?: string };
}

/** An Issuer's or ClusterIssuer's spec: the stand-in signs with `selfSigned` and `ca` issuers. */
export interface IssuerSpec {
  selfSigned?: object;
  ca?: { secretName: string };
}

export interface Issuer {
  spec?: IssuerSpec;
  status?: { conditions?: Condition[] };
}
