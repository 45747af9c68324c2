/**
 * The jest side of kubectl-launcher.mjs: starts the launcher at the first run, sends it runs and hands
 * back their results, and ends it once no Kubectl holds it (each run's process is still real kubectl).
 */
import { spawn, type ChildProcessByStdio } from 'node:child_process';
import type { Socket } from 'node:net';
import { createInterface } from 'node:readline';
import type { Readable, Writable } from 'node:stream';

/** One process run: the executable, its arguments and whole environment, its stdin, and a kill timeout. */
export interface LaunchRequest {
  file: string;
  args: string[];
  env: Record<string, string>;
  input?: string;
  timeout: number;
}

/** Exit status (1 when killed or not started), stdout and stderr of one run. */
export interface LaunchResult {
  code: number;
  stdout: string;
  stderr: string;
}

type LauncherProcess = ChildProcessByStdio<Writable, Readable, null>;

/** A started launcher and the runs it has not answered yet. */
interface Running {
  child: LauncherProcess;
  pending: Map<number, (result: LaunchResult) => void>;
  /** Resolves when the launcher has exited and its output is read. */
  closed: Promise<void>;
}

export class KubectlLauncher {
  private running: Running | undefined;
  private nextId = 0;
  private holders = 0;

  constructor(private readonly script: string) {}

  /** A Kubectl that will run through the launcher. */
  hold(): void {
    this.holders++;
  }

  /**
   * That Kubectl is done: the last release ends the launcher after the runs it is still doing, and
   * resolves once it has exited (so the file's child CPU is all accounted for before it ends).
   */
  release(): Promise<void> {
    this.holders = Math.max(0, this.holders - 1);
    const running = this.running;
    if (this.holders > 0 || !running) return Promise.resolve();
    this.running = undefined;
    running.child.stdin.end();
    return running.closed;
  }

  run(request: LaunchRequest): Promise<LaunchResult> {
    const { child, pending } = (this.running ??= this.start());
    const id = this.nextId++;
    return new Promise((resolve) => {
      pending.set(id, resolve);
      child.stdin.write(`${JSON.stringify({ id, ...request })}\n`);
    });
  }

  private start(): Running {
    const child = spawn(process.execPath, [this.script], { stdio: ['pipe', 'pipe', 'inherit'], env: { PATH: process.env.PATH ?? '' } });
    let closed = (): void => {};
    const running: Running = { child, pending: new Map(), closed: new Promise((resolve) => (closed = resolve)) };
    createInterface({ input: child.stdout }).on('line', (line) => {
      const { id, ...result } = JSON.parse(line) as LaunchResult & { id: number };
      running.pending.get(id)?.(result);
      running.pending.delete(id);
    });
    const ended = (why: string): void => {
      if (this.running === running) this.running = undefined;
      for (const resolve of running.pending.values()) resolve({ code: 1, stdout: '', stderr: `the kubectl launcher ${why} before this run finished` });
      running.pending.clear();
    };
    child.on('error', (err) => {
      ended(`failed (${err.message})`);
      closed();
    });
    child.on('close', (code, signal) => {
      ended(`ended (exit ${code ?? signal})`);
      closed();
    });
    child.stdin.on('error', () => {}); // a launcher gone: 'close' answers its runs
    // the worker never waits for the launcher (a Kubectl never cleaned up leaves it idle): it ends with the
    // worker's end of its stdin
    child.unref();
    for (const pipe of [child.stdin, child.stdout]) (pipe as Partial<Socket>).unref?.();
    return running;
  }
}
