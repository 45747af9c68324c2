/**
 * The local cluster every jobconfig test starts from: this project's CRDs, optionally its webhooks and some
 * or all of its controllers on the env's manager, inert Pods (the tests drive them, §0.3), and an admin
 * client of its own whose requests stay out of the operator's RBAC report.
 */
import { fileURLToPath } from 'node:url';
import type { ClusterRoleBinding } from 'kubernetes-types/rbac/v1.js';
import pino from 'pino';
import { Manager, type Client, type KubeObject } from 'kubeforge/runtime';
import { startTestEnv, type TestEnv } from 'kubeforge/testing';
import { setupControllers } from '../internal/controller/index.js';
import { setupJobController } from '../internal/controller/job_controller.js';
import { setupJobConfigController } from '../internal/controller/jobconfig_controller.js';
import { setupWebhooks } from '../internal/webhook/index.js';

/** A file of this project, by its path from the project root. */
export const projectFile = (relative: string): string => fileURLToPath(new URL(`../${relative}`, import.meta.url));
export const crdFolder = projectFile('config/crd/bases');
export const webhookManifests = projectFile('config/webhook/manifests.yaml');

export interface FurikoEnvOptions {
  /** Start of the virtual clock. */
  now: Date | string;
  /** Which controllers run: none (webhook tests), the Job side, the scheduling side, or the whole operator. */
  controllers: 'none' | 'job' | 'scheduling' | 'all';
  /** Serve this project's webhooks and register them with the cluster. */
  webhooks: boolean;
  /** Run the manager as this user under the cluster's RBAC, bound to `role` (a ClusterRole manifest) first. */
  rbac?: { user: string; role: KubeObject };
  /** Leave the cluster's own batch/v1 Job and CronJob controllers off (they never touch Furiko's kinds). */
  withoutBatchControllers?: boolean;
  /** Task Pods inert (the tests drive their status; the default) or run by the kubelet simulator (logs, exits). */
  pods?: 'inert' | 'simulate';
  /** Adds to the manager before it starts (e.g. the dynamic config's watcher, as cmd/main.ts does). */
  beforeStart?: (manager: Manager) => void;
}

export interface FurikoEnv {
  env: TestEnv;
  /** The admin's client. */
  admin: Client;
  /** Closes the admin's connections and stops the cluster. */
  stop(): Promise<void>;
}

export async function startFurikoEnv(options: FurikoEnvOptions): Promise<FurikoEnv> {
  const env = await startTestEnv({
    crdPaths: [crdFolder],
    now: options.now,
    ...(options.webhooks ? { webhooks: webhookManifests } : {}),
    authz: options.rbac ? 'rbac' : 'alwaysAllow',
    ...(options.rbac ? { identity: { user: options.rbac.user } } : {}),
    cluster: { pods: options.pods ?? 'inert', ...(options.withoutBatchControllers ? { controllers: { job: false, cronJob: false } } : {}) },
  });
  const adminManager = new Manager({ kubeConfig: env.cluster.kubeconfigPath, clock: env.cluster.clock, logger: pino({ level: 'silent' }) });
  if (options.rbac) await bindClusterRole(adminManager.client, options.rbac.role, options.rbac.user);
  if (options.controllers === 'all') await setupControllers(env.manager);
  else if (options.controllers === 'job') setupJobController(env.manager);
  else if (options.controllers === 'scheduling') setupJobConfigController(env.manager);
  if (options.webhooks) setupWebhooks(env.manager);
  options.beforeStart?.(env.manager);
  await env.startManager();
  return {
    env,
    admin: adminManager.client,
    async stop() {
      adminManager.close();
      await env.stop();
    },
  };
}

async function bindClusterRole(admin: Client, role: KubeObject, user: string): Promise<void> {
  await admin.create(role);
  const binding: ClusterRoleBinding = {
    apiVersion: 'rbac.authorization.k8s.io/v1',
    kind: 'ClusterRoleBinding',
    metadata: { name: `${role.metadata!.name}-${user}` },
    roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: role.metadata!.name! },
    subjects: [{ kind: 'User', name: user, apiGroup: 'rbac.authorization.k8s.io' }],
  };
  await admin.create(binding);
}
