/**
 * Test harness for the JobController and JobQueueController scenarios (reference-operators spec §5.4): the
 * local cluster on a virtual clock with inert Pods that the test drives as §0.3.10 says ("runs at T",
 * "succeeds/fails at T"), plus readers for Jobs, Pods and Events.
 */
import type { Event as CoreEvent, Pod } from 'kubernetes-types/core/v1.js';
import { BuiltinKinds, type Client, type KubeObject } from 'kubeforge/runtime';
import type { TestEnv } from 'kubeforge/testing';
import { JobKind, type Job, type JobSpec, type JobTemplate } from '../api/v1alpha1/job_types.js';
import { JobConfigKind, type JobConfig, type JobConfigSpec } from '../api/v1alpha1/jobconfig_types.js';
import { FINALIZER_DELETE_DEPENDENTS, LABEL_JOB_CONFIG_UID } from '../internal/furiko/keys.js';
import { startFurikoEnv, type FurikoEnv } from './furiko-env.js';


/** Monday 2024-01-15 UTC: `at('10:05:03')`, `at('10:05')`. */
export function at(hhmmss: string): Date {
  return new Date(`2024-01-15T${hhmmss.length === 5 ? `${hhmmss}:00` : hhmmss}Z`);
}

/** `2024-01-15T10:05:03Z`, as the API server stores times. */
export function iso(hhmmss: string): string {
  return at(hhmmss).toISOString().replace('.000Z', 'Z');
}

/** A Pod task template with one container echoing its context variables (the sample's container, §4.9). */
export function sampleTemplate(extra: Partial<JobTemplate> = {}): JobTemplate {
  return {
    taskTemplate: {
      pod: {
        metadata: { annotations: { 'app.kubernetes.io/name': 'job-sample-pod' } },
        spec: {
          restartPolicy: 'Never',
          containers: [
            {
              name: 'job-container',
              image: 'alpine:${option.image-tag}',
              args: ['echo', 'Hello world, ${option.user-name}!'],
              env: [
                { name: 'JOBCONFIG_NAME', value: '${jobconfig.name}' },
                { name: 'JOB_NAME', value: '${job.name}' },
                { name: 'TASK_NAME', value: '${task.name}' },
                { name: 'TASK_RETRY_INDEX', value: '${task.retry_index}' },
                { name: 'TASK_INDEX_NUM', value: '${task.index_num}' },
              ],
              resources: { limits: { cpu: '100m', memory: '64Mi' } },
            },
          ],
        },
      },
    },
    maxAttempts: 1,
    taskPendingTimeoutSeconds: 900,
    ...extra,
  };
}

export interface ScenarioOptions {
  /** Run the manager as this user under the cluster's RBAC, bound to `role` (a ClusterRole manifest) first. */
  rbac?: { user: string; role: KubeObject };
  /** Which controllers the manager runs: this project's Job controllers only (default), or the whole operator. */
  controllers?: 'job' | 'all';
}

export class JobScenario {
  private constructor(private readonly furiko: FurikoEnv) {}

  /** A cluster at `start` with the CRDs, the webhooks and this project's Job controllers (or all of its controllers). */
  static async start(start: string, options: ScenarioOptions = {}): Promise<JobScenario> {
    const furiko = await startFurikoEnv({ now: at(start), controllers: options.controllers ?? 'job', webhooks: true, rbac: options.rbac, withoutBatchControllers: true });
    return new JobScenario(furiko);
  }

  get env(): TestEnv {
    return this.furiko.env;
  }

  /** The admin's client (the test acts as the cluster admin, never as the operator). */
  get api(): Client {
    return this.furiko.admin;
  }

  stop(): Promise<void> {
    return this.furiko.stop();
  }

  async stepTo(hhmmss: string): Promise<void> {
    await this.env.stepTo(at(hhmmss));
  }

  /**
   * Creates a Job in `default` with what the Job mutating webhook adds spelled out (finalizer, type, TTL),
   * so the scenario holds with or without the webhook.
   */
  async createJob(name: string, spec: Partial<JobSpec>, metadata: Partial<NonNullable<Job['metadata']>> = {}): Promise<Job> {
    const created = await this.api.create<Job>({
      apiVersion: 'execution.furiko.io/v1alpha1',
      kind: 'Job',
      metadata: { name, namespace: 'default', finalizers: [FINALIZER_DELETE_DEPENDENTS], ...metadata },
      spec: { type: 'Adhoc', ttlSecondsAfterFinished: 3600, template: sampleTemplate(), ...spec },
    });
    await this.env.settle();
    return created;
  }

  async createJobConfig(name: string, spec: Partial<JobConfigSpec>): Promise<JobConfig> {
    const created = await this.api.create<JobConfig>({
      apiVersion: 'execution.furiko.io/v1alpha1',
      kind: 'JobConfig',
      metadata: { name, namespace: 'default' },
      spec: { template: { spec: sampleTemplate() }, concurrency: { policy: 'Enqueue' }, ...spec },
    });
    await this.env.settle();
    return created;
  }

  /** A Job of `jobConfig` as the CronController makes it (owner, uid label, schedule-time, start policy). */
  async createScheduledJob(jobConfig: JobConfig, scheduleUnix: number, spec: Partial<JobSpec> = {}): Promise<Job> {
    const uid = jobConfig.metadata!.uid!;
    return this.createJob(
      `${jobConfig.metadata!.name}-${scheduleUnix}`,
      {
        type: 'Scheduled',
        startPolicy: { concurrencyPolicy: jobConfig.spec.concurrency.policy },
        template: structuredClone(jobConfig.spec.template.spec),
        substitutions: { 'jobconfig.name': jobConfig.metadata!.name!, 'jobconfig.namespace': 'default', 'jobconfig.uid': uid },
        ...spec,
      },
      {
        labels: { [LABEL_JOB_CONFIG_UID]: uid },
        annotations: { 'execution.furiko.io/schedule-time': String(scheduleUnix) },
        ownerReferences: [{ apiVersion: 'execution.furiko.io/v1alpha1', kind: 'JobConfig', name: jobConfig.metadata!.name!, uid, controller: true, blockOwnerDeletion: true }],
      },
    );
  }

  async job(name: string): Promise<Job> {
    return this.api.get(JobKind, { namespace: 'default', name });
  }

  async jobExists(name: string): Promise<boolean> {
    return (await this.api.list(JobKind, { namespace: 'default' })).some((j) => j.metadata?.name === name);
  }

  async jobConfig(name: string): Promise<JobConfig> {
    return this.api.get(JobConfigKind, { namespace: 'default', name });
  }

  async updateJobSpec(name: string, change: Partial<JobSpec>): Promise<void> {
    const job = await this.job(name);
    await this.api.update({ ...job, spec: { ...job.spec, ...change } });
    await this.env.settle();
  }

  async podNames(): Promise<string[]> {
    return (await this.api.list(BuiltinKinds.Pod, { namespace: 'default' })).map((p) => p.metadata!.name!).sort();
  }

  async pod(name: string): Promise<Pod> {
    return this.api.get(BuiltinKinds.Pod, { namespace: 'default', name });
  }

  /** `env` of the Pod's first container as a plain map. */
  async podEnv(name: string): Promise<Record<string, string>> {
    const container = (await this.pod(name)).spec!.containers[0]!;
    return Object.fromEntries((container.env ?? []).map((e) => [e.name, e.value ?? '']));
  }

  /** The harness's "runs at T": phase Running, container running since T (the clock must read T). */
  async podRuns(name: string, hhmmss: string): Promise<void> {
    await this.setPodStatus(name, 'Running', { running: { startedAt: iso(hhmmss) } }, hhmmss);
  }

  /** "succeeds/fails at T": terminal phase, container terminated with exit code 0/1 at T. */
  async podEnds(name: string, outcome: 'Succeeded' | 'Failed', hhmmss: string): Promise<void> {
    await this.setPodStatus(name, outcome, { terminated: { exitCode: outcome === 'Succeeded' ? 0 : 1, reason: outcome === 'Succeeded' ? 'Completed' : 'Error', finishedAt: iso(hhmmss) } }, hhmmss);
  }

  /** Writes the Pod's whole status at T (for statuses the other steps do not make). */
  async podStatusIs(name: string, status: NonNullable<Pod['status']>, hhmmss: string): Promise<void> {
    await this.stepTo(hhmmss);
    const pod = await this.pod(name);
    await this.api.updateStatus<Pod>({ ...pod, status: { ...pod.status, ...status } });
    await this.env.settle();
  }

  private async setPodStatus(name: string, phase: string, state: NonNullable<NonNullable<Pod['status']>['containerStatuses']>[number]['state'], hhmmss: string): Promise<void> {
    await this.stepTo(hhmmss);
    const pod = await this.pod(name);
    const container = pod.spec!.containers[0]!;
    await this.api.updateStatus<Pod>({
      ...pod,
      status: { ...pod.status, phase, containerStatuses: [{ name: container.name, image: container.image ?? '', imageID: '', ready: phase === 'Running', restartCount: 0, state }] },
    });
    await this.env.settle();
  }

  /** `[reason, message]` of the Events about `name`, oldest first, with `type` when Warning. */
  async events(name: string): Promise<string[][]> {
    const events = await this.api.list<CoreEvent>(BuiltinKinds.Event, { namespace: 'default' });
    return events
      .filter((e) => e.involvedObject.name === name)
      .sort((a, b) => Date.parse(a.firstTimestamp ?? '') - Date.parse(b.firstTimestamp ?? '') || (a.metadata!.name! < b.metadata!.name! ? -1 : 1))
      .map((e) => (e.type === 'Warning' ? [e.reason ?? '', e.message ?? '', 'Warning'] : [e.reason ?? '', e.message ?? '']));
  }

  /** The component that wrote the Events about `name`. */
  async eventSources(name: string): Promise<string[]> {
    const events = await this.api.list<CoreEvent>(BuiltinKinds.Event, { namespace: 'default' });
    return [...new Set(events.filter((e) => e.involvedObject.name === name).map((e) => e.source?.component ?? ''))];
  }
}
