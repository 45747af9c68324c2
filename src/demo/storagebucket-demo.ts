/**
 * The StorageBucket part of the demo (examples/storagebucket, reconciling on events from outside the cluster):
 * a real s3rver holds the sample's bucket; the operator's ticker probes it every 30 s of the virtual clock;
 * after minute 1 the demo deletes the bucket in the object store — nothing in the cluster changes — and at the
 * next tick the StorageBucket turns `available: false`. The check: it was available, and is not any more.
 */
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { defineKind, type KubeObject, type Manager } from '../runtime/index.js';
import type { TestEnv } from '../testing/index.js';

/** After which virtual minute the demo deletes the sample's bucket. */
export const BUCKET_DELETE_MINUTE = 1;
/** The ticker's interval in the demo (the example's default --probe-interval). */
const PROBE_INTERVAL_MS = 30_000;

const key = { namespace: 'default', name: 'storagebucket-sample' };
const BUCKET = 'storagebucket-sample';

type StorageBucket = KubeObject & {
  spec?: { bucketName?: string };
  status?: { available?: boolean; lastProbeTime?: string; conditions?: Array<{ type: string; status: string; reason?: string }> };
};
const StorageBucketKind = defineKind<StorageBucket>({ group: 'storage.example.com', version: 'v1alpha1', kind: 'StorageBucket', plural: 'storagebuckets', namespaced: true });

type Kubectl = (env: TestEnv, args: string[]) => Promise<void>;

/** The example's own modules, from the demo's transpiled copy. */
interface ExampleModules {
  LocalS3Server: new () => { start(): Promise<void>; stop(): Promise<void>; endpoint(): string };
  S3BucketProber: new (endpoint: string) => { close(): void };
  setupStorageBucketController(mgr: Manager, options: { probeIntervalMs: number; prober: unknown }): unknown;
}

export class StorageBucketDemo {
  private server: InstanceType<ExampleModules['LocalS3Server']> | undefined;
  private prober: { close(): void } | undefined;
  private s3: { send(command: unknown): Promise<unknown>; destroy(): void } | undefined;
  private commands: { create: (bucket: string) => unknown; remove: (bucket: string) => unknown } | undefined;
  private wasAvailable = false;
  private deletedAt: number | undefined;

  /**
   * Starts the object store with the sample's bucket in it and registers the controller with the demo's
   * probe interval and this store (what `--probe-interval=30s --s3-endpoint=<its URL>` asks for).
   */
  async setup(builtDir: string, mgr: Manager): Promise<string> {
    const load = async (path: string): Promise<Record<string, unknown>> => (await import(pathToFileURL(join(builtDir, path)).href)) as Record<string, unknown>;
    const modules = { ...(await load('internal/probe/local_s3.js')), ...(await load('internal/probe/bucket_prober.js')), ...(await load('internal/controller/storagebucket_controller.js')) } as unknown as ExampleModules;
    this.server = new modules.LocalS3Server();
    await this.server.start();
    const endpoint = this.server.endpoint();
    const sdk = await import('@aws-sdk/client-s3');
    this.s3 = new sdk.S3Client({ endpoint, region: 'us-east-1', forcePathStyle: true, credentials: { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' } });
    this.commands = { create: (Bucket) => new sdk.CreateBucketCommand({ Bucket }), remove: (Bucket) => new sdk.DeleteBucketCommand({ Bucket }) };
    await this.s3.send(this.commands.create(BUCKET));
    const prober = new modules.S3BucketProber(endpoint);
    this.prober = prober;
    modules.setupStorageBucketController(mgr, { probeIntervalMs: PROBE_INTERVAL_MS, prober });
    return endpoint;
  }

  /** Deletes the sample's bucket in the object store, behind the cluster's back. */
  async deleteBucket(env: TestEnv): Promise<void> {
    console.log(`\n── the object store: bucket ${BUCKET} deleted (S3 DeleteBucket at ${this.server!.endpoint()}); nothing in the cluster changes — the next tick finds it gone`);
    await this.s3!.send(this.commands!.remove(BUCKET));
    this.deletedAt = env.cluster.clock.now();
  }

  async show(env: TestEnv, kubectl: Kubectl): Promise<void> {
    await kubectl(env, ['get', 'storagebuckets.storage.example.com']);
  }

  /** `storagebucket-sample: available (probed 10:01:35)`, for the minute lines. */
  async line(env: TestEnv): Promise<string> {
    const bucket = await env.manager.apiReader().get(StorageBucketKind, key);
    const available = bucket.status?.available;
    if (available === true && this.deletedAt === undefined) this.wasAvailable = true;
    const state = available === undefined ? 'not probed yet' : available ? 'available' : 'unavailable';
    return `${key.name}: ${state}${bucket.status?.lastProbeTime ? ` (probed ${bucket.status.lastProbeTime.slice(11, 19)})` : ''}`;
  }

  /** It was available while the bucket existed, and a probe after the deletion found it gone. */
  async check(env: TestEnv): Promise<{ met: boolean; line: string; closing: string }> {
    const bucket = await env.manager.apiReader().get(StorageBucketKind, key);
    const reason = bucket.status?.conditions?.find((c) => c.type === 'Available')?.reason;
    const probed = bucket.status?.lastProbeTime === undefined ? undefined : Date.parse(bucket.status.lastProbeTime);
    const probedAfter = probed !== undefined && this.deletedAt !== undefined && probed >= Math.floor(this.deletedAt / 1000) * 1000;
    const met = this.wasAvailable && bucket.status?.available === false && reason === 'BucketNotFound' && probedAfter;
    return {
      met,
      line: `StorageBucket ${key.name}: available while its bucket existed (${this.wasAvailable}), then available=${String(bucket.status?.available)} (${reason ?? 'no reason'}) at ${bucket.status?.lastProbeTime ?? 'no probe'}, after the bucket was deleted`,
      closing: `${key.name} turned unavailable when its bucket was deleted`,
    };
  }

  async stop(): Promise<void> {
    this.prober?.close();
    this.s3?.destroy();
    await this.server?.stop();
  }
}
