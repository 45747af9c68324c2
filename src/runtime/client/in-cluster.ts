/**
 * In-cluster configuration: the API server from KUBERNETES_SERVICE_HOST/PORT, the pod's ServiceAccount
 * token (re-read by client-node every minute, so projected-token rotation is picked up), its CA and
 * namespace — client-node's `loadFromCluster`, with clear errors when something is missing. The files
 * live under `/var/run/secrets/kubernetes.io/serviceaccount`; `root` moves that path under another folder
 * (client-node's path prefix), which is how tests and sidecar-style setups point it elsewhere.
 * `KUBEFORGE_SERVICEACCOUNT_DIR` (or `dir`) names the folder itself: the local cluster's kubelet sets it
 * for the processes it runs, whose token, CA and namespace are in a per-pod folder.
 */
import { existsSync, readFileSync } from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { KubeConfig } from '@kubernetes/client-node';

export const SERVICE_ACCOUNT_DIR = '/var/run/secrets/kubernetes.io/serviceaccount';
/** The environment variable naming the folder that holds token, ca.crt and namespace in place of SERVICE_ACCOUNT_DIR. */
export const SERVICE_ACCOUNT_DIR_ENV = 'KUBEFORGE_SERVICEACCOUNT_DIR';

export interface InClusterOptions {
  /** Folder the service-account path is resolved under (default "/": the real path). */
  root?: string;
  /** The folder holding token, ca.crt and namespace (default: $KUBEFORGE_SERVICEACCOUNT_DIR, else under `root`). */
  dir?: string;
  /** Environment to read KUBERNETES_SERVICE_HOST/PORT from (default process.env). */
  env?: NodeJS.ProcessEnv;
}

/** A KubeConfig for the pod's ServiceAccount; throws naming what is missing outside a pod. */
export function inClusterKubeConfig(options: InClusterOptions = {}): KubeConfig {
  const env = options.env ?? process.env;
  const host = env.KUBERNETES_SERVICE_HOST;
  const port = env.KUBERNETES_SERVICE_PORT;
  if (!host || !port) throw new Error('in-cluster configuration: KUBERNETES_SERVICE_HOST and KUBERNETES_SERVICE_PORT must be set (Kubernetes sets them in every pod)');
  const dir = options.dir ?? (options.root === undefined ? env[SERVICE_ACCOUNT_DIR_ENV] || undefined : undefined);
  const prefix = dir !== undefined ? undefined : options.root && options.root !== '/' ? path.resolve(options.root) : '';
  const folder = dir !== undefined ? path.resolve(dir) : `${prefix}${SERVICE_ACCOUNT_DIR}`;
  for (const file of ['token', 'ca.crt']) {
    const full = `${folder}/${file}`;
    const named = dir !== undefined && !options.dir ? ` (from ${SERVICE_ACCOUNT_DIR_ENV})` : '';
    if (!existsSync(full)) throw new Error(`in-cluster configuration: ${full}${named} does not exist (is a ServiceAccount token mounted?)`);
  }
  const saved = { host: process.env.KUBERNETES_SERVICE_HOST, port: process.env.KUBERNETES_SERVICE_PORT };
  // client-node reads the two variables from process.env only: lend them for the call.
  process.env.KUBERNETES_SERVICE_HOST = host;
  process.env.KUBERNETES_SERVICE_PORT = port;
  try {
    const kc = new KubeConfig();
    if (prefix !== undefined) kc.loadFromCluster(prefix);
    else if (folder.endsWith(SERVICE_ACCOUNT_DIR)) kc.loadFromCluster(folder.slice(0, -SERVICE_ACCOUNT_DIR.length));
    else loadFromFolder(kc, folder, host, port);
    return kc;
  } finally {
    restore('KUBERNETES_SERVICE_HOST', saved.host);
    restore('KUBERNETES_SERVICE_PORT', saved.port);
  }
}

/** What loadFromCluster builds, for a folder not laid out as <prefix>/var/run/secrets/kubernetes.io/serviceaccount. */
function loadFromFolder(kc: KubeConfig, folder: string, host: string, port: string): void {
  const scheme = port === '80' || port === '8080' || port === '8001' ? 'http' : 'https';
  const namespaceFile = `${folder}/namespace`;
  const namespace = existsSync(namespaceFile) ? readFileSync(namespaceFile, 'utf8').trim() : undefined;
  kc.loadFromOptions({
    clusters: [{ name: 'inCluster', server: `${scheme}://${net.isIPv6(host) ? `[${host}]` : host}:${port}`, caFile: `${folder}/ca.crt`, skipTLSVerify: false }],
    users: [{ name: 'inClusterUser', authProvider: { name: 'tokenFile', config: { tokenFile: `${folder}/token` } } }],
    contexts: [{ name: 'inClusterContext', cluster: 'inCluster', user: 'inClusterUser', ...(namespace ? { namespace } : {}) }],
    currentContext: 'inClusterContext',
  });
}

function restore(name: string, value: string | undefined): void {
  if (value === undefined) delete process.env[name];
  else process.env[name] = value;
}
