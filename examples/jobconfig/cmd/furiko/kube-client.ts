/*
Copyright 2026 The jobconfig Authors.

Licensed under the Apache License, Version 2.0 (the "License");
you may not use this file except in compliance with the License.
You may obtain a copy of the License at

    http://www.apache.org/licenses/LICENSE-2.0

Unless required by applicable law or agreed to in writing, software
distributed under the License is distributed on an "AS IS" BASIS,
WITHOUT WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied.
See the License for the specific language governing permissions and
limitations under the License.
*/

/**
 * The cluster as kubectl finds it: the kubeconfig from `--kubeconfig`, else `KUBECONFIG` (a list of files,
 * merged), else `~/.kube/config` (or the in-cluster service account); `--context` picks the context; the
 * namespace is `-n/--namespace`, else the context's, else `default`. Reads and writes Furiko's Jobs and
 * JobConfigs through @kubernetes/client-node (and watches them, and reads task Pods' logs), and turns API
 * errors into one line (the Status message).
 */
import { PassThrough, type Writable } from 'node:stream';
import { ApiException, CoreV1Api, CustomObjectsApi, KubeConfig, Log, Watch } from '@kubernetes/client-node';
import type { Job } from '../../api/v1alpha1/job_types.js';
import type { JobConfig } from '../../api/v1alpha1/jobconfig_types.js';

export const GROUP = 'execution.furiko.io';
export const VERSION = 'v1alpha1';
/** The field manager of the CLI's writes (kubectl's are `kubectl-create`, …; Furiko's CLI writes as `furiko`). */
const FIELD_MANAGER = 'furiko';

/** The global flags every command reads. */
export interface ConnectionFlags {
  kubeconfig?: string;
  context?: string;
  namespace?: string;
}

interface ListOf<T> {
  items: T[];
  metadata?: { resourceVersion?: string };
}

/** The Pod log options `furiko logs` passes on (the API server's PodLogOptions). */
export interface PodLogOptions {
  container?: string;
  follow: boolean;
  previous: boolean;
  limitBytes?: number;
  tailLines?: number;
}

/** One event of a watch: ADDED, MODIFIED or DELETED and the object. */
export type WatchEvent<T> = { type: 'ADDED' | 'MODIFIED' | 'DELETED'; object: T };

export class FurikoClient {
  private readonly api: CustomObjectsApi;
  private readonly core: CoreV1Api;

  constructor(
    private readonly kubeConfig: KubeConfig,
    /** The namespace commands work in. */
    readonly namespace: string,
  ) {
    this.api = kubeConfig.makeApiClient(CustomObjectsApi);
    this.core = kubeConfig.makeApiClient(CoreV1Api);
  }

  /** The list of `plural` (jobs or jobconfigs) with its resourceVersion, to watch from. */
  async listWithVersion<T>(plural: 'jobs' | 'jobconfigs', labelSelector?: string): Promise<{ items: T[]; resourceVersion: string }> {
    const list = await callApi<ListOf<T>>(() => this.api.listNamespacedCustomObject({ ...this.ref(plural), ...(labelSelector ? { labelSelector } : {}) }));
    return { items: list.items, resourceVersion: list.metadata?.resourceVersion ?? '' };
  }

  /**
   * Watches `plural` from `resourceVersion`, calling `onEvent` for each change, until the server ends the
   * watch (resolves) or it fails (rejects). Bookmarks and error events are not passed on.
   */
  async watch<T>(plural: 'jobs' | 'jobconfigs', resourceVersion: string, labelSelector: string | undefined, onEvent: (event: WatchEvent<T>) => void): Promise<void> {
    const path = `/apis/${GROUP}/${VERSION}/namespaces/${this.namespace}/${plural}`;
    await new Promise<void>((resolve, reject) => {
      void new Watch(this.kubeConfig)
        .watch(
          path,
          { resourceVersion, allowWatchBookmarks: false, ...(labelSelector ? { labelSelector } : {}) },
          (type: string, object: T) => {
            if (type === 'ADDED' || type === 'MODIFIED' || type === 'DELETED') onEvent({ type, object });
          },
          (err: unknown) => (err ? reject(err instanceof Error ? err : new Error(String(err))) : resolve()),
        )
        .catch(reject);
    });
  }

  /** Writes the log of Pod `name` (this namespace) to `out`; with `follow`, until the container ends. */
  async podLogs(name: string, out: Writable, options: PodLogOptions): Promise<void> {
    if (!options.follow) {
      const text = await callApi<string>(() =>
        this.core.readNamespacedPodLog({
          name,
          namespace: this.namespace,
          ...(options.container ? { container: options.container } : {}),
          previous: options.previous,
          ...(options.limitBytes !== undefined ? { limitBytes: options.limitBytes } : {}),
          ...(options.tailLines !== undefined ? { tailLines: options.tailLines } : {}),
        }),
      );
      out.write(text);
      return;
    }
    // Following: the API server's stream, copied to `out` without ending it. Without -c, the Pod's only
    // (or first) container, as the API server and kubectl pick it.
    const container = options.container ?? (await callApi<{ spec?: { containers?: Array<{ name: string }> } }>(() => this.core.readNamespacedPod({ name, namespace: this.namespace }))).spec?.containers?.[0]?.name ?? '';
    const stream = new PassThrough();
    stream.pipe(out, { end: false });
    const ended = new Promise<void>((resolve) => stream.on('end', resolve));
    await callApi(() => new Log(this.kubeConfig).log(this.namespace, name, container, stream, { follow: true, previous: options.previous, ...(options.limitBytes !== undefined ? { limitBytes: options.limitBytes } : {}), ...(options.tailLines !== undefined ? { tailLines: options.tailLines } : {}) }));
    await ended;
  }

  private ref(plural: string) {
    return { group: GROUP, version: VERSION, namespace: this.namespace, plural };
  }

  getJobConfig(name: string): Promise<JobConfig> {
    return callApi(() => this.api.getNamespacedCustomObject({ ...this.ref('jobconfigs'), name }));
  }

  async listJobConfigs(): Promise<JobConfig[]> {
    return (await callApi<ListOf<JobConfig>>(() => this.api.listNamespacedCustomObject(this.ref('jobconfigs')))).items;
  }

  updateJobConfig(jobConfig: JobConfig): Promise<JobConfig> {
    return callApi(() =>
      this.api.replaceNamespacedCustomObject({ ...this.ref('jobconfigs'), name: jobConfig.metadata!.name!, body: jobConfig, fieldManager: FIELD_MANAGER }),
    );
  }

  getJob(name: string): Promise<Job> {
    return callApi(() => this.api.getNamespacedCustomObject({ ...this.ref('jobs'), name }));
  }

  async listJobs(labelSelector?: string): Promise<Job[]> {
    return (await callApi<ListOf<Job>>(() => this.api.listNamespacedCustomObject({ ...this.ref('jobs'), ...(labelSelector ? { labelSelector } : {}) }))).items;
  }

  createJob(job: Job): Promise<Job> {
    return callApi(() => this.api.createNamespacedCustomObject({ ...this.ref('jobs'), body: job, fieldManager: FIELD_MANAGER }));
  }

  updateJob(job: Job): Promise<Job> {
    return callApi(() => this.api.replaceNamespacedCustomObject({ ...this.ref('jobs'), name: job.metadata!.name!, body: job, fieldManager: FIELD_MANAGER }));
  }
}

/** Loads the kubeconfig as kubectl does and returns a client for the chosen namespace. */
export function connect(flags: ConnectionFlags, env: NodeJS.ProcessEnv): FurikoClient {
  const kubeConfig = new KubeConfig();
  if (flags.kubeconfig) {
    kubeConfig.loadFromFile(flags.kubeconfig);
  } else {
    // loadFromDefault reads process.env.KUBECONFIG; the caller's environment may be another (tests inject it).
    const saved = process.env.KUBECONFIG;
    if (env.KUBECONFIG === undefined) delete process.env.KUBECONFIG;
    else process.env.KUBECONFIG = env.KUBECONFIG;
    try {
      kubeConfig.loadFromDefault();
    } finally {
      if (saved === undefined) delete process.env.KUBECONFIG;
      else process.env.KUBECONFIG = saved;
    }
  }
  if (flags.context) {
    if (!kubeConfig.getContextObject(flags.context)) throw new Error(`context "${flags.context}" does not exist`);
    kubeConfig.setCurrentContext(flags.context);
  }
  if (!kubeConfig.getCurrentCluster()) throw new Error('invalid configuration: no configuration has been provided, try setting KUBECONFIG or --kubeconfig');
  const namespace = flags.namespace || kubeConfig.getContextObject(kubeConfig.getCurrentContext())?.namespace || 'default';
  return new FurikoClient(kubeConfig, namespace);
}

/** Runs an API call; an API error becomes an Error whose message is the server's Status message. */
async function callApi<T>(call: () => Promise<unknown>): Promise<T> {
  try {
    return (await call()) as T;
  } catch (err) {
    if (err instanceof ApiException) throw new Error(statusMessage(err), { cause: err });
    throw err;
  }
}

function statusMessage(err: ApiException<unknown>): string {
  let body: unknown = err.body;
  if (typeof body === 'string') {
    const text = body;
    try {
      body = JSON.parse(text);
    } catch {
      return text || `the server answered ${err.code}`;
    }
  }
  const message = (body as { message?: unknown } | null)?.message;
  return typeof message === 'string' && message !== '' ? message : `the server answered ${err.code}`;
}
