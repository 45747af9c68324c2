/*
Copyright 2026 The storagebucket Authors.

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
 * The StorageBucket controller: reconciles on events from outside the cluster. A StorageBucket stands for a
 * bucket of an S3-compatible object store; nothing in the cluster changes when that bucket is deleted, so a
 * ticker runnable (internal/probe/probe_ticker.ts, leader only) sends a generic event into a channel every
 * --probe-interval, the handler turns each into one request per StorageBucket, and the reconciler probes the
 * real bucket (HeadBucket) and writes status.lastProbeTime, status.available and the Available condition with
 * a merge patch. A StorageBucket created or changed (its generation) is probed at once.
 */
import {
  channelSource,
  enqueueRequestsFromMapFunc,
  generationChanged,
  isNotFound,
  requestOf,
  rfc3339Seconds,
  setStatusCondition,
  type Manager,
  type ReconcileContext,
  type Request,
  type Result,
} from 'kubeforge/runtime';
import type { Condition } from 'kubeforge/api';
import { StorageBucketKind, type StorageBucket } from '../../api/v1alpha1/storagebucket_types.js';
import { S3BucketProber, type BucketProber } from '../probe/bucket_prober.js';
import { storageSettings, type StorageSettings } from '../probe/flags.js';
import { LocalS3Server } from '../probe/local_s3.js';
import { ProbeTicker } from '../probe/probe_ticker.js';

// Least privilege: it reads StorageBuckets and patches their status; it creates, changes and deletes nothing else.
// +kubebuilder:rbac:groups=storage.example.com,resources=storagebuckets,verbs=get;list;watch
// +kubebuilder:rbac:groups=storage.example.com,resources=storagebuckets/status,verbs=patch

/** StorageBucketReconciler reconciles a StorageBucket object: one probe of its bucket, one status patch. */
export class StorageBucketReconciler {
  constructor(
    private readonly mgr: Manager,
    private readonly prober: BucketProber,
  ) {}

  /**
   * Probes the bucket a StorageBucket names and records what it found. The time is the manager's clock's
   * (`context.clock`), so a test on the virtual clock sees the tick's time.
   */
  async reconcile(request: Request, context: ReconcileContext): Promise<Result> {
    let bucket: StorageBucket;
    try {
      bucket = await this.mgr.client.get(StorageBucketKind, request);
    } catch (err) {
      // Deleted after the request was queued: nothing to do.
      if (isNotFound(err)) return {};
      throw err;
    }
    const probedAt = context.clock.now();
    const found = await this.prober.probe(bucket.spec.bucketName);
    // Info when what it found changed (or at the first probe), debug on every other tick.
    const changed = bucket.status?.available !== found.available;
    context.log[changed ? 'info' : 'debug']({ bucket: bucket.spec.bucketName, available: found.available, reason: found.reason }, changed ? `bucket ${found.available ? 'available' : 'unavailable'}: ${found.message}` : 'probed bucket');

    const conditions: Condition[] = structuredClone(bucket.status?.conditions ?? []);
    setStatusCondition(
      conditions,
      {
        type: 'Available',
        status: found.reason === 'ProbeFailed' ? 'Unknown' : found.available ? 'True' : 'False',
        reason: found.reason,
        message: found.message,
        observedGeneration: bucket.metadata?.generation,
      },
      probedAt,
    );
    // A merge patch of the status alone: no resourceVersion, so a spec change in between is no conflict.
    await this.mgr.client.patchStatus(bucket, { status: { lastProbeTime: rfc3339Seconds(probedAt), available: found.available, conditions } });
    return {};
  }
}

/** How the controller probes: the ticker's interval and the object store. */
export interface StorageBucketControllerOptions {
  /** --probe-interval in milliseconds. */
  probeIntervalMs: number;
  /** HeadBucket at --s3-endpoint. */
  prober: BucketProber;
}

/**
 * The options the command line asks for (--probe-interval, --s3-endpoint as cmd/main.ts's parseManagerFlags
 * read them, see internal/probe/flags.ts): without --s3-endpoint a local s3rver starts with the manager and the prober asks it.
 */
export function optionsFromCommandLine(mgr: Manager, settings: StorageSettings = storageSettings()): StorageBucketControllerOptions {
  if (settings.s3Endpoint !== undefined) return { probeIntervalMs: settings.probeIntervalMs, prober: new S3BucketProber(settings.s3Endpoint) };
  const local = new LocalS3Server();
  mgr.add(local);
  return { probeIntervalMs: settings.probeIntervalMs, prober: new S3BucketProber(() => local.endpoint()) };
}

/**
 * Registers the StorageBucket controller and its ticker with the manager (called from
 * internal/controller/index.ts, with the command line's options). Returns the ticker.
 */
export function setupStorageBucketController(mgr: Manager, options: StorageBucketControllerOptions = optionsFromCommandLine(mgr)): ProbeTicker {
  const ticker = new ProbeTicker(options.probeIntervalMs);
  mgr.add(ticker);
  mgr
    .controllerFor(StorageBucketKind)
    // Its own status patches change no generation: they do not make it probe again.
    .withPredicates(generationChanged())
    // Every tick: one request per StorageBucket, listed through the context's client (the manager's cache).
    .watches(
      channelSource(ticker.channel),
      enqueueRequestsFromMapFunc(async (_tick, { client }) => (await client.list(StorageBucketKind, {})).map(requestOf)),
    )
    .named('storagebucket')
    .complete(new StorageBucketReconciler(mgr, options.prober));
  return ticker;
}
