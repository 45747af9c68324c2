/**
 * The manager's metrics server against the local cluster, as a kubebuilder project deploys it: HTTPS on its
 * own port, every scrape checked with TokenReview and SubjectAccessReview by a manager whose identity has
 * only the scaffolded `metrics-auth-role`; a scraper bound to `metrics-reader` gets 200, another
 * identity 403, no token or a bad token 401. Plain HTTP when not secure; "0" serves nothing.
 */
import { request as httpsRequest } from 'node:https';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Kubeconfig } from '../client/kubeconfig.js';
import pino from 'pino';
import { startLocalCluster, type LocalCluster } from '../../cluster/index.js';
import { Client } from '../client/client.js';
import { defaultKindRegistry } from '../client/kinds.js';
import { Transport } from '../client/transport.js';
import { Manager } from './manager.js';
import { parseBindAddress } from './bind-address.js';
import type { MetricsServerOptions } from './metrics-server.js';

let cluster: LocalCluster;
let admin: Client;
let tmp: string;
const silent = pino({ level: 'silent' });

beforeAll(async () => {
  cluster = await startLocalCluster({ clock: 'real', controllers: {} });
  const kc = Kubeconfig.fromFile(cluster.kubeconfigPath);
  admin = new Client(new Transport(kc), defaultKindRegistry);
  tmp = mkdtempSync(path.join(os.tmpdir(), 'kubeforge-metrics-'));
  // The roles config/rbac scaffolds (metrics_auth_role.yaml, metrics_reader_role.yaml) and their bindings.
  await admin.create({ apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'ClusterRole', metadata: { name: 'metrics-auth-role' }, rules: [
    { apiGroups: ['authentication.k8s.io'], resources: ['tokenreviews'], verbs: ['create'] },
    { apiGroups: ['authorization.k8s.io'], resources: ['subjectaccessreviews'], verbs: ['create'] },
  ] } as never);
  await admin.create({ apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'ClusterRole', metadata: { name: 'metrics-reader' }, rules: [{ nonResourceURLs: ['/metrics'], verbs: ['get'] }] } as never);
  await admin.create({ apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'ClusterRoleBinding', metadata: { name: 'metrics-auth-rolebinding' }, roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'metrics-auth-role' }, subjects: [{ apiGroup: 'rbac.authorization.k8s.io', kind: 'User', name: 'controller-manager' }] } as never);
  await admin.create({ apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'ClusterRoleBinding', metadata: { name: 'prometheus-metrics-reader' }, roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'metrics-reader' }, subjects: [{ apiGroup: 'rbac.authorization.k8s.io', kind: 'User', name: 'prometheus' }] } as never);
});

afterAll(async () => {
  admin.transport.close();
  await cluster.stop();
  rmSync(tmp, { recursive: true, force: true });
});

/** A fresh token for a user, read from the kubeconfig the cluster writes for it. */
function tokenFor(user: string): string {
  const kc = Kubeconfig.fromFile(cluster.writeKubeconfig(path.join(tmp, `kubeconfig-${user}`), { user }));
  return kc.getCurrentUser()!.token!;
}

/** GET over HTTPS, accepting the metrics server's self-signed certificate (as Prometheus' insecureSkipVerify). */
function scrape(url: string, token?: string): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const req = httpsRequest(url, { rejectUnauthorized: false, headers: token ? { Authorization: `Bearer ${token}` } : {} }, (res) => {
      let text = '';
      res.on('data', (c: Buffer) => (text += c.toString()));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, text }));
    });
    req.on('error', reject);
    req.end();
  });
}

/** How many `resource` reviews the local cluster has answered, from its own apiserver_request_total. */
async function reviewsAnswered(resource: 'tokenreviews' | 'subjectaccessreviews'): Promise<number> {
  const kc = Kubeconfig.fromFile(cluster.kubeconfigPath);
  const options: { headers?: Record<string, string>; ca?: unknown } = {};
  await kc.applyToHTTPSOptions(options as never);
  const text = await new Promise<string>((resolve, reject) => {
    const req = httpsRequest(`${kc.getCurrentCluster()!.server}/metrics`, options as never, (res) => {
      let body = '';
      res.on('data', (c: Buffer) => (body += c.toString()));
      res.on('end', () => resolve(body));
    });
    req.on('error', reject);
    req.end();
  });
  let total = 0;
  for (const line of text.split('\n')) {
    if (line.startsWith('apiserver_request_total{') && line.includes(`resource="${resource}"`) && line.includes('verb="POST"')) total += Number(line.slice(line.lastIndexOf(' ') + 1));
  }
  return total;
}

function managerAs(user: string, metrics: MetricsServerOptions): Manager {
  return new Manager({ kubeConfig: cluster.writeKubeconfig(path.join(tmp, `kubeconfig-manager-${user}`), { user }), logger: silent, metrics });
}

describe('secure metrics serving (HTTPS + TokenReview/SubjectAccessReview)', () => {
  let mgr: Manager;
  beforeAll(async () => {
    mgr = managerAs('controller-manager', { bindAddress: '127.0.0.1:0', secureServing: true });
    await mgr.start();
  });
  afterAll(async () => {
    await mgr.stop();
    mgr.close();
  });

  test('a token bound to metrics-reader gets 200 and the Prometheus text', async () => {
    expect(mgr.metricsUrl()).toBe(`https://127.0.0.1:${mgr.metricsPort}/metrics`);
    const res = await scrape(mgr.metricsUrl()!, tokenFor('prometheus'));
    expect(res.status).toBe(200);
    expect(res.text).toContain('# TYPE controller_runtime_reconcile_total counter');
  });

  test('a service account token bound to metrics-reader gets 200', async () => {
    await admin.create({ apiVersion: 'v1', kind: 'ServiceAccount', metadata: { namespace: 'default', name: 'scraper' } });
    await admin.create({ apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'ClusterRoleBinding', metadata: { name: 'scraper-metrics-reader' }, roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'metrics-reader' }, subjects: [{ kind: 'ServiceAccount', name: 'scraper', namespace: 'default' }] } as never);
    const issued = await admin.transport.request<{ status: { token: string } }>('POST', '/api/v1/namespaces/default/serviceaccounts/scraper/token', { body: { apiVersion: 'authentication.k8s.io/v1', kind: 'TokenRequest', spec: { expirationSeconds: 3600 } } });
    expect((await scrape(mgr.metricsUrl()!, issued.status.token)).status).toBe(200);
  });

  test('an authenticated identity without metrics-reader gets 403', async () => {
    const res = await scrape(mgr.metricsUrl()!, tokenFor('stranger'));
    expect(res.status).toBe(403);
    expect(res.text).toContain('Forbidden (user=stranger, verb=get');
  });

  test('no token, or a token the API server does not know, gets 401', async () => {
    expect((await scrape(mgr.metricsUrl()!)).status).toBe(401);
    expect((await scrape(mgr.metricsUrl()!, 'not-a-real-token')).status).toBe(401);
  });

  test('200 concurrent scrapes with one bad token make one TokenReview, and the denial is remembered', async () => {
    const before = await reviewsAnswered('tokenreviews');
    const statuses = await Promise.all(Array.from({ length: 200 }, () => scrape(mgr.metricsUrl()!, 'one-bad-token').then((r) => r.status)));
    expect(new Set(statuses)).toEqual(new Set([401]));
    expect((await scrape(mgr.metricsUrl()!, 'one-bad-token')).status).toBe(401);
    expect((await reviewsAnswered('tokenreviews')) - before).toBe(1);
  });

  test('200 concurrent scrapes with one good token make one TokenReview and one SubjectAccessReview', async () => {
    await admin.create({ apiVersion: 'v1', kind: 'ServiceAccount', metadata: { namespace: 'default', name: 'busy-scraper' } });
    await admin.create({ apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'ClusterRoleBinding', metadata: { name: 'busy-scraper-metrics-reader' }, roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'metrics-reader' }, subjects: [{ kind: 'ServiceAccount', name: 'busy-scraper', namespace: 'default' }] } as never);
    const issued = await admin.transport.request<{ status: { token: string } }>('POST', '/api/v1/namespaces/default/serviceaccounts/busy-scraper/token', { body: { apiVersion: 'authentication.k8s.io/v1', kind: 'TokenRequest', spec: { expirationSeconds: 3600 } } });
    const token = issued.status.token;
    const [tokenReviews, accessReviews] = [await reviewsAnswered('tokenreviews'), await reviewsAnswered('subjectaccessreviews')];
    const statuses = await Promise.all(Array.from({ length: 200 }, () => scrape(mgr.metricsUrl()!, token).then((r) => r.status)));
    expect(new Set(statuses)).toEqual(new Set([200]));
    expect((await reviewsAnswered('tokenreviews')) - tokenReviews).toBe(1);
    expect((await reviewsAnswered('subjectaccessreviews')) - accessReviews).toBe(1);
  });

  test('the filter runs before routing: other paths are refused (401 without a token, 403 for a reader of /metrics only)', async () => {
    const other = mgr.metricsUrl()!.replace('/metrics', '/debug');
    expect((await scrape(other)).status).toBe(401);
    // metrics-reader grants only /metrics, so even the reader is forbidden elsewhere
    expect((await scrape(other, tokenFor('prometheus'))).status).toBe(403);
  });
});

describe('plain and disabled metrics serving', () => {
  test('secureServing false: plain HTTP, no filter, apart from the probe port', async () => {
    const mgr = new Manager({ kubeConfig: cluster.kubeconfigPath, logger: silent, probePort: 0, metrics: { bindAddress: '127.0.0.1:0' } });
    await mgr.start();
    try {
      expect(mgr.metricsUrl()).toBe(`http://127.0.0.1:${mgr.metricsPort}/metrics`);
      expect(mgr.metricsPort).not.toBe(mgr.probePort);
      const res = await fetch(mgr.metricsUrl()!);
      expect(res.status).toBe(200);
      expect(await res.text()).toContain('workqueue');
      expect((await fetch(`http://127.0.0.1:${mgr.probePort}/metrics`)).status).toBe(404);
      expect((await fetch(`http://127.0.0.1:${mgr.probePort}/readyz`)).status).toBe(200);
    } finally {
      await mgr.stop();
      mgr.close();
    }
  });

  test('probeBindAddress: a Go-style address for the probes, "0" turns them off', async () => {
    const on = new Manager({ kubeConfig: cluster.kubeconfigPath, logger: silent, probeBindAddress: '127.0.0.1:0' });
    const off = new Manager({ kubeConfig: cluster.kubeconfigPath, logger: silent, probeBindAddress: '0', probePort: 0 });
    await on.start();
    await off.start();
    try {
      expect((await fetch(`http://127.0.0.1:${on.probePort}/healthz`)).status).toBe(200);
      expect(off.probePort).toBeUndefined();
    } finally {
      for (const m of [on, off]) {
        await m.stop();
        m.close();
      }
    }
    expect(() => new Manager({ kubeConfig: cluster.kubeconfigPath, logger: silent, probeBindAddress: '8081' })).toThrow('health probe bind address: expected an address such as ":8443" or "127.0.0.1:8080", got "8081"');
  });

  test('bind address "0" serves no metrics', async () => {
    const mgr = new Manager({ kubeConfig: cluster.kubeconfigPath, logger: silent, metrics: { bindAddress: '0', secureServing: true } });
    await mgr.start();
    expect(mgr.metricsPort).toBeUndefined();
    expect(mgr.metricsUrl()).toBeUndefined();
    await mgr.stop();
    mgr.close();
  });

  test('bind addresses are read as Go does, bad ones are named', () => {
    expect(parseBindAddress(':8443')).toEqual({ port: 8443 });
    expect(parseBindAddress('127.0.0.1:8080')).toEqual({ host: '127.0.0.1', port: 8080 });
    expect(parseBindAddress('[::1]:8443')).toEqual({ host: '::1', port: 8443 });
    expect(parseBindAddress('0')).toBeUndefined();
    expect(parseBindAddress(9090)).toEqual({ port: 9090 });
    expect(() => parseBindAddress('8443')).toThrow('metrics bind address: expected an address such as ":8443" or "127.0.0.1:8080", got "8443"');
    expect(() => parseBindAddress(':99999')).toThrow('metrics bind address: ":99999" has no valid port (0–65535)');
  });
});
