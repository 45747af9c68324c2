/**
 * The inner loop's two figures (issue 14), each side by side with the naive way, medians of N runs in a
 * made project (init + one API with its controller; dependencies linked from this checkout):
 *
 * 1. save → restarted manager, for a one-file change to the controller:
 *    - `kubeforge dev`: from the write to dev's "manager restarted" line (in-memory incremental build,
 *      warm manager host, the cluster kept in the dev process);
 *    - naive: a full `tsc -p tsconfig.build.json` and a new manager process (run-local --attach, against
 *      the same kind of running cluster) until it prints "manager running".
 * 2. `make run-local` with nothing changed, until it prints the `export KUBECONFIG=` line:
 *    - now: the Makefile's stamp (manifests and generate skipped) and `tsc -b` (up to date);
 *    - naive: what the Makefile did before: manifests, generate and `tsc -p` every time, then run-local.
 *
 * Wall-clock figures; the load average is printed with them (the machine may be shared). Between two
 * saves the bench waits DEV_BENCH_PAUSE_MS (default 3000), a developer's pause, in which dev's next
 * manager host loads.
 * Usage: npm run bench:dev  (DEV_BENCH_RUNS=N, default 5)
 */
import { execFileSync, spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const CHECKOUT = fileURLToPath(new URL('..', import.meta.url)).replace(/\/$/, '');
const RUNS = Number(process.env.DEV_BENCH_RUNS ?? 5);
const CLI = join(CHECKOUT, 'bin/kubeforge.js');
const CONTROLLER = 'internal/controller/widget_controller.ts';
const MANAGER_FLAGS = ['--health-probe-bind-address=:0'];
const PAUSE_MS = Number(process.env.DEV_BENCH_PAUSE_MS ?? 3000);

const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
};
const ms = (value) => `${Math.round(value)} ms`;

/** A made project with its dependencies linked from this checkout (as e2e/scaffold/scaffold-harness.ts does). */
function makeProject() {
  const parent = mkdtempSync(join(tmpdir(), 'kubeforge-dev-bench-'));
  const root = join(parent, 'widgets');
  mkdirSync(root);
  execFileSync(process.execPath, [CLI, 'init', '--domain', 'example.com', '--repo', 'widgets'], { cwd: root, stdio: 'ignore' });
  execFileSync(process.execPath, [CLI, 'create', 'api', '--group', 'batch', '--version', 'v1', '--kind', 'Widget', '--resource', '--controller'], { cwd: root, stdio: 'ignore' });
  const modules = join(root, 'node_modules');
  mkdirSync(join(modules, '.bin'), { recursive: true });
  for (const entry of readdirSync(join(CHECKOUT, 'node_modules'))) if (entry !== 'kubeforge' && entry !== '.bin') symlinkSync(join(CHECKOUT, 'node_modules', entry), join(modules, entry));
  symlinkSync(CHECKOUT, join(modules, 'kubeforge'));
  for (const entry of readdirSync(join(CHECKOUT, 'node_modules/.bin'))) symlinkSync(join(CHECKOUT, 'node_modules/.bin', entry), join(modules, '.bin', entry));
  symlinkSync(CLI, join(modules, '.bin/kubeforge'));
  return { parent, root };
}

/** A process in its own group, its output kept, with a wait on a line of it. */
function start(command, args, cwd) {
  const child = spawn(command, args, { cwd, stdio: ['ignore', 'pipe', 'pipe'], detached: true, env: { ...process.env, NODE_OPTIONS: '' } });
  let text = '';
  const waiters = new Set();
  const feed = (chunk) => {
    text += chunk.toString();
    for (const w of [...waiters]) w();
  };
  child.stdout.on('data', feed);
  child.stderr.on('data', feed);
  let exited = false;
  child.on('exit', () => {
    exited = true;
    for (const w of [...waiters]) w();
  });
  return {
    child,
    mark: () => text.length,
    waitFor(pattern, from = 0, limitMs = 120_000) {
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => done(() => reject(new Error(`${command} ${args.join(' ')}: no ${pattern} within ${limitMs} ms:\n${text.slice(from)}`))), limitMs);
        const check = () => {
          const match = pattern.exec(text.slice(from));
          if (match) done(() => resolve(match));
          else if (exited) done(() => reject(new Error(`${command} ${args.join(' ')} exited before ${pattern}:\n${text.slice(from)}`)));
        };
        const done = (then) => {
          clearTimeout(timer);
          waiters.delete(check);
          then();
        };
        waiters.add(check);
        check();
      });
    },
    async stop(signal = 'SIGINT') {
      if (exited) return;
      const ended = new Promise((r) => child.once('exit', r));
      process.kill(-child.pid, signal);
      const timer = setTimeout(() => process.kill(-child.pid, 'SIGKILL'), 20_000);
      await ended;
      clearTimeout(timer);
    },
  };
}

/** One edit of the controller's code as a user makes it: a new log message in reconcile each time. */
let editCount = 0;
function editController(root) {
  editCount++;
  const file = join(root, CONTROLLER);
  const text = readFileSync(file, 'utf8');
  const edited = text.replace(/reconciling Widget( \(edit \d+\))? \$\{/, `reconciling Widget (edit ${editCount}) \${`);
  if (edited === text) throw new Error(`${CONTROLLER}: the log message to edit was not found`);
  writeFileSync(file, edited);
}

async function devRestarts(root) {
  const dev = start(process.execPath, [CLI, 'dev', '--', ...MANAGER_FLAGS], root);
  await dev.waitFor(/manager running \d+ ms after the start/, 0, 300_000);
  const figures = [];
  try {
    for (let i = 0; i < RUNS + 1; i++) {
      // A developer's pause between saves: the next manager host loads while the current manager runs.
      await new Promise((r) => setTimeout(r, PAUSE_MS));
      const from = dev.mark();
      const t0 = performance.now();
      editController(root);
      const line = await dev.waitFor(/manager restarted \d+ ms after the change \(([^)]*)\)/, from);
      process.stdout.write(`  dev: ${line[1]}\n`);
      // The first edit after the start also computes the signatures the builder keeps: reported apart.
      figures.push(performance.now() - t0);
    }
  } finally {
    await dev.stop();
  }
  return figures;
}

async function naiveRestarts(root) {
  const { startLocalCluster } = await import(join(CHECKOUT, 'dist/cluster/index.js'));
  const cluster = await startLocalCluster({ clock: 'real' });
  const kubeconfig = join(root, '.kubeforge/bench-kubeconfig');
  writeFileSync(kubeconfig, readFileSync(cluster.kubeconfigPath));
  const { CrdInstaller } = await import(join(CHECKOUT, 'dist/cli/dev-crds.js'));
  await new CrdInstaller(kubeconfig).apply(root);
  const tsc = join(root, 'node_modules/typescript/bin/tsc');
  const figures = [];
  let manager;
  try {
    for (let i = 0; i < RUNS; i++) {
      const t0 = performance.now();
      editController(root);
      execFileSync(process.execPath, [tsc, '-p', 'tsconfig.build.json'], { cwd: root, stdio: 'ignore' });
      await manager?.stop('SIGTERM');
      manager = start(process.execPath, ['--enable-source-maps', 'dist/cmd/run-local.js', `--attach=${kubeconfig}`, ...MANAGER_FLAGS], root);
      await manager.waitFor(/manager running/);
      figures.push(performance.now() - t0);
    }
  } finally {
    await manager?.stop('SIGTERM');
    await cluster.stop();
  }
  return figures;
}

async function runLocalStarts(root, command, args) {
  const figures = [];
  for (let i = 0; i < RUNS; i++) {
    const t0 = performance.now();
    const run = start(command, args, root);
    await run.waitFor(/export KUBECONFIG=/);
    figures.push(performance.now() - t0);
    await run.stop();
  }
  return figures;
}

const naiveRunLocal = [
  'npx --no-install kubeforge manifests',
  'npx --no-install kubeforge generate',
  'npx --no-install tsc -p tsconfig.build.json',
  `node dist/cmd/run-local.js ${MANAGER_FLAGS.join(' ')}`,
].join(' && ');

const { parent, root } = makeProject();
try {
  process.stdout.write(`dev-loop bench: ${RUNS} runs each in ${root}; load average ${loadavg().map((l) => l.toFixed(1)).join(' ')}\n`);
  execFileSync('make', ['build'], { cwd: root, stdio: 'ignore' });

  const [firstDev, ...dev] = await devRestarts(root);
  process.stdout.write(`kubeforge dev restarts (ms): first ${Math.round(firstDev)}, then ${dev.map(Math.round).join(' ')}\n`);
  const naive = await naiveRestarts(root);
  // Both start from a built project whose generators have run (make run-local once).
  const now = await runLocalStarts(root, 'make', ['run-local', `MANAGER_FLAGS=${MANAGER_FLAGS.join(' ')}`]);
  const before = await runLocalStarts(root, 'bash', ['-c', naiveRunLocal]);

  const rows = [
    ['save → restarted manager (one-file change)', `kubeforge dev: ${ms(median(dev))} (first edit after start ${ms(firstDev)})`, `tsc -p + new manager: ${ms(median(naive))}`],
    ['make run-local, nothing changed → KUBECONFIG line', `now: ${ms(median(now))}`, `before (manifests, generate, tsc -p): ${ms(median(before))}`],
  ];
  for (const [what, ours, theirs] of rows) process.stdout.write(`${what}\n  ${ours}\n  ${theirs}\n`);
  process.stdout.write(`all runs (ms): dev ${dev.map(Math.round).join(' ')} | naive ${naive.map(Math.round).join(' ')} | run-local now ${now.map(Math.round).join(' ')} | before ${before.map(Math.round).join(' ')}\n`);
  process.stdout.write(`load average after: ${loadavg().map((l) => l.toFixed(1)).join(' ')}\n`);
} finally {
  rmSync(parent, { recursive: true, force: true });
}
