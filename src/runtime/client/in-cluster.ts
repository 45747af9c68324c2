/**
 * In-cluster configuration: the API server from KUBERNETES_SERVICE_HOST/PORT, the pod's ServiceAccount
 * token (re-read by client-node every minute, so projected-token rotation is picked up), its CA and
 * namespace — client-node's `loadFromCluster`, with clear errors when something is missing. The files
 * live under `/var/run/secrets/kubernetes.io/serviceaccount`; `root` moves that path under another folder
 * (client-node's path prefix), which is how tests and sidecar-style setups point it elsewhere.
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import { KubeConfig } from '@kubernetes/client-node';

export const SERVICE_ACCOUNT_DIR = '/var/run/secrets/kubernetes.io/serviceaccount';

export interface InClusterOptions {
  /** Folder the service-account path is resolved under (default "/": the real path). */
  root?: string;
  /** Environment to read KUBERNETES_SERVICE_HOST/PORT from (default process.env). */
  env?: NodeJS.ProcessEnv;
}

/** A KubeConfig for the pod's ServiceAccount; throws naming what is missing outside a pod. */
export function inClusterKubeConfig(options: InClusterOptions = {}): KubeConfig {
  const env = options.env ?? process.env;
  const host = env.KUBERNETES_SERVICE_HOST;
  const port = env.KUBERNETES_SERVICE_PORT;
  if (!host || !port) throw new Error('in-cluster configuration: KUBERNETES_SERVICE_HOST and KUBERNETES_SERVICE_PORT must be set (Kubernetes sets them in every pod)');
  const prefix = options.root && options.root !== '/' ? path.resolve(options.root) : '';
  for (const file of ['token', 'ca.crt']) {
    const full = `${prefix}${SERVICE_ACCOUNT_DIR}/${file}`;
    if (!existsSync(full)) throw new Error(`in-cluster configuration: ${full} does not exist (is a ServiceAccount token mounted?)`);
  }
  const saved = { host: process.env.KUBERNETES_SERVICE_HOST, port: process.env.KUBERNETES_SERVICE_PORT };
  // client-node reads the two variables from process.env only: lend them for the call.
  process.env.KUBERNETES_SERVICE_HOST = host;
  process.env.KUBERNETES_SERVICE_PORT = port;
  try {
    const kc = new KubeConfig();
    kc.loadFromCluster(prefix);
    return kc;
  } finally {
    restore('KUBERNETES_SERVICE_HOST', saved.host);
    restore('KUBERNETES_SERVICE_PORT', saved.port);
  }
}

function restore(name: string, value: string | undefined): void {
  if (value === undefined) delete process.env[name];
  else process.env[name] = value;
}
