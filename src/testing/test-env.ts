/**
 * `startTestEnv()`: a local cluster on a virtual clock with the project's CRDs installed, and a manager on
 * the same clock — what every operator test uses. Time moves only through `stepTo`/`advanceTo`; after
 * each move and after `settle()`, the cluster's controllers, the manager's queues and its watches are
 * all quiet. Retries use a fixed 1 s backoff (reference-operators.md §0.3.11) for determinism.
 */
import { spawn } from 'node:child_process';
import { mkdtemp, readdir, rm, stat } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { Logger } from 'pino';
import pino from 'pino';
import { startLocalCluster, type LocalCluster, type LocalClusterOptions } from '../cluster/index.js';
import { isAlreadyExists } from '../runtime/client/api-error.js';
import { BuiltinKinds } from '../runtime/client/kinds.js';
import type { KubeObject } from '../runtime/client/object.js';
import type { Client } from '../runtime/client/client.js';
import { Manager, type ManagerOptions } from '../runtime/manager/manager.js';
import { FixedDelayRateLimiter } from '../runtime/queue/rate-limiter.js';
import { readManifests } from './parsed-manifests.js';
import { settle, type SettleLimits } from './settle.js';
import { registerWebhooks } from './webhook-registration.js';

/** The local cluster the env runs (src/cluster's `startLocalCluster` result). */
export type LocalClusterHandle = LocalCluster;

export interface TestEnvOptions {
  /** CRD manifests: files or folders of .yaml/.yml/.json files. */
  crdPaths?: string[];
  /** Start time of the virtual clock. */
  now?: Date | string;
  authz?: 'rbac' | 'alwaysAllow';
  /** Run the manager as this identity (a kubeconfig the cluster writes for it); default the admin. */
  identity?: { user: string; groups?: string[] };
  /**
   * Path to config/webhook/manifests.yaml (or several projects' paths, merged): at startManager() the
   * manager's webhook server starts and the configurations are registered pointing at it (register
   * handlers on env.manager.webhookServer first).
   */
  webhooks?: string | string[];
  /** Options passed to startLocalCluster (controllers, pods, seed, …). */
  cluster?: Omit<LocalClusterOptions, 'now' | 'clock' | 'authz'>;
  /** Manager options (cache scope, leader election, …); clock and kubeconfig are the env's. */
  manager?: Omit<ManagerOptions, 'clock' | 'kubeConfig'>;
  settle?: SettleLimits;
}

export interface KubectlResult {
  code: number;
  stdout: string;
  stderr: string;
}

export interface TestEnv {
  cluster: LocalClusterHandle;
  manager: Manager;
  /** The manager's client (cache-backed once the manager runs). */
  client: Client;
  kubeconfigPath: string;
  kubectl(args: string[], options?: { input?: string }): Promise<KubectlResult>;
  stepTo(t: Date | string): Promise<void>;
  advanceTo(t: Date | string): Promise<void>;
  settle(): Promise<void>;
  startManager(): Promise<void>;
  stopManager(): Promise<void>;
  stop(): Promise<void>;
}

export async function startTestEnv(options: TestEnvOptions = {}): Promise<TestEnv> {
  const tmp = await mkdtemp(path.join(os.tmpdir(), 'kubeforge-testenv-'));
  const cluster = await startLocalCluster({ ...(options.cluster ?? {}), ...(options.now ? { now: options.now } : {}), ...(options.authz ? { authz: options.authz } : {}), clock: 'virtual' });
  let kubeconfigPath = cluster.kubeconfigPath;
  if (options.identity) {
    kubeconfigPath = path.join(tmp, 'kubeconfig-identity');
    await cluster.writeKubeconfig(kubeconfigPath, options.identity);
  }
  const logger: Logger = options.manager?.logger ?? pino({ level: process.env.KUBEFORGE_LOG_LEVEL ?? 'silent' });
  const managerOptions: ManagerOptions = { rateLimiter: () => new FixedDelayRateLimiter(1000), ...options.manager, logger, clock: cluster.clock, kubeConfig: kubeconfigPath };
  const manager = new Manager(managerOptions);
  const admin = new Manager({ logger, clock: cluster.clock, kubeConfig: cluster.kubeconfigPath });

  const target = {
    settleCluster: () => cluster.settle(),
    managers: () => [manager],
    bytesInFlight: () => unreadBytes(manager, cluster),
    hasDueTimers: () => cluster.clock.hasDueTimers(),
    recentActivity: () => cluster.requestLog().slice(-20).map((entry) => JSON.stringify(entry)),
  };
  const settleAll = (): Promise<void> => settle(target, options.settle);
  cluster.clock.setSettleHook(settleAll);

  try {
    await installCrds(admin.client, options.crdPaths ?? [], settleAll);
  } catch (err) {
    // Never leave a listening cluster behind: jest would hang on its sockets.
    manager.close();
    admin.close();
    await cluster.stop();
    await rm(tmp, { recursive: true, force: true });
    throw err;
  }

  const env: TestEnv = {
    cluster,
    manager,
    client: manager.client,
    kubeconfigPath,
    kubectl: (args, opts) => runKubectl(kubeconfigPath, tmp, args, opts?.input),
    async stepTo(t) {
      await cluster.clock.stepTo(t);
      await settleAll();
    },
    async advanceTo(t) {
      await cluster.clock.advanceTo(t);
      await settleAll();
    },
    settle: settleAll,
    async startManager() {
      await manager.start();
      if (options.webhooks) await registerWebhooks(admin.client, manager.webhookServer, options.webhooks);
      await manager.getCache().waitForCacheSync();
      await settleAll();
    },
    async stopManager() {
      await manager.stop();
    },
    async stop() {
      cluster.clock.setSettleHook(undefined);
      await manager.stop();
      manager.close();
      admin.close();
      await cluster.stop();
      await rm(tmp, { recursive: true, force: true });
    },
  };
  return env;
}

/** Creates every CRD found under `paths` and waits until each is Established. */
async function installCrds(client: Client, paths: string[], settleAll: () => Promise<void>): Promise<void> {
  const crds: KubeObject[] = [];
  for (const p of paths) for (const file of await manifestFiles(p)) crds.push(...(await readManifests(file)).filter((o) => o.kind === 'CustomResourceDefinition'));
  for (const crd of crds) {
    try {
      await client.create(crd);
    } catch (err) {
      if (!isAlreadyExists(err)) throw new Error(`installing CRD ${crd.metadata?.name}: ${(err as Error).message}`, { cause: err });
    }
  }
  for (const crd of crds) {
    for (let attempt = 0; ; attempt++) {
      const current = await client.get(BuiltinKinds.CustomResourceDefinition, { name: crd.metadata!.name! });
      const conditions = (current as { status?: { conditions?: Array<{ type: string; status: string }> } }).status?.conditions ?? [];
      if (conditions.some((c) => c.type === 'Established' && c.status === 'True')) break;
      if (attempt > 50) throw new Error(`CRD ${crd.metadata?.name} did not become Established`);
      await settleAll();
      await new Promise((r) => setTimeout(r, 2));
    }
  }
}

async function manifestFiles(p: string): Promise<string[]> {
  const info = await stat(p).catch(() => undefined);
  if (!info) throw new Error(`startTestEnv: crdPaths entry ${p} does not exist`);
  if (info.isFile()) return [p];
  const entries = await readdir(p);
  return entries.filter((e) => /\.(ya?ml|json)$/.test(e)).sort().map((e) => path.join(p, e));
}

/**
 * What is still on its way between the cluster and the manager: per open connection of the manager's
 * client, bytes the server wrote that the client has not read, and the reverse. A connection the server
 * does not know (its TLS handshake unfinished, or closed by the server) carries nothing settle waits for: a
 * request on it is already counted by the transport.
 */
function unreadBytes(manager: Manager, cluster: LocalCluster): number {
  let unread = 0;
  for (const client of manager.transport.connections()) {
    const server = cluster.connectionBytes(client.localPort);
    if (server) unread += Math.max(0, server.written - client.read) + Math.max(0, client.written - server.read);
  }
  return unread;
}

function runKubectl(kubeconfig: string, tmp: string, args: string[], input?: string): Promise<KubectlResult> {
  return new Promise((resolve, reject) => {
    const child = spawn('kubectl', ['--kubeconfig', kubeconfig, ...args], {
      env: { ...process.env, HOME: tmp, KUBECACHEDIR: path.join(tmp, 'kubectl-cache'), KUBECONFIG: kubeconfig },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code: code ?? -1, stdout, stderr }));
    child.stdin.end(input ?? '');
  });
}
