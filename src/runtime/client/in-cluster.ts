/**
 * In-cluster configuration: the API server from KUBERNETES_SERVICE_HOST/PORT, the pod's ServiceAccount
 * token (re-read whenever the file changes, so projected-token rotation is picked up), its CA and
 * namespace — client-go's `InClusterConfig` (and client-node's `loadFromCluster`, whose user shape it keeps:
 * `authProvider: { name: 'tokenFile', config: { tokenFile } }`), with clear errors when something is
 * missing. The files live under `/var/run/secrets/kubernetes.io/serviceaccount`; `root` moves that path
 * under another folder (client-node's path prefix), which is how tests and sidecar-style setups point it
 * elsewhere. `KUBEFORGE_SERVICEACCOUNT_DIR` (or `dir`) names the folder itself: the local cluster's kubelet
 * sets it for the processes it runs, whose token, CA and namespace are in a per-pod folder.
 */
import { existsSync, readFileSync } from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { Kubeconfig } from './kubeconfig.js';

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

/** A Kubeconfig for the pod's ServiceAccount; throws naming what is missing outside a pod. */
export function inClusterKubeConfig(options: InClusterOptions = {}): Kubeconfig {
  const env = options.env ?? process.env;
  const host = env.KUBERNETES_SERVICE_HOST;
  const port = env.KUBERNETES_SERVICE_PORT;
  if (!host || !port) throw new Error('in-cluster configuration: KUBERNETES_SERVICE_HOST and KUBERNETES_SERVICE_PORT must be set (Kubernetes sets them in every pod)');
  const dir = options.dir ?? (options.root === undefined ? env[SERVICE_ACCOUNT_DIR_ENV] || undefined : undefined);
  const prefix = options.root && options.root !== '/' ? path.resolve(options.root) : '';
  const folder = dir !== undefined ? path.resolve(dir) : `${prefix}${SERVICE_ACCOUNT_DIR}`;
  for (const file of ['token', 'ca.crt']) {
    const full = `${folder}/${file}`;
    const named = dir !== undefined && !options.dir ? ` (from ${SERVICE_ACCOUNT_DIR_ENV})` : '';
    if (!existsSync(full)) throw new Error(`in-cluster configuration: ${full}${named} does not exist (is a ServiceAccount token mounted?)`);
  }
  // client-go's choice of scheme for the service port; an IPv6 host is bracketed
  const scheme = port === '80' || port === '8080' || port === '8001' ? 'http' : 'https';
  const namespaceFile = `${folder}/namespace`;
  const namespace = existsSync(namespaceFile) ? readFileSync(namespaceFile, 'utf8').trim() || undefined : undefined;
  return new Kubeconfig(
    [{ name: 'inCluster', server: `${scheme}://${net.isIPv6(host) ? `[${host}]` : host}:${port}`, caFile: `${folder}/ca.crt`, skipTLSVerify: false }],
    [{ name: 'inClusterUser', authProvider: { name: 'tokenFile', config: { tokenFile: `${folder}/token` } } }],
    [{ name: 'inClusterContext', cluster: 'inCluster', user: 'inClusterUser', ...(namespace ? { namespace } : {}) }],
    'inClusterContext',
    `in-cluster configuration (${folder})`,
  );
}

/** In-cluster configuration when this process runs in a pod (the service variables set and a token mounted), else undefined. */
export function inClusterIfInPod(): Kubeconfig | undefined {
  if (!process.env.KUBERNETES_SERVICE_HOST || !process.env.KUBERNETES_SERVICE_PORT || !existsSync(`${SERVICE_ACCOUNT_DIR}/token`)) return undefined;
  return inClusterKubeConfig();
}
