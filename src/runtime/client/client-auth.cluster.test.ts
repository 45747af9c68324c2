/**
 * Client authentication beyond a static token, against the local cluster (RBAC on): a kubeconfig whose
 * user is an exec credential plugin (a small node script printing an ExecCredential), and in-cluster
 * configuration (KUBERNETES_SERVICE_HOST/PORT plus a ServiceAccount token, CA and namespace in the
 * service-account folder, placed under a temporary root). Identity is checked with SelfSubjectReview.
 * The exec plugin runs through both kubeconfig loaders the runtime accepts: a client-node KubeConfig and
 * kubeforge's own Kubeconfig reading a kubectl-style file.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { KubeConfig } from '@kubernetes/client-node';
import pino from 'pino';
import { startLocalCluster, type LocalCluster } from '../../cluster/index.js';
import { createCertificateAuthority } from '../../certificates/self-signed.js';
import { isForbidden } from './api-error.js';
import { Client } from './client.js';
import { BuiltinKinds, defaultKindRegistry } from './kinds.js';
import { inClusterKubeConfig, SERVICE_ACCOUNT_DIR, SERVICE_ACCOUNT_DIR_ENV } from './in-cluster.js';
import { Kubeconfig, type KubeConfigLike } from './kubeconfig.js';
import { Manager } from '../manager/manager.js';
import { Transport } from './transport.js';

let cluster: LocalCluster;
let admin: Client;
let tmp: string;
const transports: Transport[] = [];

beforeAll(async () => {
  cluster = await startLocalCluster({ clock: 'real' });
  admin = clientFor(kubeConfigFrom(cluster.kubeconfigPath));
  tmp = mkdtempSync(path.join(os.tmpdir(), 'kubeforge-auth-'));
});

afterAll(async () => {
  for (const t of transports) t.close();
  await cluster.stop();
  rmSync(tmp, { recursive: true, force: true });
});

function kubeConfigFrom(file: string): KubeConfig {
  const kc = new KubeConfig();
  kc.loadFromFile(file);
  return kc;
}

function clientFor(kc: KubeConfigLike): Client {
  const transport = new Transport(kc);
  transports.push(transport);
  return new Client(transport, defaultKindRegistry);
}

async function whoAmI(client: Client): Promise<string> {
  const review = await client.transport.request<{ status: { userInfo: { username: string } } }>('POST', '/apis/authentication.k8s.io/v1/selfsubjectreviews', {
    body: { apiVersion: 'authentication.k8s.io/v1', kind: 'SelfSubjectReview' },
  });
  return review.status.userInfo.username;
}

/** A fresh token for `user`, as the cluster writes it into a kubeconfig. */
function tokenFor(user: string): string {
  return kubeConfigFrom(cluster.writeKubeconfig(path.join(tmp, `kc-${user}`), { user })).getCurrentUser()!.token!;
}

test('a Manager takes a client-node KubeConfig as it is (structurally: no instanceof) and talks through it', async () => {
  const mgr = new Manager({ kubeConfig: kubeConfigFrom(cluster.kubeconfigPath), logger: pino({ level: 'silent' }) });
  try {
    expect(await whoAmI(mgr.client)).toBe(await whoAmI(admin));
  } finally {
    mgr.transport.close();
  }
});

describe.each(['client-node KubeConfig', 'kubeforge Kubeconfig from a file'] as const)('exec credential plugin (%s)', (loader) => {
  // Prints an ExecCredential with the token in TOKEN_FILE, counting its runs in CALLS_FILE.
  const plugin = `
import { appendFileSync, readFileSync } from 'node:fs';
appendFileSync(process.env.CALLS_FILE, 'x');
if (process.env.FAIL) { process.stderr.write('plugin: no credentials for you'); process.exit(1); }
const token = readFileSync(process.env.TOKEN_FILE, 'utf8');
process.stdout.write(JSON.stringify({ apiVersion: 'client.authentication.k8s.io/v1', kind: 'ExecCredential',
  status: { token, expirationTimestamp: process.env.EXPIRES } }));
`;

  function execKubeConfig(name: string, env: Record<string, string>): { kc: KubeConfigLike; calls: () => number; tokenFile: string } {
    const dir = path.join(tmp, `${name}-${loader.split(' ')[0]}`);
    mkdirSync(dir);
    const script = path.join(dir, 'plugin.mjs');
    const callsFile = path.join(dir, 'calls');
    const tokenFile = path.join(dir, 'token');
    writeFileSync(script, plugin);
    writeFileSync(callsFile, '');
    const pluginEnv = Object.entries({ CALLS_FILE: callsFile, TOKEN_FILE: tokenFile, ...env }).map(([k, v]) => ({ name: k, value: v }));
    const calls = (): number => readFileSync(callsFile, 'utf8').length;
    if (loader === 'kubeforge Kubeconfig from a file') {
      // as kubectl's users write it: the CA in its own file next to the kubeconfig, named relative to it
      writeFileSync(path.join(dir, 'ca.crt'), cluster.caCertPem);
      const file = path.join(dir, 'kubeconfig');
      const user = { exec: { apiVersion: 'client.authentication.k8s.io/v1', command: process.execPath, args: [script], interactiveMode: 'Never', env: pluginEnv } };
      writeFileSync(
        file,
        JSON.stringify({ apiVersion: 'v1', kind: 'Config', clusters: [{ name: 'local', cluster: { server: cluster.url, 'certificate-authority': 'ca.crt' } }], users: [{ name, user }], contexts: [{ name: 'ctx', context: { cluster: 'local', user: name } }], 'current-context': 'ctx' }),
      );
      return { kc: Kubeconfig.fromFile(file), calls, tokenFile };
    }
    const kc = new KubeConfig();
    kc.loadFromOptions({
      clusters: [{ name: 'local', server: cluster.url, caData: Buffer.from(cluster.caCertPem).toString('base64') }],
      users: [{ name: name, exec: { apiVersion: 'client.authentication.k8s.io/v1', command: process.execPath, args: [script], interactiveMode: 'Never', env: pluginEnv } }],
      contexts: [{ name: 'ctx', cluster: 'local', user: name }],
      currentContext: 'ctx',
    });
    return { kc, calls, tokenFile };
  }

  test('the plugin’s token is the identity; a credential still valid is reused', async () => {
    const { kc, calls, tokenFile } = execKubeConfig('exec-valid', { EXPIRES: new Date(Date.now() + 3600_000).toISOString() });
    writeFileSync(tokenFile, tokenFor('exec-alice'));
    const client = clientFor(kc);
    expect(await whoAmI(client)).toBe('exec-alice');
    expect(await whoAmI(client)).toBe('exec-alice');
    expect(calls()).toBe(1);
  });

  test('an expired credential runs the plugin again on the next request, so a rotated token is used', async () => {
    const { kc, calls, tokenFile } = execKubeConfig('exec-expired', { EXPIRES: new Date(Date.now() - 1000).toISOString() });
    writeFileSync(tokenFile, tokenFor('exec-bob'));
    const client = clientFor(kc);
    expect(await whoAmI(client)).toBe('exec-bob');
    writeFileSync(tokenFile, tokenFor('exec-carol'));
    expect(await whoAmI(client)).toBe('exec-carol');
    expect(calls()).toBe(2);
  });

  test('RBAC applies to the plugin’s identity, and a failing plugin fails the request with its message', async () => {
    const { kc, tokenFile } = execKubeConfig('exec-rbac', { EXPIRES: new Date(Date.now() + 3600_000).toISOString() });
    writeFileSync(tokenFile, tokenFor('exec-dave'));
    const err = await clientFor(kc).list(BuiltinKinds.Secret, { namespace: 'default' }).catch((e: unknown) => e);
    expect(isForbidden(err)).toBe(true);
    const failing = execKubeConfig('exec-failing', { FAIL: '1' });
    await expect(whoAmI(clientFor(failing.kc))).rejects.toThrow('plugin: no credentials for you');
  });
});

describe('in-cluster configuration', () => {
  const saved = { host: process.env.KUBERNETES_SERVICE_HOST, port: process.env.KUBERNETES_SERVICE_PORT };
  afterEach(() => {
    for (const [name, value] of [['KUBERNETES_SERVICE_HOST', saved.host], ['KUBERNETES_SERVICE_PORT', saved.port]] as const) {
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
    }
  });

  /** A pod's view: the service-account folder under `root`, the service env vars set. */
  async function podRoot(name: string, caPem = cluster.caCertPem): Promise<string> {
    await admin.create({ apiVersion: 'v1', kind: 'ServiceAccount', metadata: { namespace: 'default', name } });
    const issued = await admin.transport.request<{ status: { token: string } }>('POST', `/api/v1/namespaces/default/serviceaccounts/${name}/token`, {
      body: { apiVersion: 'authentication.k8s.io/v1', kind: 'TokenRequest', spec: { expirationSeconds: 3600 } },
    });
    const root = path.join(tmp, `pod-${name}`);
    const dir = path.join(root, SERVICE_ACCOUNT_DIR);
    mkdirSync(dir, { recursive: true });
    writeFileSync(path.join(dir, 'token'), issued.status.token);
    writeFileSync(path.join(dir, 'ca.crt'), caPem);
    writeFileSync(path.join(dir, 'namespace'), 'default');
    const url = new URL(cluster.url);
    process.env.KUBERNETES_SERVICE_HOST = url.hostname;
    process.env.KUBERNETES_SERVICE_PORT = url.port;
    return root;
  }

  test('the ServiceAccount token is the identity, over TLS checked with the mounted CA; the namespace is read', async () => {
    const root = await podRoot('operator');
    const kc = inClusterKubeConfig({ root });
    expect(kc.getContextObject(kc.getCurrentContext())?.namespace).toBe('default');
    expect(kc.getCurrentCluster()?.server).toBe(cluster.url);
    expect(await whoAmI(clientFor(kc))).toBe('system:serviceaccount:default:operator');
  });

  test('a rotated token (a new projected token written over the file) is read again on the next request', async () => {
    const root = await podRoot('before-rotation');
    const client = clientFor(inClusterKubeConfig({ root }));
    expect(await whoAmI(client)).toBe('system:serviceaccount:default:before-rotation');
    const other = await podRoot('after-rotation');
    writeFileSync(path.join(root, SERVICE_ACCOUNT_DIR, 'token'), readFileSync(path.join(other, SERVICE_ACCOUNT_DIR, 'token')));
    expect(await whoAmI(client)).toBe('system:serviceaccount:default:after-rotation');
  });

  test('a CA that did not sign the server’s certificate fails the connection', async () => {
    const stranger = await createCertificateAuthority('some-other-ca');
    const root = await podRoot('suspicious', stranger.certPem);
    await expect(whoAmI(clientFor(inClusterKubeConfig({ root })))).rejects.toThrow(/certificate/);
  });

  test('KUBEFORGE_SERVICEACCOUNT_DIR names the folder (any layout); the Manager loads it by default when KUBECONFIG is unset', async () => {
    const root = await podRoot('local-pod');
    const folder = path.join(tmp, 'flat-local-pod');
    mkdirSync(folder, { recursive: true });
    for (const f of ['token', 'ca.crt', 'namespace']) writeFileSync(path.join(folder, f), readFileSync(path.join(root, SERVICE_ACCOUNT_DIR, f)));
    const env = { ...process.env, [SERVICE_ACCOUNT_DIR_ENV]: folder };
    const kc = inClusterKubeConfig({ env });
    expect(kc.getContextObject(kc.getCurrentContext())?.namespace).toBe('default');
    expect(await whoAmI(clientFor(kc))).toBe('system:serviceaccount:default:local-pod');
    expect(() => inClusterKubeConfig({ env: { ...env, [SERVICE_ACCOUNT_DIR_ENV]: path.join(tmp, 'nowhere') } })).toThrow(
      `in-cluster configuration: ${path.join(tmp, 'nowhere')}/token (from KUBEFORGE_SERVICEACCOUNT_DIR) does not exist`,
    );
    const saved = { kubeconfig: process.env.KUBECONFIG, dir: process.env[SERVICE_ACCOUNT_DIR_ENV] };
    delete process.env.KUBECONFIG;
    process.env[SERVICE_ACCOUNT_DIR_ENV] = path.join(root, SERVICE_ACCOUNT_DIR);
    try {
      const mgr = new Manager({});
      expect(mgr.kubeConfig.getCurrentCluster()?.server).toBe(cluster.url);
      expect(mgr.kubeConfig.getCurrentUser()?.authProvider?.config?.tokenFile).toBe(path.join(root, SERVICE_ACCOUNT_DIR, 'token'));
    } finally {
      if (saved.kubeconfig !== undefined) process.env.KUBECONFIG = saved.kubeconfig;
      if (saved.dir === undefined) delete process.env[SERVICE_ACCOUNT_DIR_ENV];
      else process.env[SERVICE_ACCOUNT_DIR_ENV] = saved.dir;
    }
  });

  test('outside a pod: a clear error for missing service variables or a missing token', () => {
    expect(() => inClusterKubeConfig({ env: {} })).toThrow('in-cluster configuration: KUBERNETES_SERVICE_HOST and KUBERNETES_SERVICE_PORT must be set');
    const empty = path.join(tmp, 'no-pod');
    expect(() => inClusterKubeConfig({ root: empty, env: { KUBERNETES_SERVICE_HOST: '127.0.0.1', KUBERNETES_SERVICE_PORT: '443' } })).toThrow(`in-cluster configuration: ${empty}${SERVICE_ACCOUNT_DIR}/token does not exist`);
  });
});
