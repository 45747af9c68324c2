/**
 * Test harness for the CronJob scenarios (reference-operators.md §5.1): a local cluster on a virtual clock
 * with the CRD installed and the built-in Job controller off (the tests drive Job status, §0.3.8), the
 * operator's controller (and optionally its webhooks) on the manager, and helpers to finish Jobs.
 */
import { fileURLToPath } from 'node:url';
import type { Job, JobCondition } from 'kubernetes-types/batch/v1.js';
import pino from 'pino';
import { BuiltinKinds, Manager, type Client, type Result } from 'kubeforge/runtime';
import { startTestEnv, type TestEnv } from 'kubeforge/testing';
import { CronJobKind, type CronJob, type CronJobSpec } from '../api/v1/cronjob_types.js';
import { CronJobReconciler } from '../internal/controller/cronjob_controller.js';
import { setupControllers } from '../internal/controller/index.js';
import { setupWebhooks } from '../internal/webhook/index.js';

export const crdFolder = fileURLToPath(new URL('../config/crd/bases', import.meta.url));
export const webhookManifests = fileURLToPath(new URL('../config/webhook/manifests.yaml', import.meta.url));
export const sampleFile = fileURLToPath(new URL('../config/samples/batch_v1_cronjob.yaml', import.meta.url));

/** Monday 2024-01-15, UTC: `at('10:01')` → the Date of 10:01:00. */
export function at(hhmmss: string): Date {
  return new Date(`2024-01-15T${hhmmss.length === 5 ? `${hhmmss}:00` : hhmmss}Z`);
}

/** Unix seconds of a scenario time, as used in Job names. */
export function unix(hhmmss: string): number {
  return at(hhmmss).getTime() / 1000;
}

export interface HarnessOptions {
  start: string;
  webhooks?: boolean;
  /** Run the manager as this user with the cluster's RBAC on; `beforeStart` may grant it roles. */
  rbacUser?: string;
  beforeStart?: (env: TestEnv) => Promise<void>;
}

export class CronJobHarness {
  /** The harness acts as the cluster admin, never as the operator (its requests stay out of RBAC reports). */
  readonly admin: Client;

  private constructor(
    readonly env: TestEnv,
    private readonly adminManager: Manager,
  ) {
    this.admin = adminManager.client;
  }

  static async start(options: HarnessOptions): Promise<CronJobHarness> {
    const env = await startTestEnv({
      crdPaths: [crdFolder],
      now: at(options.start),
      cluster: { controllers: { job: false } },
      ...(options.webhooks === false ? {} : { webhooks: webhookManifests }),
      ...(options.rbacUser ? { authz: 'rbac' as const, identity: { user: options.rbacUser } } : {}),
    });
    await options.beforeStart?.(env);
    await setupControllers(env.manager);
    if (options.webhooks !== false) setupWebhooks(env.manager);
    await env.startManager();
    const adminManager = new Manager({ kubeConfig: env.cluster.kubeconfigPath, clock: env.cluster.clock, logger: pino({ level: 'silent' }) });
    return new CronJobHarness(env, adminManager);
  }

  async stop(): Promise<void> {
    this.adminManager.close();
    await this.env.stop();
  }

  private get reader(): Client {
    return this.admin;
  }

  /** Creates a CronJob in `default` with a one-container template; `spec` overrides the defaults. */
  async createCronJob(name: string, spec: Partial<CronJobSpec>): Promise<CronJob> {
    const created = await this.admin.create<CronJob>({
      apiVersion: 'batch.tutorial.kubebuilder.io/v1',
      kind: 'CronJob',
      metadata: { name, namespace: 'default' },
      spec: { schedule: '*/1 * * * *', jobTemplate: simpleTemplate(), ...spec },
    });
    await this.env.settle();
    return created;
  }

  async cronJob(name: string): Promise<CronJob> {
    return this.reader.get(CronJobKind, { namespace: 'default', name });
  }

  async updateSpec(name: string, change: Partial<CronJobSpec>): Promise<void> {
    const current = await this.cronJob(name);
    await this.admin.update({ ...current, spec: { ...current.spec, ...change } });
    await this.env.settle();
  }

  async jobs(): Promise<Job[]> {
    return this.reader.list(BuiltinKinds.Job, { namespace: 'default' });
  }

  async jobNames(): Promise<string[]> {
    return (await this.jobs()).map((j) => j.metadata!.name!).sort();
  }

  async job(name: string): Promise<Job> {
    return this.reader.get(BuiltinKinds.Job, { namespace: 'default', name });
  }

  /** Writes a Job's status as a Job controller would (startTime defaults to the Job's creation). */
  async setJobStatus(name: string, outcome: 'Complete' | 'Failed' | 'running', times: { start?: Date | null; end?: Date } = {}): Promise<void> {
    const job = await this.job(name);
    const now = new Date(this.env.cluster.clock.now());
    const start = times.start === null ? undefined : rfc3339(times.start ?? new Date(job.metadata!.creationTimestamp!));
    const end = rfc3339(times.end ?? now);
    const conditions: JobCondition[] = [];
    if (outcome === 'Complete') {
      conditions.push({ type: 'SuccessCriteriaMet', status: 'True', lastProbeTime: end, lastTransitionTime: end }, { type: 'Complete', status: 'True', lastProbeTime: end, lastTransitionTime: end });
    } else if (outcome === 'Failed') {
      conditions.push({ type: 'FailureTarget', status: 'True', lastProbeTime: end, lastTransitionTime: end, reason: 'BackoffLimitExceeded' }, { type: 'Failed', status: 'True', lastProbeTime: end, lastTransitionTime: end, reason: 'BackoffLimitExceeded' });
    }
    const status: Job['status'] = {
      ...(start ? { startTime: start } : {}),
      ...(outcome === 'Complete' ? { completionTime: end, succeeded: 1, active: 0 } : {}),
      ...(outcome === 'Failed' ? { failed: 1, active: 0 } : {}),
      ...(outcome === 'running' ? { active: 1 } : {}),
      ...(conditions.length ? { conditions } : {}),
      ready: 0,
      terminating: 0,
      uncountedTerminatedPods: {},
    };
    await this.admin.updateStatus({ ...job, status });
    await this.env.settle();
  }

  async stepTo(t: string): Promise<void> {
    await this.env.stepTo(at(t));
  }

  /** Runs one reconcile of `name` directly and returns its Result (to see whether it asks to be requeued). */
  async reconcileNow(name: string): Promise<Result> {
    const reconciler = new CronJobReconciler(this.env.manager);
    return reconciler.reconcile({ namespace: 'default', name }, { controller: 'cronjob', reconcileID: 'test', log: this.env.manager.logger, clock: this.env.manager.clock });
  }

  condition(cronJob: CronJob, type: string): { status: string; reason: string; message: string } | undefined {
    const c = cronJob.status?.conditions?.find((x) => x.type === type);
    return c && { status: c.status, reason: c.reason, message: c.message };
  }
}

export function simpleTemplate(): CronJobSpec['jobTemplate'] {
  return { spec: { template: { spec: { containers: [{ name: 'hello', image: 'busybox', args: ['/bin/sh', '-c', 'date'] }], restartPolicy: 'OnFailure' } } } };
}

function rfc3339(d: Date): string {
  return new Date(Math.floor(d.getTime() / 1000) * 1000).toISOString().replace('.000Z', 'Z');
}
