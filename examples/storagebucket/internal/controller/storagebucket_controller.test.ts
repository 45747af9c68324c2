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
 * The StorageBucket controller against kubeforge's local cluster (on a virtual clock) and a real s3rver, with
 * the CRDs that `make manifests` wrote to config/crd/bases: a bucket that exists is available; deleted behind
 * the operator's back, it turns unavailable at the next tick of the manager's clock (not before); made again,
 * available at the tick after. An object store that cannot be reached leaves the Available condition Unknown.
 */
import { fileURLToPath } from 'node:url';
import { startTestEnv, type TestEnv } from 'kubeforge/testing';
import { StorageBucketKind, type StorageBucket } from '../../api/v1alpha1/storagebucket_types.js';
import { CountingProber, startObjectStore, type ObjectStore } from '../../test/utils/object-store.js';
import { StorageBucketReconciler, setupStorageBucketController } from './storagebucket_controller.js';
import { S3BucketProber } from '../probe/bucket_prober.js';
import type { ProbeTicker } from '../probe/probe_ticker.js';

const crdFolder = fileURLToPath(new URL('../../config/crd/bases', import.meta.url));
const INTERVAL_MS = 30_000;
const START = '2026-01-05T10:00:00Z';
const at = (ms: number): string => new Date(ms).toISOString().replace('.000Z', 'Z');

describe('StorageBucket controller', () => {
  let env: TestEnv;
  let store: ObjectStore;
  let prober: CountingProber;
  let ticker: ProbeTicker;
  const key = { namespace: 'default', name: 'photos' };
  const bucket = (): StorageBucket => ({
    apiVersion: 'storage.example.com/v1alpha1',
    kind: 'StorageBucket',
    metadata: { ...key },
    spec: { bucketName: 'photos-bucket' },
  });
  const stored = (): Promise<StorageBucket> => env.client.get(StorageBucketKind, key);

  beforeAll(async () => {
    store = await startObjectStore();
    prober = new CountingProber(store.endpoint);
    env = await startTestEnv({ crdPaths: [crdFolder], now: START });
    ticker = setupStorageBucketController(env.manager, { probeIntervalMs: INTERVAL_MS, prober });
    await env.startManager();
  });

  afterAll(async () => {
    await env?.stop();
    prober?.close();
    await store?.stop();
  });

  it('a bucket that exists is available at once; deleted, it turns unavailable at the next tick, not before', async () => {
    await store.createBucket('photos-bucket');
    await env.client.create(bucket());
    await env.settle();
    const created = env.manager.clock.now();
    let status = (await stored()).status;
    expect(status).toMatchObject({ available: true, lastProbeTime: at(Math.floor(created / 1000) * 1000) });
    expect(status?.conditions?.map((c) => [c.type, c.status, c.reason, c.message])).toEqual([
      ['Available', 'True', 'BucketFound', `bucket photos-bucket exists at ${store.endpoint}`],
    ]);
    const probesAfterCreate = prober.asked.length;
    // Once, for the create: its own status patch changes no generation, so it does not probe again.
    expect(probesAfterCreate).toBe(1);

    // Behind the operator's back: nothing in the cluster changes, so nothing is probed until the ticker fires.
    await store.deleteBucket('photos-bucket');
    const firstTick = Date.parse(START) + INTERVAL_MS;
    await env.stepTo(new Date(firstTick - 1_000));
    expect((await stored()).status?.available).toBe(true);
    expect(prober.asked.length).toBe(probesAfterCreate);
    expect(ticker.ticks()).toBe(0);

    await env.stepTo(new Date(firstTick));
    status = (await stored()).status;
    expect(ticker.ticks()).toBe(1);
    expect(status).toMatchObject({ available: false, lastProbeTime: at(firstTick) });
    expect(status?.conditions?.map((c) => [c.type, c.status, c.reason, c.lastTransitionTime])).toEqual([
      ['Available', 'False', 'BucketNotFound', at(firstTick)],
    ]);
    expect(prober.asked.slice(probesAfterCreate)).toEqual(['photos-bucket']);

    // Made again: available at the following tick.
    await store.createBucket('photos-bucket');
    await env.stepTo(new Date(firstTick + INTERVAL_MS));
    expect((await stored()).status).toMatchObject({ available: true, lastProbeTime: at(firstTick + INTERVAL_MS) });
    expect(ticker.ticks()).toBe(2);
  });

  it('every tick probes every StorageBucket once, in every namespace', async () => {
    await env.client.create({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'media' } });
    await env.client.create<StorageBucket>({
      apiVersion: 'storage.example.com/v1alpha1',
      kind: 'StorageBucket',
      metadata: { namespace: 'media', name: 'videos' },
      spec: { bucketName: 'videos-bucket' },
    });
    await env.settle();
    expect((await env.client.get(StorageBucketKind, { namespace: 'media', name: 'videos' })).status?.available).toBe(false);
    const before = prober.asked.length;
    const ticksBefore = ticker.ticks();
    await env.stepTo(new Date(env.manager.clock.now() + INTERVAL_MS));
    expect(ticker.ticks()).toBe(ticksBefore + 1);
    expect(prober.asked.slice(before).sort()).toEqual(['photos-bucket', 'videos-bucket']);
  });

  it('a changed bucketName (a new generation) is probed at once, without waiting for a tick', async () => {
    await store.createBucket('photos-archive');
    const before = prober.asked.length;
    const ticksBefore = ticker.ticks();
    await env.client.patch(await stored(), { spec: { bucketName: 'photos-archive' } });
    await env.settle();
    expect(ticker.ticks()).toBe(ticksBefore);
    expect(prober.asked.slice(before)).toEqual(['photos-archive']);
    expect((await stored()).status?.conditions?.find((c) => c.type === 'Available')).toMatchObject({
      status: 'True',
      reason: 'BucketFound',
      observedGeneration: 2,
    });
    await env.client.patch(await stored(), { spec: { bucketName: 'photos-bucket' } });
    await env.settle();
  });

  it('an object store that cannot be reached: available false, the Available condition Unknown with the reason', async () => {
    // A port nothing listens on: s3rver's, after it stopped.
    const gone = await startObjectStore();
    const endpoint = gone.endpoint;
    await gone.stop();
    const unreachable = new S3BucketProber(endpoint);
    try {
      const reconciler = new StorageBucketReconciler(env.manager, unreachable);
      const result = await reconciler.reconcile(key, { controller: 'storagebucket', reconcileID: 'test', log: env.manager.logger, clock: env.manager.clock });
      expect(result).toEqual({});
      await env.settle();
      const status = (await stored()).status;
      expect(status?.available).toBe(false);
      const condition = status?.conditions?.find((c) => c.type === 'Available');
      expect([condition?.status, condition?.reason]).toEqual(['Unknown', 'ProbeFailed']);
      expect(condition?.message).toMatch(new RegExp(`^HeadBucket photos-bucket at ${endpoint} failed: .*ECONNREFUSED`));
    } finally {
      unreachable.close();
    }
  });

  it('ignores a StorageBucket that does not exist', async () => {
    const reconciler = new StorageBucketReconciler(env.manager, prober);
    const before = prober.asked.length;
    const context = { controller: 'storagebucket', reconcileID: 'test', log: env.manager.logger, clock: env.manager.clock };
    const result = await reconciler.reconcile({ ...key, name: 'missing' }, context);
    expect(result).toEqual({});
    expect(prober.asked.length).toBe(before);
  });
});
