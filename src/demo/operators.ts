/**
 * The reference operators the demo runs: where each lives in examples/, the resource kubectl shows for
 * it, and how its controllers (and webhooks, if any) are loaded from the transpiled copy in dist/examples.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseAllDocuments } from 'yaml';
import type { Manager } from '../runtime/index.js';

export interface DemoOperator {
  /** Folder name under examples/. */
  name: string;
  /** The kind the operator reconciles, and the resources (comma-separated) kubectl shows for it. */
  kind: string;
  resource: string;
  /** One line on what it does, for the demo's output. */
  summary: string;
  /** The config/samples files to apply, when not all of them (cronjob: v1 only; v2's sample is the same object). */
  samples?: string[];
  /** Folders the demo transpiles beyond api/ and internal/ (jobconfig: its `furiko` CLI, run as a kubectl plugin). */
  extraFolders?: string[];
}

export const DEMO_OPERATORS: DemoOperator[] = [
  { name: 'at', kind: 'AT', resource: 'ats.batch.my.domain', summary: 'runs one Job at an RFC 3339 time (the sample\'s time is in the past: at once)' },
  { name: 'eventjob', kind: 'EventJob', resource: 'eventjobs.batch.kitagry.github.io', summary: 'runs a Job each time the built-in CronJob "hello" reports a completed Job (an Event)' },
  { name: 'cronjob', kind: 'CronJob', resource: 'cronjobs.batch.tutorial.kubebuilder.io', summary: 'the kubebuilder book\'s CronJob: a Job every minute for cronjob-sample', samples: ['batch_v1_cronjob.yaml'] },
  {
    name: 'jobconfig',
    kind: 'JobConfig',
    resource: 'jobconfigs.execution.furiko.io,jobs.execution.furiko.io',
    summary: 'Furiko: JobConfig jobconfig-sample on "H/15 * * * *" (its quarter-hour offset hashed from its name), and the ad-hoc Job job-sample, run as task Pods',
    extraFolders: ['cmd/furiko'],
  },
  {
    name: 'memcached',
    kind: 'Memcached',
    resource: 'memcacheds.cache.example.com',
    summary: 'the kubebuilder book\'s Getting Started: memcached-sample runs memcached:1.6.26-alpine as a Deployment of spec.size pods',
  },
  {
    name: 'storagebucket',
    kind: 'StorageBucket',
    resource: 'storagebuckets.storage.example.com',
    summary: 'events from outside the cluster: a ticker probes storagebucket-sample\'s bucket in a real s3rver (HeadBucket) every 30 s',
  },
];

export function exampleDir(repoRoot: string, op: DemoOperator): string {
  return join(repoRoot, 'examples', op.name);
}

/** The sample manifests to apply: the operator's `samples`, else every YAML file of config/samples but the kustomization. */
export function sampleFiles(repoRoot: string, op: DemoOperator): string[] {
  const folder = join(exampleDir(repoRoot, op), 'config/samples');
  return readdirSync(folder)
    .filter((file) => /\.ya?ml$/.test(file) && !/^kustomization\.ya?ml$/.test(file) && (op.samples === undefined || op.samples.includes(file)))
    .sort()
    .map((file) => join(folder, file));
}

export function webhookManifests(repoRoot: string, op: DemoOperator): string | undefined {
  const path = join(exampleDir(repoRoot, op), 'config/webhook/manifests.yaml');
  return existsSync(path) && existsSync(join(exampleDir(repoRoot, op), 'internal/webhook/index.ts')) ? path : undefined;
}

/**
 * The literal `env` of the manager container in the example's config/manager/manager.yaml: what the
 * manager gets in the cluster and from `make run-local` (the memcached controller reads its image there).
 */
export function managerEnv(repoRoot: string, op: DemoOperator): Record<string, string> {
  const path = join(exampleDir(repoRoot, op), 'config/manager/manager.yaml');
  if (!existsSync(path)) return {};
  const env: Record<string, string> = {};
  for (const doc of parseAllDocuments(readFileSync(path, 'utf8'))) {
    const object = doc.toJS() as { kind?: string; spec?: { template?: { spec?: { containers?: Array<{ name?: string; env?: Array<{ name: string; value?: unknown }> }> } } } } | null;
    if (object?.kind !== 'Deployment') continue;
    const manager = object.spec?.template?.spec?.containers?.find((c) => c.name === 'manager');
    for (const variable of manager?.env ?? []) if (typeof variable.value === 'string') env[variable.name] = variable.value;
  }
  return env;
}

/** Registers the operator's controllers, and its webhook handlers when it has any, on `mgr`. */
export async function setupOperator(builtDir: string, op: DemoOperator, mgr: Manager, withWebhooks: boolean): Promise<void> {
  const controllers = (await import(pathToFileURL(join(builtDir, 'internal/controller/index.js')).href)) as { setupControllers?: (mgr: Manager) => Promise<void> | void };
  if (typeof controllers.setupControllers !== 'function') throw new Error(`examples/${op.name}/internal/controller/index.ts does not export setupControllers(mgr)`);
  await controllers.setupControllers(mgr);
  if (!withWebhooks) return;
  const webhooks = (await import(pathToFileURL(join(builtDir, 'internal/webhook/index.js')).href)) as { setupWebhooks?: (mgr: Manager) => unknown };
  if (typeof webhooks.setupWebhooks !== 'function') throw new Error(`examples/${op.name}/internal/webhook/index.ts does not export setupWebhooks(mgr)`);
  webhooks.setupWebhooks(mgr);
}
