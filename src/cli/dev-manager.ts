/**
 * The manager as `kubeforge dev` runs it: a child process (dist/cmd/run-local.js --attach=<kubeconfig>)
 * restarted on every good build, while the local cluster stays up in the `dev` process. A host process
 * (dev-manager-host.ts) is kept warm for the next start. Readiness is the manager's own "manager running"
 * line on its standard output; its output is passed through as it comes.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { ManagerStart } from './dev-manager-host.js';

/** Modules every made manager imports, loaded by the waiting host before it is needed. */
const PRELOADED = ['kubeforge/runtime', 'kubeforge/testing', 'yaml', 'pino'];
const HOST_SCRIPT = fileURLToPath(new URL('./dev-manager-host.js', import.meta.url));
const READY_LINE = /manager running/;
/** A manager that has not ended this long after SIGTERM is killed. */
const STOP_GRACE_MS = 5_000;

export interface ManagerOutput {
  stdout(chunk: Buffer): void;
  stderr(chunk: Buffer): void;
}

/** How a start ended: the manager said it runs, or its process ended first (with this code); and how long stopping the last one took. */
export type StartResult = ({ running: true } | { running: false; code: number | null }) & { stopMs: number };

interface WaitingHost {
  child: ChildProcess;
  ready: Promise<boolean>;
}

export class ManagerProcess {
  private waiting: WaitingHost | undefined;
  private current: ChildProcess | undefined;
  private stopping = new Set<ChildProcess>();

  constructor(
    private readonly root: string,
    private readonly args: string[],
    private readonly output: ManagerOutput,
    private readonly env: NodeJS.ProcessEnv,
    /** Called when the running manager ends without being asked to. */
    private readonly onUnexpectedExit: (code: number | null) => void,
  ) {}

  /** True while a manager process runs. */
  isRunning(): boolean {
    return this.current !== undefined;
  }

  /** Starts a host in the background for the next start (no-op when one is waiting). */
  prepare(): void {
    if (this.waiting !== undefined) return;
    const child = spawn(process.execPath, ['--enable-source-maps', HOST_SCRIPT, this.root, ...PRELOADED], {
      cwd: this.root,
      env: this.env,
      stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
    });
    child.stdout!.on('data', (c: Buffer) => this.output.stdout(c));
    child.stderr!.on('data', (c: Buffer) => this.output.stderr(c));
    const ready = new Promise<boolean>((resolve) => {
      child.once('message', () => resolve(true));
      child.once('exit', () => resolve(false));
      child.once('error', () => resolve(false));
    });
    this.waiting = { child, ready };
  }

  /** Stops the running manager (if any) and starts the last build; resolves when it runs or has ended. */
  async restart(): Promise<StartResult> {
    const stopStart = performance.now();
    await this.stop();
    const stopMs = Math.round(performance.now() - stopStart);
    const started = await this.startWaiting();
    return { ...started, stopMs };
  }

  private async startWaiting(): Promise<{ running: true } | { running: false; code: number | null }> {
    this.prepare();
    const host = this.waiting!;
    this.waiting = undefined;
    if (!(await host.ready)) {
      // The host could not start (it printed why); start one afresh once, then give up to the caller.
      this.prepare();
      const retry = this.waiting!;
      this.waiting = undefined;
      if (!(await retry.ready)) return { running: false, code: retry.child.exitCode };
      return this.run(retry.child);
    }
    return this.run(host.child);
  }

  private run(child: ChildProcess): Promise<{ running: true } | { running: false; code: number | null }> {
    this.current = child;
    const start: ManagerStart = { entry: join(this.root, 'dist/cmd/run-local.js'), args: this.args };
    let ran = false;
    const result = new Promise<{ running: true } | { running: false; code: number | null }>((resolve) => {
      let seen = '';
      const watchReady = (chunk: Buffer): void => {
        seen = (seen + chunk.toString()).slice(-4096);
        if (READY_LINE.test(seen)) {
          child.stdout!.off('data', watchReady);
          ran = true;
          resolve({ running: true });
        }
      };
      child.stdout!.on('data', watchReady);
      child.once('exit', (code) => resolve({ running: false, code }));
    });
    child.once('exit', (code) => {
      if (this.current === child) this.current = undefined;
      // A manager that ends before it ran is reported by the start; one that ends later, here.
      if (ran && !this.stopping.has(child)) this.onUnexpectedExit(code);
    });
    child.send(start);
    // The next host loads while this manager runs.
    setImmediate(() => this.prepare());
    return result;
  }

  /** Stops the running manager: SIGTERM, then SIGKILL after the grace period. */
  async stop(): Promise<void> {
    const child = this.current;
    this.current = undefined;
    if (child === undefined || child.exitCode !== null || child.signalCode !== null) return;
    this.stopping.add(child);
    const ended = new Promise<void>((resolve) => child.once('exit', () => resolve()));
    child.kill('SIGTERM');
    const timer = setTimeout(() => child.kill('SIGKILL'), STOP_GRACE_MS);
    await ended;
    clearTimeout(timer);
    this.stopping.delete(child);
  }

  /** Stops the manager and the waiting host. */
  async close(): Promise<void> {
    await this.stop();
    const host = this.waiting;
    this.waiting = undefined;
    if (host !== undefined && host.child.exitCode === null && host.child.signalCode === null) {
      const ended = new Promise<void>((resolve) => host.child.once('exit', () => resolve()));
      host.child.kill('SIGTERM');
      await ended;
    }
  }
}
