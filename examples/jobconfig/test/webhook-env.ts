/**
 * Test support for the webhook tests: a local cluster at 2024-01-15T10:00:00Z with the CRDs and this
 * project's webhooks installed (no controllers, so each test writes the JobConfig status it needs),
 * plus builders for JobConfigs and Jobs and a reader of the samples.
 */
import { readFileSync } from 'node:fs';
import YAML from 'yaml';
import type { TestEnv } from 'kubeforge/testing';
import type { JobConfig, JobConfigSpec } from '../api/v1alpha1/jobconfig_types.js';
import type { Job, JobSpec } from '../api/v1alpha1/job_types.js';
import { projectFile, startFurikoEnv } from './furiko-env.js';

/** Starts the cluster with the webhooks served by the env's manager and no controllers. */
export async function startWebhookEnv(start = '2024-01-15T10:00:00Z'): Promise<TestEnv> {
  const furiko = await startFurikoEnv({ now: new Date(start), controllers: 'none', webhooks: true });
  return { ...furiko.env, stop: furiko.stop };
}

/** A sample from config/samples, parsed, in namespace `default`. */
export function sample<T extends { metadata?: object }>(file: 'execution_v1alpha1_jobconfig.yaml' | 'execution_v1alpha1_job.yaml'): T {
  const parsed = YAML.parse(readFileSync(projectFile(`config/samples/${file}`), 'utf8')) as T;
  return { ...parsed, metadata: { ...parsed.metadata, namespace: 'default' } };
}

/** A minimal valid JobConfig spec (Allow, one container, no schedule); `change` is merged over it. */
export function jobConfig(name: string, change: Partial<JobConfigSpec> = {}): JobConfig {
  return {
    apiVersion: 'execution.furiko.io/v1alpha1',
    kind: 'JobConfig',
    metadata: { name, namespace: 'default' },
    spec: {
      concurrency: { policy: 'Allow' },
      template: { spec: { taskTemplate: { pod: { spec: { containers: [{ name: 'c', image: 'alpine' }] } } } } },
      ...change,
    },
  };
}

/** A Job in `default` with the given spec. */
export function job(name: string, spec: JobSpec, generate = false): Job {
  return {
    apiVersion: 'execution.furiko.io/v1alpha1',
    kind: 'Job',
    metadata: generate ? { generateName: name, namespace: 'default' } : { name, namespace: 'default' },
    spec,
  };
}

/** The message of a rejected promise (fails the test when it resolves). */
export async function rejection(promise: Promise<unknown>): Promise<string> {
  try {
    await promise;
  } catch (err) {
    return (err as Error).message;
  }
  throw new Error('expected the request to be rejected');
}
