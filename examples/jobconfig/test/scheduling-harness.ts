/**
 * Test harness for the scheduling tests (JobConfigController + CronController, §4.4 and the JC scenarios):
 * a local cluster on a virtual clock with the CRDs, either only the scheduling controllers (the test then
 * plays the Job side by writing Job status) or the whole operator with its webhooks, and helpers to read
 * JobConfigs, Jobs and Events.
 */
import { readFileSync } from 'node:fs';
import type { Event as CoreEvent, Pod } from 'kubernetes-types/core/v1.js';
import { parse } from 'yaml';
import { BuiltinKinds, type Client } from 'kubeforge/runtime';
import type { TestEnv } from 'kubeforge/testing';
import { JobConfigKind, type JobConfig, type JobConfigSpec } from '../api/v1alpha1/jobconfig_types.js';
import { isTerminalPhase, JobKind, type Job, type JobStatus } from '../api/v1alpha1/job_types.js';
import { rfc3339 } from '../internal/jobs/go-format.js';
import { projectFile, startFurikoEnv, type FurikoEnv } from './furiko-env.js';

export const jobConfigSampleFile = projectFile('config/samples/execution_v1alpha1_jobconfig.yaml');

/** A scenario time: `at('10:05')` → 2024-01-15T10:05:00Z; a full RFC 3339 time passes through. */
export function at(time: string): string {
  if (time.includes('T')) return time;
  return `2024-01-15T${time.length === 5 ? `${time}:00` : time}Z`;
}

/** Unix seconds of a scenario time, as in scheduled Job names. */
export function unix(time: string): number {
  return Date.parse(at(time)) / 1000;
}

export interface SchedulingHarnessOptions {
  /** Clock start (scenario time). */
  start: string;
  /** 'scheduling': only setupJobConfigController, no webhooks; 'operator': every controller and webhook. */
  mode: 'scheduling' | 'operator';
}

/** The JobConfig sample of §4.9 (`jobconfig-sample`), read from config/samples, in namespace `default`. */
export function sampleJobConfig(): JobConfig {
  const sample = parse(readFileSync(jobConfigSampleFile, 'utf8')) as JobConfig;
  sample.metadata = { ...sample.metadata, namespace: 'default' };
  return sample;
}

/** A one-container task template the webhooks accept. */
export function simpleTemplate(): JobConfigSpec['template'] {
  return { spec: { taskTemplate: { pod: { spec: { restartPolicy: 'Never', containers: [{ name: 'job-container', image: 'alpine', args: ['echo', 'hello'] }] } } } } };
}

export class SchedulingHarness {
  private constructor(private readonly furiko: FurikoEnv) {}

  static async start(options: SchedulingHarnessOptions): Promise<SchedulingHarness> {
    const operator = options.mode === 'operator';
    // the tests drive Pods (§5.4 "the Pod harness")
    const furiko = await startFurikoEnv({ now: at(options.start), controllers: operator ? 'all' : 'scheduling', webhooks: operator });
    return new SchedulingHarness(furiko);
  }

  get env(): TestEnv {
    return this.furiko.env;
  }

  /** The admin's client. */
  get admin(): Client {
    return this.furiko.admin;
  }

  stop(): Promise<void> {
    return this.furiko.stop();
  }

  async stepTo(time: string): Promise<void> {
    await this.env.stepTo(at(time));
  }

  /** Creates a JobConfig in `default` (simple template, policy Allow unless `spec` says otherwise) and settles. */
  async createJobConfig(name: string, spec: Partial<JobConfigSpec>): Promise<JobConfig> {
    const created = await this.admin.create<JobConfig>({
      apiVersion: 'execution.furiko.io/v1alpha1',
      kind: 'JobConfig',
      metadata: { name, namespace: 'default' },
      spec: { template: simpleTemplate(), concurrency: { policy: 'Allow' }, ...spec },
    });
    await this.env.settle();
    return created;
  }

  async updateJobConfigSpec(name: string, change: (spec: JobConfigSpec) => void): Promise<void> {
    const current = await this.jobConfig(name);
    change(current.spec);
    await this.admin.update(current);
    await this.env.settle();
  }

  jobConfig(name: string): Promise<JobConfig> {
    return this.admin.get(JobConfigKind, { namespace: 'default', name });
  }

  async jobs(jobConfigName?: string): Promise<Job[]> {
    const jobs = await this.admin.list(JobKind, { namespace: 'default' });
    return jobs.filter((job) => !jobConfigName || job.metadata?.ownerReferences?.some((o) => o.kind === 'JobConfig' && o.name === jobConfigName));
  }

  async jobNames(jobConfigName?: string): Promise<string[]> {
    return (await this.jobs(jobConfigName)).map((job) => job.metadata!.name!).sort();
  }

  job(name: string): Promise<Job> {
    return this.admin.get(JobKind, { namespace: 'default', name });
  }

  /** Plays the Job side: writes a Job's status (started at `startTime` unless null; `phase` as given). */
  async setJobStatus(name: string, phase: JobStatus['phase'], startTime: string | null): Promise<void> {
    const job = await this.job(name);
    const finished = isTerminalPhase(phase);
    const status: JobStatus = {
      phase,
      state: finished ? 'Finished' : startTime ? 'Waiting' : 'Queued',
      condition: finished ? { finished: { finishTime: rfc3339(this.env.cluster.clock.now()), result: phase === 'Succeeded' ? 'Success' : 'Failed' } } : startTime ? { waiting: {} } : { queueing: {} },
      createdTasks: 0,
      runningTasks: 0,
      ...(startTime ? { startTime: at(startTime) } : {}),
    };
    await this.admin.updateStatus({ ...job, status });
    await this.env.settle();
  }

  async pods(): Promise<Pod[]> {
    return this.admin.list(BuiltinKinds.Pod, { namespace: 'default' });
  }

  pod(name: string): Promise<Pod> {
    return this.admin.get(BuiltinKinds.Pod, { namespace: 'default', name });
  }

  /** The Pod harness: "runs at T" — phase Running, its container running since T. */
  async runPod(name: string, time: string): Promise<void> {
    const pod = await this.pod(name);
    const container = pod.spec!.containers[0]!.name;
    await this.admin.updateStatus<Pod>({
      ...pod,
      status: { ...pod.status, phase: 'Running', startTime: at(time), containerStatuses: [{ name: container, image: pod.spec!.containers[0]!.image ?? '', imageID: '', ready: true, restartCount: 0, started: true, state: { running: { startedAt: at(time) } } }] },
    });
    await this.env.settle();
  }

  /** The Pod harness: "succeeds/fails at T" — phase Succeeded/Failed, its container terminated at T. */
  async finishPod(name: string, time: string, outcome: 'Succeeded' | 'Failed'): Promise<void> {
    const pod = await this.pod(name);
    const container = pod.spec!.containers[0]!.name;
    const startedAt = pod.status?.containerStatuses?.[0]?.state?.running?.startedAt ?? at(time);
    await this.admin.updateStatus<Pod>({
      ...pod,
      status: {
        ...pod.status,
        phase: outcome,
        containerStatuses: [
          {
            name: container,
            image: pod.spec!.containers[0]!.image ?? '',
            imageID: '',
            ready: false,
            restartCount: 0,
            started: false,
            state: { terminated: { exitCode: outcome === 'Succeeded' ? 0 : 1, reason: outcome === 'Succeeded' ? 'Completed' : 'Error', startedAt, finishedAt: at(time) } },
          },
        ],
      },
    });
    await this.env.settle();
  }

  /** Events about an object, oldest first, as `reason: message` (type and component checked by `eventDetails`). */
  async events(involvedName: string): Promise<string[]> {
    return (await this.eventDetails(involvedName)).map((e) => `${e.reason}: ${e.message}`);
  }

  async eventDetails(involvedName: string): Promise<Array<{ reason: string; message: string; type: string; component: string; kind: string; count: number }>> {
    const events = await this.admin.list<CoreEvent>(BuiltinKinds.Event, { namespace: 'default' });
    return events
      .filter((e) => e.involvedObject.name === involvedName)
      .sort((a, b) => (a.firstTimestamp ?? '').localeCompare(b.firstTimestamp ?? '') || Number(a.metadata?.resourceVersion) - Number(b.metadata?.resourceVersion))
      .map((e) => ({ reason: e.reason ?? '', message: e.message ?? '', type: e.type ?? '', component: e.source?.component ?? '', kind: e.involvedObject.kind ?? '', count: e.count ?? 1 }));
  }
}
