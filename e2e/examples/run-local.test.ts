/**
 * The reference operators work against `make run-local` (issue 6): each example is copied to a temporary
 * folder, installed for real from this checkout (`kubeforge: file:<checkout>`), built as its Makefile builds
 * (`make manifests generate`, then `tsc -b` — one tsc for the five projects), started with `make run-local`
 * (the build found up to date, local cluster on the real clock, CRDs, manager, the `export KUBECONFIG=` line), and its
 * config/samples applied with the real kubectl; then the Jobs the samples make certain are awaited.
 *
 * - at: the sample's instant is in the past, so its Job appears within seconds.
 * - eventjob: the samples are the EventJob and the built-in CronJob `hello` (every minute on the real
 *   clock); both must be created and served. A Job is checked only if one appears within the short wait.
 * - jobconfig: Furiko's ad-hoc sample Job `job-sample` starts at once, so its task Pod `job-sample-gezdqo-0`
 *   (owned by the Job) appears within seconds; the JobConfig sample must be accepted and served, and its
 *   validating webhook denies a JobConfig whose name is longer than 49 characters. Its `furiko` CLI, built
 *   by the same make, runs as `kubectl furiko` (list jobconfig, get job).
 * - memcached: the kubebuilder book's Memcached sample makes its Deployment (owned by the Memcached) at once,
 *   of the image the manager got from config/manager/manager.yaml, reports Available=True, and the
 *   Deployment rolls out (`kubectl rollout status`). run-local reads its CRD from the cache of parsed
 *   manifests (node_modules/.cache/kubeforge) when the file's text has an entry there, as after an earlier
 *   start, instead of parsing the YAML again: an entry put there before the start, marked with an
 *   annotation, is the CRD the cluster serves.
 * - cronjob: the tutorial CronJob (every minute) must be accepted and served; a Job likewise only if one
 *   appears within the short wait. Its two webhooks are registered with the local cluster by run-local, so
 *   kubectl goes through them as on a cluster: a CronJob with a bad schedule is denied by the validating
 *   webhook (kubectl prints the denial), and one that leaves the history limits and `suspend` unset comes
 *   back from `kubectl get -o yaml` with the defaulting webhook's values (the CRD has no defaults for them).
 *   Once it is stopped, the dist/ its make built with tsc is compared with e2e/deploy/project-emit.ts's
 *   emitProject (the deploy proofs' build): the same .js and .js.map files, byte for byte (the proof
 *   project-emit.test.ts ran with a tsc of its own; it still does when this file is skipped).
 *
 * The samples are applied with `kubectl apply -k config/samples`: config/samples holds a kustomization.yaml,
 * which `kubectl apply -f config/samples` tries to validate as an object (apiVersion/kind not set) and so
 * exits 1 after creating the samples; `-k` is the form kubebuilder documents.
 *
 * Real processes on the real clock (run-local uses it), so polling with a bounded wait is legitimate here.
 * One example installs from scratch (or gets the tree of npm-install.test.ts's made project, the same
 * inputs, when that file installed first in this jest run: e2e/fresh-install.ts), the others get a
 * hard-linked copy of its tree (one dependency set, plus packages of kubeforge's own that an example adds: jobconfig's CLI, whose copy npm install completes);
 * the run-local starts one after another (CPU), each with its probes on a free
 * port (`MANAGER_FLAGS=--health-probe-bind-address=:0`): the default :8081 may be taken on a shared machine.
 * Slow (npm install + build); KUBEFORGE_SKIP_NPM_INSTALL=1 skips it, like npm-install.test.ts.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { createHash } from 'node:crypto';
import { chmodSync, cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseAllDocuments, parseDocument } from 'yaml';
import { Kubectl } from '../cluster/kubectl-runner.js';
import { CHECKOUT } from '../scaffold/scaffold-harness.js';
import { groupAlive, stopGroup } from '../process-group.js';
import { freshInstall } from '../fresh-install.js';
import { expectEmitEqualsTsc } from '../deploy/project-emit.js';
import { installInputs, unshareHiddenLock, writeLockAs } from './installed-tree.js';

const skip = process.env.KUBEFORGE_SKIP_NPM_INSTALL === '1';
if (skip) process.stderr.write('run-local.test.ts: skipped because KUBEFORGE_SKIP_NPM_INSTALL=1 (the examples are not installed nor run)\n');

/** The environment of a plain shell: no npm_* variables of an outer `npm test`, no NODE_OPTIONS, no jest worker id. */
function plainEnv(): NodeJS.ProcessEnv {
  return Object.fromEntries(Object.entries(process.env).filter(([k]) => !/^npm_/i.test(k) && k !== 'NODE_OPTIONS' && k !== 'JEST_WORKER_ID'));
}

/** Runs a command to its end; resolves to its exit status and the last of its output. */
function run(command: string, args: string[], cwd: string): Promise<{ code: number; output: string }> {
  return new Promise((resolve) => {
    const child = spawn(command, args, { cwd, env: plainEnv(), stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    const keep = (chunk: Buffer): void => {
      output = (output + chunk.toString()).slice(-20_000);
    };
    child.stdout.on('data', keep);
    child.stderr.on('data', keep);
    child.on('error', (err) => resolve({ code: -1, output: `${output}\n${err.message}` }));
    child.on('close', (code) => resolve({ code: code ?? -1, output }));
  });
}

/**
 * make's kubeforge command (the Makefile's KUBEFORGE, default `npx --no-install kubeforge`) as the installed
 * bin itself: npx adds 0.35 s of CPU to each of make's two kubeforge runs per example, and the default's own
 * resolution is proven by the made projects' make runs (e2e/scaffold), whose Makefile the examples' equal
 * (drift.test.ts).
 */
const KUBEFORGE_DIRECT = 'KUBEFORGE=node_modules/.bin/kubeforge';

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

/** Polls `check` every `everyMs` (500) until it gives a value or `limitMs` passes; undefined when it never did. */
async function poll<T>(check: () => Promise<T | undefined>, limitMs: number, everyMs = 500): Promise<T | undefined> {
  const end = Date.now() + limitMs;
  for (;;) {
    const value = await check();
    if (value !== undefined) return value;
    if (Date.now() >= end) return undefined;
    await sleep(everyMs);
  }
}

interface Example {
  name: string;
  /** The samples that must be created and served: `kubectl get -f` of these files. */
  samples: string[];
  /** What the samples make, as `kubectl get` names it (default `jobs.batch`). */
  made?: string;
  /** Objects of that resource whose names (`kind.group/name`) match this are the ones the samples make. */
  jobName: RegExp;
  /** The owners (kind/name) a Job of the samples may have: its controller reference. */
  owners: string[];
  /** Whether a Job is certain within the wait (true) or only possible (a once-a-minute schedule). */
  jobCertain: boolean;
  /** More checks against the running example (its webhooks, its CLI), given its folder and kubeconfig. */
  alsoCheck?: (kubectl: Kubectl, project: { root: string; kubeconfig: string }) => Promise<void>;
  /** Prepares the copy before make run-local starts. */
  prepare?: (root: string) => void;
  /** A check of what make run-local built (dist/), once the example has stopped. */
  builtCheck?: (root: string) => void;
}

/** The jobconfig example's validating webhook, called by the local cluster for kubectl's requests. */
async function checkJobConfigWebhooks(kubectl: Kubectl): Promise<void> {
  const name = `a${'b'.repeat(49)}`;
  const denied = await kubectl.run(['apply', '-f', '-'], JSON.stringify({ apiVersion: 'execution.furiko.io/v1alpha1', kind: 'JobConfig', metadata: { name, namespace: 'default' }, spec: { concurrency: { policy: 'Allow' }, template: { spec: { taskTemplate: { pod: { spec: { containers: [{ name: 'c', image: 'busybox' }] } } } } } } }));
  expect(denied.code).not.toBe(0);
  expect(denied.stderr).toContain('denied the request');
  expect(denied.stderr).toContain(`metadata.name: Invalid value: "${name}": cannot be more than 49 characters`);
}

/**
 * The jobconfig example's `furiko` CLI as make run-local built it (dist/cmd/furiko/main.js, package.json's
 * `bin` kubectl-furiko), linked onto a PATH as npm's bin links do, run as `kubectl furiko` with the
 * installed dependencies: it lists the JobConfig sample and describes the ad-hoc Job sample.
 */
async function checkFurikoCli(_kubectl: Kubectl, project: { root: string; kubeconfig: string }): Promise<void> {
  const bin = (JSON.parse(readFileSync(join(project.root, 'package.json'), 'utf8')) as { bin: Record<string, string> }).bin['kubectl-furiko'];
  expect(bin).toBe('dist/cmd/furiko/main.js');
  const binDir = join(project.root, '.kubeforge', 'bin');
  mkdirSync(binDir, { recursive: true });
  chmodSync(join(project.root, bin), 0o755);
  symlinkSync(join(project.root, bin), join(binDir, 'kubectl-furiko'));
  const env = { ...plainEnv(), PATH: `${binDir}:${process.env.PATH ?? ''}`, KUBECONFIG: project.kubeconfig, HOME: join(project.root, '.kubeforge'), KUBECACHEDIR: join(project.root, '.kubeforge', 'kubectl-cache') };
  const furiko = (args: string[]) => new Promise<{ code: number; stdout: string; stderr: string }>((done) => {
    const child = spawn('kubectl', ['furiko', ...args], { env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    child.on('close', (code) => done({ code: code ?? -1, stdout, stderr }));
  });
  const list = await furiko(['list', 'jobconfig']);
  expect({ code: list.code, stderr: list.stderr }).toEqual({ code: 0, stderr: '' });
  expect(list.stdout).toMatch(/^NAME +STATE +ACTIVE +QUEUED +LAST EXECUTED +LAST SCHEDULED +CRON SCHEDULE\njobconfig-sample +\w+ +\d+ +\d+ .*H\/15 \* \* \* \*\n$/);
  const job = await furiko(['get', 'job', 'job-sample']);
  expect({ code: job.code, stderr: job.stderr }).toEqual({ code: 0, stderr: '' });
  expect(job.stdout).toMatch(/^JOB INFO\nName: +job-sample\nNamespace: +default\nType: +Adhoc\n/);
}

/**
 * The memcached example's Deployment runs the image make run-local gave the manager from
 * config/manager/manager.yaml (MEMCACHED_IMAGE), and the Memcached reports it: Available=True.
 */
async function checkMemcachedDeployment(kubectl: Kubectl): Promise<void> {
  const image = await kubectl.ok(['get', 'deployment', 'memcached-sample', '-n', 'default', '-o', 'jsonpath={.spec.template.spec.containers[0].image}']);
  expect(image).toBe('memcached:1.6.26-alpine');
  const available = await poll(async () => {
    const message = await kubectl.ok(['get', 'memcached', 'memcached-sample', '-n', 'default', '-o', 'jsonpath={.status.conditions[?(@.type=="Available")].message}']);
    return message === '' ? undefined : message;
  }, 10_000);
  expect(available).toBe('Deployment for custom resource (memcached-sample) with 1 replicas created successfully');
  // The cluster's Deployment controller, scheduler and kubelet simulator run it (on the real clock here).
  const rollout = await kubectl.run(['rollout', 'status', 'deployment/memcached-sample', '-n', 'default', '--timeout=30s']);
  expect({ code: rollout.code, stdout: rollout.stdout }).toEqual({ code: 0, stdout: 'deployment "memcached-sample" successfully rolled out\n' });
}

const CACHED_CRD_MARK = 'kubeforge.test/parsed-from';

/**
 * Puts the memcached CRD, marked with an annotation, into the cache of parsed manifests under its file's text
 * (src/testing/parsed-manifests.ts: node_modules/.cache/kubeforge/parsed-manifests-v1/<sha256 of the text>.json).
 */
function cacheMarkedMemcachedCrd(root: string): void {
  const text = readFileSync(join(root, 'config/crd/bases/cache.example.com_memcacheds.yaml'), 'utf8');
  const [crd, ...more] = parseAllDocuments(text).map((doc) => doc.toJS() as { kind: string; metadata: { annotations?: Record<string, string> } });
  expect({ kind: crd?.kind, more: more.length }).toEqual({ kind: 'CustomResourceDefinition', more: 0 });
  crd!.metadata.annotations = { ...crd!.metadata.annotations, [CACHED_CRD_MARK]: 'cache' };
  const folder = join(root, 'node_modules/.cache/kubeforge/parsed-manifests-v1');
  mkdirSync(folder, { recursive: true });
  writeFileSync(join(folder, `${createHash('sha256').update(text).digest('hex')}.json`), JSON.stringify([crd]));
}

/** The memcached CRD the cluster serves is the cached one (cacheMarkedMemcachedCrd), then the rest of its checks. */
async function checkMemcached(kubectl: Kubectl): Promise<void> {
  const mark = await kubectl.ok(['get', 'crd', 'memcacheds.cache.example.com', '-o', `jsonpath={.metadata.annotations.${CACHED_CRD_MARK.replace(/\./g, '\\.')}}`]);
  expect(mark).toBe('cache');
  await checkMemcachedDeployment(kubectl);
}

/** A minimal tutorial CronJob in the default namespace: only a name, a schedule and a Job template. */
function cronJobYaml(name: string, schedule: string): string {
  return `apiVersion: batch.tutorial.kubebuilder.io/v1
kind: CronJob
metadata:
  name: ${name}
  namespace: default
spec:
  schedule: "${schedule}"
  jobTemplate:
    spec:
      template:
        spec:
          containers:
          - name: hello
            image: busybox
          restartPolicy: OnFailure
`;
}

/** The cronjob example's webhooks, called by the local cluster for kubectl's requests. */
async function checkCronJobWebhooks(kubectl: Kubectl): Promise<void> {
  const denied = await kubectl.run(['apply', '-f', '-'], cronJobYaml('bad-schedule', 'every minute please'));
  expect(denied.code).not.toBe(0);
  expect(denied.stderr).toContain('admission webhook "vcronjob-v1.kb.io" denied the request');
  expect(denied.stderr).toContain('spec.schedule: Invalid value: "every minute please"');
  const absent = await kubectl.run(['get', 'cronjobs.batch.tutorial.kubebuilder.io', 'bad-schedule', '-n', 'default']);
  expect(absent.stderr).toContain('NotFound');

  await kubectl.ok(['apply', '-f', '-'], cronJobYaml('defaulted', '*/5 * * * *'));
  const served = await kubectl.ok(['get', 'cronjobs.batch.tutorial.kubebuilder.io', 'defaulted', '-n', 'default', '-o', 'yaml']);
  const spec = (parseDocument(served).toJS() as { spec: Record<string, unknown> }).spec;
  expect({ suspend: spec.suspend, successfulJobsHistoryLimit: spec.successfulJobsHistoryLimit, failedJobsHistoryLimit: spec.failedJobsHistoryLimit, concurrencyPolicy: spec.concurrencyPolicy }).toEqual({
    suspend: false,
    successfulJobsHistoryLimit: 3,
    failedJobsHistoryLimit: 1,
    concurrencyPolicy: 'Allow',
  });

  // The multiversion tutorial: run-local points the CRD at the manager's /convert, so the sample reads in v2
  // with v1's schedule string split into cron fields, and a CronJob written in v2 reads in v1.
  const v2 = parseDocument(await kubectl.ok(['get', 'cronjobs.v2.batch.tutorial.kubebuilder.io', 'defaulted', '-n', 'default', '-o', 'yaml'])).toJS() as { apiVersion: string; spec: { schedule: unknown } };
  expect({ apiVersion: v2.apiVersion, schedule: v2.spec.schedule }).toEqual({ apiVersion: 'batch.tutorial.kubebuilder.io/v2', schedule: { minute: '*/5' } });
  await kubectl.ok(['apply', '-f', '-'], cronJobYaml('written-in-v2', '*/5 * * * *').replace('batch.tutorial.kubebuilder.io/v1', 'batch.tutorial.kubebuilder.io/v2').replace(/schedule: .*/, 'schedule: {minute: "0", hour: "9"}'));
  const v1 = parseDocument(await kubectl.ok(['get', 'cronjobs.v1.batch.tutorial.kubebuilder.io', 'written-in-v2', '-n', 'default', '-o', 'yaml'])).toJS() as { spec: { schedule: unknown } };
  expect(v1.spec.schedule).toBe('0 9 * * *');
}

const EXAMPLES: Example[] = [
  { name: 'at', samples: ['batch_v1_at.yaml'], jobName: /^job\.batch\/at-sample-\d+$/, owners: ['AT/at-sample'], jobCertain: true },
  { name: 'eventjob', samples: ['batch_v1_eventjob.yaml', 'cronjob.yaml'], jobName: /^job\.batch\/(hello|eventjob-sample)-\S+$/, owners: ['CronJob/hello', 'EventJob/eventjob-sample'], jobCertain: false },
  { name: 'cronjob', samples: ['batch_v1_cronjob.yaml', 'batch_v2_cronjob.yaml'], jobName: /^job\.batch\/cronjob-sample-\d+$/, owners: ['CronJob/cronjob-sample'], jobCertain: false, alsoCheck: checkCronJobWebhooks, builtCheck: expectEmitEqualsTsc },
  {
    name: 'jobconfig',
    samples: ['execution_v1alpha1_job.yaml', 'execution_v1alpha1_jobconfig.yaml'],
    made: 'pods',
    // the JobConfig's "H/15" schedule may also fire during the run (a Job named after the schedule instant)
    jobName: /^pod\/(job-sample|jobconfig-sample-\d+)-[a-z0-9]{6}-0$/,
    owners: ['Job/job-sample', 'Job/jobconfig-sample-\\d+'],
    jobCertain: true,
    alsoCheck: async (kubectl, project) => {
      await checkJobConfigWebhooks(kubectl);
      await checkFurikoCli(kubectl, project);
    },
  },
  {
    name: 'memcached',
    samples: ['cache_v1alpha1_memcached.yaml'],
    made: 'deployments.apps',
    jobName: /^deployment\.apps\/memcached-sample$/,
    owners: ['Memcached/memcached-sample'],
    jobCertain: true,
    prepare: cacheMarkedMemcachedCrd,
    alsoCheck: checkMemcached,
  },
];

type Dependencies = Record<string, string>;

/**
 * An example's declared dependencies (package.json), as npm resolves them, without those it adds to the
 * examples' common set that kubeforge itself depends on (or develops with) at the same range (jobconfig's
 * `furiko` CLI: commander): kubeforge's own install put them in npm's cache, so
 * npm install on the hard-linked copy adds those from there.
 */
function dependencySet(root: string, common?: { dependencies?: Dependencies }): unknown {
  const manifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { dependencies?: Dependencies; devDependencies?: Dependencies };
  const own = JSON.parse(readFileSync(join(CHECKOUT, 'package.json'), 'utf8')) as { dependencies: Dependencies; devDependencies: Dependencies };
  const kubeforge = { ...own.devDependencies, ...own.dependencies };
  const dependencies = Object.fromEntries(
    Object.entries(manifest.dependencies ?? {}).filter(([name, range]) => !common || common.dependencies?.[name] !== undefined || kubeforge[name] !== range),
  );
  return { dependencies, devDependencies: manifest.devDependencies };
}

/** Copies an example without node_modules/dist/.kubeforge and points its kubeforge dependency at this checkout. */
function copyExample(name: string, into: string): string {
  const from = join(CHECKOUT, 'examples', name);
  const root = join(into, name);
  cpSync(from, root, { recursive: true, filter: (src) => !/\/(node_modules|dist|\.kubeforge)$/.test(src) });
  const packageJson = join(root, 'package.json');
  const text = readFileSync(packageJson, 'utf8');
  const committed = '"kubeforge": "file:../.."';
  if (!text.includes(committed)) throw new Error(`${packageJson}: expected the committed dependency line ${committed}`);
  writeFileSync(packageJson, text.replace(committed, `"kubeforge": "file:${CHECKOUT}"`));
  return root;
}

(skip ? describe.skip : describe)('the reference operators against make run-local', () => {
  let temp = '';
  const installs = new Map<string, Promise<{ root: string; code: number; output: string }>>();
  /** All five examples generated (`make manifests generate`) and compiled by one `tsc -b` (see beforeAll). */
  let built: Promise<{ code: number; output: string }> | undefined;
  const running = new Set<ChildProcess>();

  beforeAll(() => {
    // The examples run kubeforge's compiled output (dist/), which this checkout's `npm test` builds first.
    if (!existsSync(join(CHECKOUT, 'dist/cluster/index.js')) || !existsSync(join(CHECKOUT, 'dist/cli/main.js'))) {
      throw new Error(`${CHECKOUT}/dist is not built: run \`npx tsc -p tsconfig.build.json\` (npm test does) first`);
    }
    temp = mkdtempSync(join(tmpdir(), 'kubeforge-run-local-'));
    // The examples declare one dependency set (checked): the first installs from scratch, and each other one
    // gets a hard-linked copy of that tree instead of extracting 250 packages again (8 s of CPU each on CI's
    // two cores). An example with the very same install inputs (package.json's dependency fields, engines,
    // bin…) gets the lock npm install would write there (installed-tree.ts; 1 s of CPU each saved); one that
    // adds packages (jobconfig) runs its own `npm install` on the copy. Each test awaits its own install.
    const [first, ...others] = EXAMPLES.map((example) => ({ example, root: copyExample(example.name, temp) }));
    const installArgs = ['install', '--no-audit', '--no-fund', '--prefer-offline', '--ignore-scripts'];
    const npmInstall = (root: string) => run('npm', installArgs, root).then((r) => ({ root, ...r }));
    // The first example's install is the jest run's one fresh install of this dependency set (fresh-install.ts):
    // run here for real, or by e2e/scaffold/npm-install.test.ts's made project (same inputs), whose outcome
    // counts as this one's and whose tree this example gets.
    const firstInstall = freshInstall(first!.root, installArgs, run).then(({ code, output }) => ({ root: first!.root, code, output }));
    installs.set(first!.example.name, firstInstall);
    for (const { example, root } of others) {
      const common = JSON.parse(readFileSync(join(first!.root, 'package.json'), 'utf8')) as { dependencies?: Dependencies };
      expect({ example: example.name, dependencies: dependencySet(root, common) }).toEqual({ example: example.name, dependencies: dependencySet(first!.root) });
      installs.set(
        example.name,
        firstInstall.then(async (installed) => {
          if (installed.code !== 0) return { root, code: installed.code, output: `the first example's install failed:\n${installed.output}` };
          const linked = await run('cp', ['-al', join(first!.root, 'node_modules'), join(root, 'node_modules')], temp);
          if (linked.code !== 0) return { root, ...linked };
          if (JSON.stringify(installInputs(root)) === JSON.stringify(installInputs(first!.root))) {
            writeLockAs(first!.root, root);
            return { root, code: 0, output: '' };
          }
          cpSync(join(first!.root, 'package-lock.json'), join(root, 'package-lock.json'));
          unshareHiddenLock(root);
          return npmInstall(root);
        }),
      );
    }
    // The examples' builds, as their Makefile's `build` makes them (manifests and generate, then `tsc -b
    // tsconfig.build.json`), but with the five projects given to one tsc: `tsc -b` builds each project as it
    // would alone, and reads the declarations they share (the TypeScript libs, and @types/node whose path all
    // the copies share) once instead of five times — 2.9 CPU-s a tsc on CI's two cores, 14 of them for five
    // builds, against about 6 for the one. `make run-local` then finds each build up to date, which each test
    // checks (no tsc in its output): that is the Makefile's "starts at once with nothing changed" as a user
    // meets it after `make build`. make's own compile step is e2e/scaffold/make-build.test.ts's subject.
    built = Promise.all(EXAMPLES.map((example) => installs.get(example.name)!)).then(async (installed) => {
      const failed = installed.find((install) => install.code !== 0);
      if (failed) return { code: failed.code, output: `an install failed (${failed.root}):\n${failed.output}` };
      for (const { root } of installed) {
        const generated = await run('make', ['manifests', 'generate', KUBEFORGE_DIRECT], root);
        if (generated.code !== 0) return { code: generated.code, output: `make manifests generate in ${root}:\n${generated.output}` };
      }
      const tsc = join(first!.root, 'node_modules/.bin/tsc');
      const compiled = await run(tsc, ['-b', ...installed.map(({ root }) => join(root, 'tsconfig.build.json'))], temp);
      return compiled.code === 0 ? compiled : { code: compiled.code, output: `tsc -b of the five examples:\n${compiled.output}` };
    });
  });

  afterAll(async () => {
    for (const child of running) await stopGroup(child);
    await Promise.allSettled([...installs.values(), built]);
    if (temp) rmSync(temp, { recursive: true, force: true });
  });

  for (const example of EXAMPLES) {
    it(`${example.name}: kubectl apply -k config/samples against make run-local makes what the samples promise`, async () => {
      const install = await installs.get(example.name)!;
      expect({ install: example.name, code: install.code, output: install.code === 0 ? '' : install.output }).toEqual({ install: example.name, code: 0, output: '' });
      const root = install.root;
      const build = await built!;
      expect({ build: build.code, output: build.code === 0 ? '' : build.output }).toEqual({ build: 0, output: '' });
      example.prepare?.(root);

      // Its own process group, so that SIGTERM/SIGKILL reach make, its shell and the node manager alike.
      const child = spawn('make', ['run-local', 'MANAGER_FLAGS=--health-probe-bind-address=:0', KUBEFORGE_DIRECT], { cwd: root, env: plainEnv(), stdio: ['ignore', 'pipe', 'pipe'], detached: true });
      running.add(child);
      let output = '';
      let exitCode: number | null | undefined;
      // The KUBECONFIG= line, looked for as each chunk of output arrives (null when make exits first, or after 80 s).
      const started = new Promise<RegExpExecArray | null>((resolve) => {
        const timer = setTimeout(() => resolve(null), 80_000);
        const settle = (value: RegExpExecArray | null): void => {
          clearTimeout(timer);
          resolve(value);
        };
        const keep = (chunk: Buffer): void => {
          output = (output + chunk.toString()).slice(-30_000);
          const line = /export KUBECONFIG=(\S+)\n/.exec(output);
          if (line) settle(line);
        };
        child.stdout!.on('data', keep);
        child.stderr!.on('data', keep);
        child.on('exit', (code) => {
          exitCode = code;
          settle(/export KUBECONFIG=(\S+)\n/.exec(output));
        });
      });
      let kubectl: Kubectl | undefined;
      try {
        const line = await started;
        if (!line) throw new Error(`make run-local in ${root} did not print the KUBECONFIG= line (exit ${String(exitCode)}):\n${output}`);
        expect(line[1]).toBe(join(root, '.kubeforge/kubeconfig'));
        // Built before (beforeAll): make neither compiles nor generates again.
        expect(output.split('\n').filter((printed) => /\btsc\b|kubeforge (manifests|generate)/.test(printed))).toEqual([]);
        kubectl = new Kubectl(line[1]!);

        const applied = await kubectl.run(['apply', '-k', join(root, 'config/samples')]);
        expect({ code: applied.code, stderr: applied.stderr }).toEqual({ code: 0, stderr: '' });
        // Created, and served back under the samples' own apiVersion/kind/name: one `kubectl get` of all the
        // sample files, which names one object per file in the order of the files.
        const files = example.samples.map((sample) => join(root, 'config/samples', sample));
        const served = (await kubectl.ok(['get', ...files.flatMap((file) => ['-f', file]), '-o', 'name'])).trim().split('\n');
        expect(served).toHaveLength(files.length);
        files.forEach((file, i) => {
          const kind = /^kind:\s*(\S+)/m.exec(readFileSync(file, 'utf8'))![1]!.toLowerCase();
          const name = /^ {2}name:\s*(\S+)/m.exec(readFileSync(file, 'utf8'))![1]!;
          expect(served[i]).toMatch(new RegExp(`^${kind}\\.\\S+/${name}$`));
          expect(applied.stdout).toContain(`/${name} created`);
        });

        const jobs = async (): Promise<string[] | undefined> => {
          const names = (await kubectl!.ok(['get', example.made ?? 'jobs.batch', '-o', 'name'])).split('\n').filter(Boolean);
          return names.length > 0 ? names : undefined;
        };
        // A Job that is only possible is looked for once a second over the short wait (a kubectl run each).
        const found = await poll(jobs, example.jobCertain ? 30_000 : 3_000, example.jobCertain ? 500 : 1_000);
        if (example.jobCertain) {
          if (!found) throw new Error(`no ${example.made ?? "Job"} appeared within 30 s for ${example.name}; manager output:\n${output}`);
        }
        for (const job of found ?? []) {
          expect(job).toMatch(example.jobName);
          const owner = await kubectl.ok(['get', job, '-o', 'jsonpath={.metadata.ownerReferences[?(@.controller==true)].kind}/{.metadata.ownerReferences[?(@.controller==true)].name}']);
          expect({ job, owner }).toEqual({ job, owner: expect.stringMatching(new RegExp(`^(${example.owners.join('|')})$`)) });
        }
        await example.alsoCheck?.(kubectl, { root, kubeconfig: line[1]! });
        process.stderr.write(`run-local.test.ts: ${example.name}: Jobs seen: ${found?.join(', ') ?? 'none within the wait (once-a-minute schedule)'}\n`);
      } finally {
        kubectl?.cleanup();
        await stopGroup(child);
        running.delete(child);
      }
      expect(groupAlive(child.pid!)).toBe(false);
      example.builtCheck?.(root);
    }, 150_000);
  }
});
