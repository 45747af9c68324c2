/**
 * The local-cluster part of `npm run demo`: starts the local cluster on a virtual clock, installs the
 * reference operators' CRDs, runs their controllers on one manager, applies their samples with real
 * kubectl, moves the clock a minute at a time at a visible pace and shows `kubectl get` tables, then
 * checks that every expected Job appeared, that memcached's Deployment rolled out (memcached-demo.ts),
 * that the CronJob sample reads as v2 through the conversion webhook (cronjob-versions-demo.ts), that the
 * StorageBucket turned unavailable when its bucket was deleted in the object store (storagebucket-demo.ts) and
 * that the ad-hoc Job started with Furiko's CLI as a kubectl plugin succeeded (furiko-cli-demo.ts).
 * Returns true only when they all did.
 */
import { join } from 'node:path';
import { scriptPods } from '../cluster/controllers/install.js';
import { BuiltinKinds, defineKind, type KubeObject } from '../runtime/index.js';
import { startTestEnv, type TestEnv } from '../testing/index.js';
import { buildExample } from './example-build.js';
import { DEMO_OPERATORS, exampleDir, managerEnv, sampleFiles, setupOperator, webhookManifests, type DemoOperator } from './operators.js';
import { expectedJobs, type JobRecord, type JobExpectation } from './expectations.js';
import { cronJobV2Check, showCronJobAsV2 } from './cronjob-versions-demo.js';
import { adhocJobCheck, installFurikoPlugin, runAdhocJob, showAdhocJob } from './furiko-cli-demo.js';
import { MEMCACHED_SCALE_MINUTE, MEMCACHED_SCALED_SIZE, memcachedCheck, memcachedLine, scaleMemcached, showMemcached } from './memcached-demo.js';
import { BUCKET_DELETE_MINUTE, StorageBucketDemo } from './storagebucket-demo.js';

export interface ClusterDemoOptions {
  repoRoot: string;
  /** Where the examples are transpiled to (inside the kubeforge package, so `kubeforge/*` resolves). */
  buildRoot: string;
  /** Wall-clock milliseconds per virtual minute (0: as fast as it goes). */
  paceMs: number;
  /** Virtual minutes to run. */
  minutes: number;
  /** Operators to leave out (by examples/ folder name). */
  skip: string[];
}

const MINUTE = 60_000;
const pause = (ms: number): Promise<void> => (ms > 0 ? new Promise((resolve) => setTimeout(resolve, ms)) : Promise.resolve());
const hhmm = (ms: number): string => new Date(ms).toISOString().slice(11, 19);

async function kubectl(env: TestEnv, args: string[]): Promise<void> {
  console.log(`\n$ kubectl ${args.join(' ')}`);
  const result = await env.kubectl(args);
  const out = (result.stdout + (result.code === 0 ? '' : result.stderr)).trimEnd();
  console.log(out === '' ? 'No resources found.' : out);
  if (result.code !== 0) throw new Error(`kubectl ${args.join(' ')} exited ${result.code}`);
}

function ownerOf(job: KubeObject): string {
  const owner = job.metadata?.ownerReferences?.find((ref) => ref.controller) ?? job.metadata?.ownerReferences?.[0];
  return owner ? `${owner.kind} ${owner.name}` : 'no owner';
}

/** Furiko's Job (examples/jobconfig), which the demo lists beside batch/v1 Jobs. */
const FurikoJobKind = defineKind({ group: 'execution.furiko.io', version: 'v1alpha1', kind: 'Job', plural: 'jobs', namespaced: true });

/** `Complete`/`Failed` for a finished batch/v1 Job; the terminal phase (`Succeeded`, `Failed`, …) for a Furiko Job. */
function isFinished(job: KubeObject): string | undefined {
  const status = (job as { status?: { conditions?: Array<{ type: string; status: string }>; phase?: string; state?: string } }).status;
  if (job.apiVersion?.startsWith('execution.furiko.io/')) return status?.state === 'Finished' ? status.phase : undefined;
  return (status?.conditions ?? []).find((c) => (c.type === 'Complete' || c.type === 'Failed') && c.status === 'True')?.type;
}

/** Folds the current Jobs (batch/v1, and Furiko's when its operator runs) into `seen`; returns a one-line account of what changed. */
async function recordJobs(env: TestEnv, seen: Map<string, JobRecord>, withFuriko: boolean): Promise<string> {
  const jobs: KubeObject[] = [...(await env.client.list(BuiltinKinds.Job, { namespace: 'default' })), ...(withFuriko ? await env.client.list(FurikoJobKind, { namespace: 'default' }) : [])];
  const created: string[] = [];
  const finished: string[] = [];
  for (const job of jobs) {
    const kind = job.apiVersion?.startsWith('execution.furiko.io/') ? 'Furiko Job' : 'Job';
    const name = job.metadata!.name!;
    const key = `${kind} ${name}`;
    const state = isFinished(job);
    const known = seen.get(key);
    const label = kind === 'Job' ? name : `${kind} ${name}`;
    if (!known) created.push(`${label} (by ${ownerOf(job)})`);
    if (state && !known?.finished) finished.push(`${label} ${state === 'Complete' ? 'completed' : state === 'Failed' ? 'failed' : state.toLowerCase()}`);
    seen.set(key, { name, kind, owner: ownerOf(job), finished: state ?? known?.finished });
  }
  const parts = [created.length ? `new Jobs: ${created.join(', ')}` : 'no new Jobs', ...(finished.length ? [`finished: ${finished.join(', ')}`] : [])];
  return parts.join('; ');
}

/** Starts 5 s after a minute boundary, in the past so that no age kubectl computes can come out negative. */
function virtualStart(minutes: number): number {
  return Math.floor(Date.now() / MINUTE) * MINUTE - (minutes + 2) * MINUTE + 5_000;
}

export async function runClusterDemo(options: ClusterDemoOptions): Promise<boolean> {
  const operators = DEMO_OPERATORS.filter((op) => !options.skip.includes(op.name));
  const built = new Map<DemoOperator, string>();
  for (const op of operators) {
    const out = join(options.buildRoot, op.name);
    const count = await buildExample(exampleDir(options.repoRoot, op), out, op.extraFolders);
    built.set(op, out);
    console.log(`examples/${op.name}: ${count} TypeScript files transpiled to ${out.slice(options.repoRoot.length + 1)}`);
  }

  const start = virtualStart(options.minutes);
  const webhookOperators = operators.filter((op) => webhookManifests(options.repoRoot, op));
  const webhooks = webhookOperators.map((op) => webhookManifests(options.repoRoot, op)!);
  const withFuriko = operators.some((op) => op.name === 'jobconfig');
  const jobResources = withFuriko ? 'jobs.batch,jobs.execution.furiko.io' : 'jobs.batch';
  const env = await startTestEnv({
    now: new Date(start),
    crdPaths: operators.map((op) => join(exampleDir(options.repoRoot, op), 'config/crd/bases')),
    ...(webhooks.length ? { webhooks } : {}),
  });
  const storageBucket = operators.some((op) => op.name === 'storagebucket') ? new StorageBucketDemo() : undefined;
  try {
    console.log(`\nThe local cluster (Kubernetes v1.32, in this process) is up with a virtual clock at ${hhmm(start)} UTC; CRDs installed:`);
    for (const op of operators) console.log(`  ${op.resource} — ${op.kind}: ${op.summary}`);
    if (withFuriko) {
      // The kubelet simulator ends only batch/v1 Jobs' pods by default (others run until told otherwise):
      // Furiko's task Pods (first attempts) are told to run 5 s and exit 0, as the sample's `echo` would.
      scriptPods(env.cluster.internals, { labels: { 'execution.furiko.io/task-retry-index': '0' } }, { runDurationMs: 5_000 });
      console.log("  (Furiko's task Pods run 5 s on the cluster's kubelet simulator, then succeed)");
    }
    const withMemcached = operators.some((op) => op.name === 'memcached');
    // Each manager's environment from its config/manager (as in the cluster, and as make run-local does).
    for (const op of operators) for (const [name, value] of Object.entries(managerEnv(options.repoRoot, op))) process.env[name] ??= value;
    if (withMemcached) console.log(`  (the memcached controller deploys MEMCACHED_IMAGE=${process.env.MEMCACHED_IMAGE}, from examples/memcached/config/manager/manager.yaml)`);
    for (const op of operators) {
      if (op.name !== 'storagebucket') await setupOperator(built.get(op)!, op, env.manager, webhookOperators.includes(op));
      else console.log(`  (the StorageBucket controller probes a real s3rver at ${await storageBucket!.setup(built.get(op)!, env.manager)}, which holds the bucket storagebucket-sample)`);
    }
    await env.startManager();
    console.log(`One manager runs the controllers of ${operators.map((op) => `examples/${op.name}`).join(', ')} on the cluster's clock.`);

    const samples = operators.flatMap((op) => sampleFiles(options.repoRoot, op));
    await kubectl(env, ['apply', ...samples.flatMap((file) => ['-f', file.slice(options.repoRoot.length + 1)])]);
    await env.settle();
    const resources = operators.map((op) => op.resource).join(',');
    await kubectl(env, ['get', `${resources},cronjobs.batch`]);

    // Furiko's CLI as a kubectl plugin: one ad-hoc Job from the JobConfig sample.
    const furikoPlugin = withFuriko ? installFurikoPlugin(built.get(operators.find((op) => op.name === 'jobconfig')!)!, join(options.buildRoot, 'furiko-plugin'), env.cluster.kubeconfigPath) : undefined;
    const adhocJob = furikoPlugin ? await runAdhocJob(env, furikoPlugin) : undefined;

    const seen = new Map<string, JobRecord>();
    const memcachedPart = async (): Promise<string> => (withMemcached ? `; ${await memcachedLine(env)}` : '') + (storageBucket ? `; ${await storageBucket.line(env)}` : '');
    console.log(`\nat ${hhmm(env.cluster.clock.now())}: ${await recordJobs(env, seen, withFuriko)}${await memcachedPart()}`);
    await kubectl(env, ['get', jobResources]);
    if (withMemcached) await showMemcached(env, kubectl);

    for (let minute = 1; minute <= options.minutes; minute++) {
      await pause(options.paceMs);
      await env.stepTo(new Date(env.cluster.clock.now() + MINUTE));
      console.log(`\n── minute ${minute}, virtual time ${hhmm(env.cluster.clock.now())}: ${await recordJobs(env, seen, withFuriko)}${await memcachedPart()}`);
      await kubectl(env, ['get', jobResources]);
      // memcached: its rollout (however long the kubelet simulator takes to start the pod), the tutorial's
      // scale from 1 to 3 after minute 1, then the scaled rollout.
      if (withMemcached && minute <= MEMCACHED_SCALE_MINUTE + 1) await showMemcached(env, kubectl);
      if (withMemcached && minute === MEMCACHED_SCALE_MINUTE) await scaleMemcached(env, kubectl);
      // storagebucket: the bucket goes in the object store after minute 1; the next tick turns the StorageBucket unavailable.
      if (storageBucket && minute <= BUCKET_DELETE_MINUTE + 1) await storageBucket.show(env, kubectl);
      if (storageBucket && minute === BUCKET_DELETE_MINUTE) await storageBucket.deleteBucket(env);
    }

    console.log('\n── after the run: the custom resources, the Jobs and the Events');
    await kubectl(env, ['get', resources]);
    await kubectl(env, ['get', 'jobs.batch', '-o', 'wide']);
    await kubectl(env, ['get', 'events', '--field-selector', 'involvedObject.kind!=Pod', '--sort-by', '.lastTimestamp']);
    const withCronJob = operators.some((op) => op.name === 'cronjob');
    if (withCronJob) await showCronJobAsV2(env, kubectl);
    if (furikoPlugin && adhocJob) await showAdhocJob(furikoPlugin, adhocJob);

    const checks = [
      ...(withMemcached ? [await memcachedCheck(env, MEMCACHED_SCALED_SIZE)] : []),
      ...(withCronJob ? [await cronJobV2Check(env)] : []),
      ...(storageBucket ? [await storageBucket.check(env)] : []),
      ...(adhocJob ? [await adhocJobCheck(env, adhocJob)] : []),
    ];
    return summarize(operators, expectedJobs(operators.map((op) => op.name), options.minutes), [...seen.values()], checks);
  } finally {
    await env.stop();
    await storageBucket?.stop();
  }
}

function summarize(operators: DemoOperator[], expectations: JobExpectation[], jobs: JobRecord[], checks: Array<{ met: boolean; line: string; closing?: string }>): boolean {
  console.log('\n── summary');
  let allMet = true;
  for (const expectation of expectations) {
    const made = jobs.filter(expectation.matches);
    const met = made.length >= expectation.atLeast;
    allMet &&= met;
    console.log(`${met ? 'ok  ' : 'MISSING'} ${expectation.label}: ${made.length} ${expectation.counted}, expected at least ${expectation.atLeast} — ${expectation.why}`);
  }
  for (const check of checks) {
    allMet &&= check.met;
    console.log(`${check.met ? 'ok  ' : 'MISSING'} ${check.line}`);
  }
  const kinds = operators.map((op) => op.kind);
  const who = kinds.length > 1 ? `${kinds.slice(0, -1).join(', ')} and ${kinds[kinds.length - 1]}` : kinds.join('');
  const also = checks.flatMap((c) => (c.closing ? [` and ${c.closing}`] : [])).join('');
  console.log(allMet ? `\n${who} did what their samples ask: every expected Job appeared (${jobs.length} Jobs in all)${also}.` : '\nSome expected Jobs or Deployments did not appear.');
  return allMet;
}
