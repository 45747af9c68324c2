/**
 * `startLocalCluster({ dataDir })`: what a cluster keeps across restarts besides its objects — the CA,
 * the admin token, the service-account signing key, every accepted token, client-certificate users and
 * the port (so an old kubeconfig keeps working) — in the data directory's SQLite database.
 */
import { join } from 'node:path';
import { type CertificateAuthority, type IssuedCertificate, loadCertificateAuthority } from '../certificates/self-signed.js';
import type { PersistedCredentials, TokenAuthenticator, UserInfo } from './http/authentication.js';
import { type DurabilityMode, type PersistedState, SqliteClusterData } from './store/sqlite-persistence.js';

export interface CertificateUser {
  user: string;
  groups: string[];
  namespace?: string;
  clientCertificate: IssuedCertificate;
}

export class ClusterDataDirectory {
  readonly data: SqliteClusterData;
  /** Objects and counter found at start (undefined: a new or `fresh` directory). */
  readonly restored: PersistedState | undefined;

  constructor(readonly dir: string, options: { fresh?: boolean; synchronous?: DurabilityMode } = {}) {
    this.data = new SqliteClusterData(dir, options);
    this.restored = this.data.load();
  }

  /** The admin kubeconfig lives next to the database and outlives the process. */
  get kubeconfigPath(): string {
    return join(this.dir, 'kubeconfig');
  }

  credentials(): PersistedCredentials | undefined {
    const adminToken = this.data.meta('adminToken');
    const serviceAccountKeyPem = this.data.meta('serviceAccountKey');
    if (!adminToken || !serviceAccountKeyPem) return undefined;
    return { adminToken, serviceAccountKeyPem, tokens: this.data.tokens().map((t) => ({ token: t.token, user: JSON.parse(t.user) as UserInfo })) };
  }

  /** Saves the authenticator's keys and every token it accepts or revokes from now on. */
  keepCredentials(auth: TokenAuthenticator): void {
    this.data.setMeta('adminToken', auth.adminToken);
    this.data.setMeta('serviceAccountKey', auth.serviceAccountIssuer.signingKeyPem());
    auth.listener = {
      saved: (token, user) => {
        if (token !== auth.adminToken) this.data.saveToken(token, JSON.stringify(user));
      },
      removed: (token) => this.data.deleteToken(token),
    };
  }

  async certificateAuthority(): Promise<CertificateAuthority | undefined> {
    const certPem = this.data.meta('caCert');
    const keyPem = this.data.meta('caKey');
    return certPem && keyPem ? loadCertificateAuthority(certPem, keyPem) : undefined;
  }

  keepCertificateAuthority(ca: CertificateAuthority): void {
    this.data.setMeta('caCert', ca.certPem);
    this.data.setMeta('caKey', ca.keyPem);
  }

  /** The port the last run listened on. */
  port(): number | undefined {
    const port = this.data.meta('port');
    return port === undefined ? undefined : Number(port);
  }

  keepPort(port: number): void {
    this.data.setMeta('port', String(port));
  }

  certificateUsers(): CertificateUser[] {
    return JSON.parse(this.data.meta('certificateUsers') ?? '[]') as CertificateUser[];
  }

  keepCertificateUsers(users: CertificateUser[]): void {
    this.data.setMeta('certificateUsers', JSON.stringify(users));
  }

  close(): void {
    this.data.close();
  }
}
