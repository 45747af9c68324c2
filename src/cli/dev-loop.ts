/**
 * What `kubeforge dev` (`make dev`, registered in dev.ts) runs: the inner loop. Starts the local cluster in this process (kept in
 * .kubeforge/cluster, as `make run-local` keeps it), builds the project and runs the manager as a child
 * process against it, then watches the project: a saved change under api/ regenerates manifests and deep
 * copies, re-applies the CRDs server-side and restarts the manager; a change to other code rebuilds
 * incrementally and restarts it. Errors in the user's code are printed once and the loop waits for the
 * next save. Ctrl-C stops the manager, the watcher and the cluster.
 */
import { copyFileSync, existsSync, mkdirSync } from 'node:fs';
import { join, relative, resolve, sep } from 'node:path';
import { classifyChange, combinedChange, MarkerLines, UNWATCHED_FOLDERS, type ChangeKind } from './dev-changes.js';
import { IncrementalCompiler } from './dev-compiler.js';
import { CrdInstaller } from './dev-crds.js';
import { makefileManifestsFlags, runGenerators, type MakefileManifestsFlags } from './dev-generators.js';
import { ManagerProcess } from './dev-manager.js';
import { listTypeScriptSources } from './project-paths.js';

export interface DevFlags {
  root: string;
  fresh?: boolean;
  /** The manager's flags (parsed by kubeforge/runtime's parseManagerFlags), after `--`. */
  managerArgs: string[];
}

/** Changes arriving within this many milliseconds of each other are one save (editors write in steps). */
const SETTLE_MS = 30;

const say = (line: string): void => {
  process.stdout.write(`kubeforge dev: ${line}\n`);
};
const output = { out: (line: string) => process.stdout.write(`${line}\n`), err: (line: string) => process.stderr.write(`${line}\n`) };

/** Why `root` cannot be run by `dev`, or undefined. */
function projectProblem(root: string): string | undefined {
  if (!existsSync(join(root, 'PROJECT'))) return `${root} is not a kubeforge project (no PROJECT file); run it in a folder made by \`kubeforge init\``;
  if (!existsSync(join(root, 'cmd/run-local.ts'))) return `${join(root, 'cmd/run-local.ts')} is missing: dev runs the manager through it`;
  if (!existsSync(join(root, 'node_modules/typescript'))) return `${join(root, 'node_modules/typescript')} is missing: run \`npm install\` first`;
  return undefined;
}

class DevLoop {
  private readonly compiler: IncrementalCompiler;
  private readonly markers: MarkerLines;
  private readonly manifestsFlags: MakefileManifestsFlags;
  private crds: CrdInstaller | undefined;
  private pending = new Map<string, ChangeKind>();
  private firstChangeAt = 0;
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> | undefined;
  private closed = false;

  constructor(
    private readonly root: string,
    private readonly manager: ManagerProcess,
  ) {
    this.compiler = new IncrementalCompiler(root, 'tsconfig.build.json', process.stdout.isTTY === true);
    this.markers = new MarkerLines(root);
    for (const file of listTypeScriptSources(root, ['cmd', 'internal'])) this.markers.remember(file);
    const { flags, ignored } = makefileManifestsFlags(root);
    this.manifestsFlags = flags;
    if (ignored.length > 0) say(`Makefile: the manifests flags ${ignored.join(' ')} are not known to dev and are left out`);
  }

  attach(kubeconfigPath: string): void {
    this.crds = new CrdInstaller(kubeconfigPath);
  }

  /** A file was added, changed or removed (absolute path). */
  changed(absolutePath: string): void {
    if (this.closed) return;
    const path = relative(this.root, absolutePath).split(sep).join('/');
    const kind = classifyChange(path);
    if (kind === 'ignored') return;
    if (this.pending.size === 0) this.firstChangeAt = performance.now();
    this.pending.set(path, kind);
    clearTimeout(this.timer);
    this.timer = setTimeout(() => void this.next(), SETTLE_MS);
  }

  /** The first cycle: everything is generated, applied and built. */
  start(): Promise<void> {
    this.firstChangeAt = performance.now();
    this.running = this.cycle('api', []).finally(() => (this.running = undefined));
    return this.running;
  }

  private async next(): Promise<void> {
    if (this.running !== undefined || this.closed || this.pending.size === 0) {
      // A cycle is under way: the changes wait for it, then run.
      if (this.running !== undefined) void this.running.then(() => this.next());
      return;
    }
    const changes = [...this.pending];
    this.pending = new Map();
    const kind = combinedChange(changes.map(([, k]) => k));
    this.running = this.cycle(kind, changes.map(([path]) => path)).finally(() => (this.running = undefined));
    await this.running;
  }

  private async cycle(kind: ChangeKind, paths: string[]): Promise<void> {
    const startedAt = this.firstChangeAt;
    const what = paths.length === 0 ? 'start' : paths.length === 1 ? `${paths[0]} changed` : `${paths.length} files changed`;
    let mark = performance.now();
    const phases: string[] = [];
    const phase = (name: string): number => {
      const now = performance.now();
      const took = Math.round(now - mark);
      phases.push(`${name} ${took} ms`);
      mark = now;
      return took;
    };
    try {
      if (kind === 'api') {
        if (!(await runGenerators(this.root, this.manifestsFlags, output))) return this.waitAfterErrors();
        phase('generate');
        this.compiler.invalidateFolder('api');
        const names = await this.crds!.apply(this.root);
        if (names.length > 0) say(`applied ${names.length === 1 ? 'CRD' : 'CRDs'} ${names.join(', ')}`);
        phase('apply CRDs');
      } else if (kind === 'code' && paths.filter((p) => classifyChange(p) === 'code').some((p) => this.markers.changed(p))) {
        if (!(await runGenerators(this.root, this.manifestsFlags, output, true))) return this.waitAfterErrors();
        phase('manifests');
      }
      this.compiler.invalidate(paths);
      if (kind !== 'restart') {
        const build = this.compiler.build();
        const buildMs = phase('build');
        if (!build.ok) {
          process.stderr.write(build.errorText.endsWith('\n') ? build.errorText : `${build.errorText}\n`);
          say(`${build.errorCount} error${build.errorCount === 1 ? '' : 's'} (${what}); nothing was built, the manager ${this.manager.isRunning() ? 'keeps running the last good build' : 'is not running'}; waiting for a change`);
          return;
        }
        if (paths.length === 0) say(`built in ${buildMs} ms (${build.emitted.length} file${build.emitted.length === 1 ? '' : 's'} written)`);
      }
      if (this.closed) return;
      const started = await this.manager.restart();
      const restartMs = phase('stop and start');
      phases.splice(-1, 1, `stop ${started.stopMs} ms`, `start ${restartMs - started.stopMs} ms`);
      const ms = Math.round(performance.now() - startedAt);
      if (started.running) say(`manager ${paths.length === 0 ? 'running' : 'restarted'} ${ms} ms after the ${paths.length === 0 ? 'start' : 'change'} (${what}; ${phases.join(', ')})`);
      else say(`the manager exited with code ${String(started.code)} before it ran (${what}); waiting for a change`);
    } catch (err) {
      process.stderr.write(`${err instanceof Error ? err.message : String(err)}\n`);
      this.waitAfterErrors();
    }
  }

  private waitAfterErrors(): void {
    say('waiting for a change');
  }

  async close(): Promise<void> {
    this.closed = true;
    clearTimeout(this.timer);
    await this.running;
  }
}

export async function runDev(flags: DevFlags): Promise<number> {
  const root = resolve(flags.root);
  const problem = projectProblem(root);
  if (problem !== undefined) {
    process.stderr.write(`kubeforge dev: ${problem}\n`);
    return 1;
  }
  const kubeconfigPath = join(root, '.kubeforge/kubeconfig');
  const env = { ...process.env, ...(process.stdout.isTTY ? { FORCE_COLOR: process.env.FORCE_COLOR ?? '1' } : {}) };
  let stopping = false;
  // Ctrl-C in a terminal reaches the manager too (one process group): its exit then is no news. The
  // report waits a moment for dev's own SIGINT to say so.
  const reportExit = (code: number | null): void => {
    setTimeout(() => {
      if (!stopping) say(`the manager exited with code ${String(code)}; waiting for a change`);
    }, 200);
  };
  const manager = new ManagerProcess(root, [`--attach=${kubeconfigPath}`, ...flags.managerArgs], { stdout: (c) => process.stdout.write(c), stderr: (c) => process.stderr.write(c) }, env, reportExit);
  // The host of the first manager loads while the cluster starts and the project builds.
  manager.prepare();
  const loop = new DevLoop(root, manager);

  const { startLocalCluster } = await import('../cluster/index.js');
  const cluster = await startLocalCluster({ clock: 'real', dataDir: join(root, '.kubeforge/cluster'), fresh: flags.fresh ?? false });
  mkdirSync(join(root, '.kubeforge'), { recursive: true });
  copyFileSync(cluster.kubeconfigPath, kubeconfigPath);
  say(`local cluster (Kubernetes v1.32) at ${cluster.url}`);
  process.stdout.write(`export KUBECONFIG=${kubeconfigPath}\n`);
  loop.attach(kubeconfigPath);

  const { watch } = await import('chokidar');
  const watcher = watch(root, {
    ignoreInitial: true,
    ignored: (path: string) => {
      const top = relative(root, path).split(sep)[0]!;
      return UNWATCHED_FOLDERS.includes(top);
    },
  });
  watcher.on('all', (_event, path) => loop.changed(path));
  await new Promise<void>((ready) => watcher.once('ready', () => ready()));

  const stopped = new Promise<void>((done) => {
    const stop = (): void => {
      stopping = true;
      process.off('SIGINT', stop);
      process.off('SIGTERM', stop);
      done();
    };
    process.on('SIGINT', stop);
    process.on('SIGTERM', stop);
  });
  await Promise.race([loop.start(), stopped]);
  say('watching api/, cmd/, internal/ and config/manager/ (Ctrl-C stops)');
  await stopped;
  say('stopping');
  await loop.close();
  await watcher.close();
  await manager.close();
  await cluster.stop();
  say('stopped');
  return 0;
}
