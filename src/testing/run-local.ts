/**
 * `make run-local` of a made project (its cmd/run-local.ts calls `runLocal`): starts kubeforge's local
 * Kubernetes 1.32 cluster in this process (no Docker, no downloads), installs the CRDs from
 * config/crd/bases, runs the manager with the project's controllers and webhooks against it, registers
 * the webhook configurations of config/webhook/manifests.yaml pointing at the manager's webhook server
 * (and the CRDs of the kinds it converts at its /convert, so the cluster calls the webhooks as a real one
 * does), and prints the `export KUBECONFIG=…` line for kubectl in another terminal. Ctrl-C stops both.
 * The manager gets the `env` of its container in config/manager/manager.yaml (for variables not set in
 * this shell). The cluster keeps its objects, CA and tokens in .kubeforge/cluster across runs (SQLite;
 * git-ignored); `--fresh` starts it empty. Takes the manager's flags and `--fresh`; --kubeconfig is the
 * local cluster's. `--attach=<kubeconfig>` runs only the manager, against a local cluster that is already
 * running (as `make dev` does: it keeps the cluster up and applies the CRDs itself, restarting just this process).
 */
import { copyFileSync, existsSync, mkdirSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { parseAllDocuments } from 'yaml';
import { Manager } from '../runtime/manager/manager.js';
import { managerUsage, parseManagerFlags, startFailureMessage } from '../runtime/manager/manager-flags.js';
import { isAlreadyExists } from '../runtime/client/api-error.js';
import { readCrdFolder } from './parsed-manifests.js';

export interface RunLocalOptions {
  /** The leader-election Lease's name, as cmd/main.ts passes it to `parseManagerFlags`. */
  leaderElectionId: string;
  /** Registers the project's controllers and webhooks with the manager (what cmd/main.ts does). */
  setup(mgr: Manager): void | Promise<void>;
  /** The command line (default: process.argv without node and the script). */
  argv?: string[];
}

/** The project files run-local reads, relative to the current folder (the project's root under make). */
function projectPaths(): { crdFolder: string; kubeconfig: string; clusterData: string; webhookManifests: string; managerManifest: string } {
  return {
    crdFolder: resolve('config/crd/bases'),
    kubeconfig: resolve('.kubeforge/kubeconfig'),
    clusterData: resolve('.kubeforge/cluster'),
    webhookManifests: resolve('config/webhook/manifests.yaml'),
    managerManifest: resolve('config/manager/manager.yaml'),
  };
}

/** The literal `env` values of the manager container in config/manager/manager.yaml (e.g. a deploy-image controller's image). */
function managerEnv(managerManifest: string): Record<string, string> {
  if (!existsSync(managerManifest)) return {};
  const env: Record<string, string> = {};
  for (const doc of parseAllDocuments(readFileSync(managerManifest, 'utf8'))) {
    const object = doc.toJS() as { kind?: string; spec?: { template?: { spec?: { containers?: Array<{ name?: string; env?: Array<{ name: string; value?: unknown }> }> } } } } | null;
    if (object?.kind !== 'Deployment') continue;
    const manager = object.spec?.template?.spec?.containers?.find((c) => c.name === 'manager');
    for (const variable of manager?.env ?? []) if (typeof variable.value === 'string') env[variable.name] = variable.value;
  }
  return env;
}

/** `--attach=<kubeconfig>` (or `--attach <kubeconfig>`) and the other arguments. */
function attachFlag(args: string[]): { attach?: string; rest: string[] } {
  const rest: string[] = [];
  let attach: string | undefined;
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    if (arg.startsWith('--attach=')) attach = arg.slice('--attach='.length);
    else if (arg === '--attach') attach = args[++i] ?? '';
    else rest.push(arg);
  }
  if (attach === '') throw new Error('--attach: expected the kubeconfig of a running local cluster, e.g. --attach=.kubeforge/kubeconfig');
  return { attach: attach === undefined ? undefined : resolve(attach), rest };
}

async function run(options: RunLocalOptions): Promise<void> {
  const paths = projectPaths();
  const { attach, rest: args } = attachFlag(options.argv ?? process.argv.slice(2));
  const fresh = args.includes('--fresh');
  const flags = parseManagerFlags(
    args.filter((a) => a !== '--fresh'),
    { leaderElectionId: options.leaderElectionId },
  );
  if (flags === 'help') {
    process.stdout.write(`${managerUsage('node dist/cmd/run-local.js')}\n  --fresh                             start the local cluster empty\n  --attach <kubeconfig>               run only the manager, against a local cluster already running\n`);
    return;
  }
  if (attach !== undefined && !existsSync(attach)) throw new Error(`--attach: no kubeconfig at ${attach}`);
  // Loaded only here: attached (make dev), the manager starts without the cluster's modules.
  const cluster = attach === undefined ? await (await import('../cluster/index.js')).startLocalCluster({ clock: 'real', dataDir: paths.clusterData, fresh }) : undefined;
  if (cluster !== undefined) {
    mkdirSync('.kubeforge', { recursive: true });
    copyFileSync(cluster.kubeconfigPath, paths.kubeconfig);
  }
  // Webhooks on any free port of the loopback interface, with the self-signed certificate made at start
  // unless --webhook-cert-path names one.
  const mgr = new Manager({ ...flags.options, kubeConfig: attach ?? paths.kubeconfig, webhook: { ...flags.options.webhook, host: '127.0.0.1', port: 0 } });
  // Attached, the CRDs are the attaching process's (make dev applies them server-side).
  for (const crd of cluster === undefined ? [] : await readCrdFolder(paths.crdFolder)) {
    try {
      await mgr.client.create(crd);
    } catch (err) {
      if (!isAlreadyExists(err)) throw err;
      // kept from the last run: replace it with the current definition
      const kept = await mgr.client.get({ apiVersion: 'apiextensions.k8s.io/v1', kind: 'CustomResourceDefinition' }, { name: crd.metadata!.name! });
      await mgr.client.update({ ...crd, metadata: { ...crd.metadata, resourceVersion: kept.metadata?.resourceVersion } });
    }
    mgr.logger.info({ crd: crd.metadata?.name }, 'installed CRD');
  }
  // The manager runs with its container's environment from config/manager, as in the cluster; a variable
  // set in this shell wins.
  for (const [name, value] of Object.entries(managerEnv(paths.managerManifest))) process.env[name] ??= value;
  await options.setup(mgr);
  await mgr.start();
  // The webhook server runs once handlers are registered (not with ENABLE_WEBHOOKS=false): the cluster
  // then calls them at https://127.0.0.1:<port><path>, trusting the server's CA, as a cluster calls the Service.
  // A conversion webhook alone has no manifests file: the CRDs of the kinds it converts are pointed at its /convert.
  if (mgr.webhookServer.port !== undefined) {
    const { registerWebhooks } = await import('./webhook-registration.js');
    for (const written of await registerWebhooks(mgr.client, mgr.webhookServer, existsSync(paths.webhookManifests) ? paths.webhookManifests : [])) {
      mgr.logger.info({ kind: written.kind, name: written.metadata?.name }, written.kind === 'CustomResourceDefinition' ? 'registered conversion webhook' : 'registered webhook configuration');
    }
  }
  const probes = mgr.probePort === undefined ? '' : `; probes at http://127.0.0.1:${mgr.probePort}/readyz`;
  const metrics = mgr.metricsUrl() === undefined ? '' : `; metrics at ${mgr.metricsUrl()}`;
  const webhooks = mgr.webhookServer.port === undefined ? '' : `; webhooks at https://127.0.0.1:${mgr.webhookServer.port}`;
  if (cluster === undefined) process.stdout.write(`manager running against the local cluster of ${attach}${probes}${metrics}${webhooks}\n`);
  else process.stdout.write(`local cluster (Kubernetes v1.32) at ${cluster.url}; manager running${probes}${metrics}${webhooks}\nexport KUBECONFIG=${paths.kubeconfig}\n`);
  await new Promise<void>((done) => {
    process.once('SIGINT', () => done());
    process.once('SIGTERM', () => done());
  });
  await mgr.stop();
  mgr.close();
  await cluster?.stop();
}

/**
 * Runs the local cluster and the manager until Ctrl-C (SIGINT) or SIGTERM. A failure to start (a bad flag,
 * a port in use, a CRD the cluster rejects) is printed to stderr and the process exits with 1.
 */
export async function runLocal(options: RunLocalOptions): Promise<void> {
  try {
    await run(options);
  } catch (err) {
    process.stderr.write(`${startFailureMessage(err, true)}\n`);
    process.exit(1);
  }
}
