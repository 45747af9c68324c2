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
 * Two replicas of the operator with leader election, on the local cluster's virtual clock and one real s3rver:
 * only the leader's ticker ticks and only its reconciler calls HeadBucket; the standby does neither. When the
 * leader stops (releasing its Lease), the other takes over and from then on it alone ticks and probes.
 */
import { fileURLToPath } from 'node:url';
import pino from 'pino';
import { FixedDelayRateLimiter, Manager } from 'kubeforge/runtime';
import { settle, startTestEnv, type TestEnv } from 'kubeforge/testing';
import { StorageBucketKind, type StorageBucket } from '../../api/v1alpha1/storagebucket_types.js';
import { setupStorageBucketController } from '../../internal/controller/storagebucket_controller.js';
import type { ProbeTicker } from '../../internal/probe/probe_ticker.js';
import { CountingProber, startObjectStore, type ObjectStore } from '../utils/object-store.js';

const crdFolder = fileURLToPath(new URL('../../config/crd/bases', import.meta.url));
const INTERVAL_MS = 20_000;

interface Replica {
  name: string;
  manager: Manager;
  prober: CountingProber;
  ticker: ProbeTicker;
}

let env: TestEnv;
let store: ObjectStore;
const replicas: Replica[] = [];

function replica(name: string): Replica {
  const manager = new Manager({
    kubeConfig: env.kubeconfigPath,
    clock: env.cluster.clock,
    logger: pino({ level: 'silent' }),
    rateLimiter: () => new FixedDelayRateLimiter(1000),
    leaderElection: { id: 'storagebucket-leader.example.com', namespace: 'default', identity: name },
  });
  const prober = new CountingProber(store.endpoint);
  const ticker = setupStorageBucketController(manager, { probeIntervalMs: INTERVAL_MS, prober });
  const made = { name, manager, prober, ticker };
  replicas.push(made);
  return made;
}

const settleBoth = (): Promise<void> =>
  settle({
    settleCluster: () => env.cluster.settle(),
    managers: () => replicas.map((r) => r.manager),
    hasDueTimers: () => env.cluster.clock.hasDueTimers(),
    recentActivity: () => [],
  });
const stepBy = (ms: number): Promise<void> => env.cluster.clock.stepTo(env.cluster.clock.now() + ms);
const bucket = (name: string): StorageBucket => ({
  apiVersion: 'storage.example.com/v1alpha1',
  kind: 'StorageBucket',
  metadata: { namespace: 'default', name },
  spec: { bucketName: `${name}-bucket` },
});

beforeAll(async () => {
  store = await startObjectStore();
  env = await startTestEnv({ crdPaths: [crdFolder], now: '2026-01-05T10:00:00Z' });
  env.cluster.clock.setSettleHook(settleBoth);
});

afterAll(async () => {
  for (const r of replicas) {
    await r.manager.stop();
    r.manager.close();
    r.prober.close();
  }
  await env?.stop();
  await store?.stop();
});

test('only the leader ticks and calls HeadBucket; after it stops, the other replica takes over', async () => {
  const a = replica('replica-a');
  const b = replica('replica-b');
  await a.manager.start();
  await settleBoth();
  await b.manager.start();
  await settleBoth();
  expect([a.manager.isLeader(), b.manager.isLeader()]).toEqual([true, false]);

  await store.createBucket('logs-bucket');
  await env.client.create(bucket('logs'));
  await env.client.create(bucket('backups'));
  await settleBoth();
  for (let i = 0; i < 3; i++) await stepBy(INTERVAL_MS);

  expect([a.ticker.ticks(), b.ticker.ticks()]).toEqual([3, 0]);
  // Once each when created, then once each per tick: all of it on the leader.
  expect(a.prober.asked.filter((n) => n === 'logs-bucket')).toHaveLength(4);
  expect(a.prober.asked.filter((n) => n === 'backups-bucket')).toHaveLength(4);
  expect(b.prober.asked).toEqual([]);
  const logs = await env.client.get(StorageBucketKind, { namespace: 'default', name: 'logs' });
  const backups = await env.client.get(StorageBucketKind, { namespace: 'default', name: 'backups' });
  expect([logs.status?.available, backups.status?.available]).toEqual([true, false]);

  // The leader goes (graceful stop releases the Lease); the standby takes over within the lease duration.
  await a.manager.stop();
  const aTicks = a.ticker.ticks();
  const aProbes = a.prober.asked.length;
  await stepBy(15_000);
  expect(b.manager.isLeader()).toBe(true);
  const bProbesAtTakeover = b.prober.asked.length;
  // Starting to lead, it lists every StorageBucket (an initial reconcile each), then ticks on its own schedule.
  expect(b.prober.asked.slice().sort()).toEqual(['backups-bucket', 'logs-bucket']);
  await stepBy(INTERVAL_MS);
  expect(b.ticker.ticks()).toBe(1);
  expect(b.prober.asked.slice(bProbesAtTakeover).sort()).toEqual(['backups-bucket', 'logs-bucket']);
  expect([a.ticker.ticks(), a.prober.asked.length]).toEqual([aTicks, aProbes]);
});
