/**
 * One container instance run as a real process (an image mapped to a local build): spawned with the
 * container's argv, environment and working directory; its stdout and stderr become the instance's
 * log lines (stamped with the cluster clock, as `kubectl logs` reads them); stopped as a container
 * runtime stops one — SIGTERM, then SIGKILL when the grace period (on the cluster clock) runs out —
 * and reporting its exit as the kubelet does (a signal `n` is exit code 128 + n).
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { constants } from 'node:os';
import { basename, isAbsolute, join } from 'node:path';
import type { Clock, Timer } from '../../clock/clock.js';
import type { ContainerLogs } from './container-logs.js';

export interface ProcessSpec {
  argv: string[];
  cwd: string;
  env: Record<string, string>;
}

export interface ContainerExit {
  exitCode: number;
  reason: 'Completed' | 'Error' | 'StartError';
  message?: string;
  /** Cluster time of the exit (ms). */
  at: number;
}

/** Processes still running: killed when this process exits, so none outlives the cluster that started it. */
const live = new Set<ChildProcess>();
let exitHookInstalled = false;
function track(child: ChildProcess): void {
  live.add(child);
  child.once('close', () => live.delete(child));
  if (exitHookInstalled) return;
  exitHookInstalled = true;
  process.once('exit', () => {
    for (const c of live) c.kill('SIGKILL');
  });
}

/** `node` (any path ending in it, e.g. the distroless `/nodejs/bin/node`) is this Node.js; an image path is looked up in the project first. */
export function resolveExecutable(command: string, cwd: string): string {
  if (basename(command) === 'node' || basename(command) === 'nodejs') return process.execPath;
  if (isAbsolute(command) && !existsSync(command) && existsSync(join(cwd, command))) return join(cwd, command);
  return command;
}

export class ContainerProcess {
  private readonly child: ChildProcess;
  private killTimer: Timer | undefined;
  private terminating = false;
  /** Set once the process ended (or could not start). */
  exit: ContainerExit | undefined;
  /** Resolves when the process ended. */
  readonly exited: Promise<void>;

  constructor(
    spec: ProcessSpec,
    readonly podUid: string,
    readonly containerId: string,
    private readonly clock: Clock,
    private readonly logs: ContainerLogs,
    onExit: () => void,
  ) {
    const [command = '', ...args] = spec.argv;
    // fd 3 is the kubelet's link: the pod's network module (pod-network.ts) ends a Node.js process when it
    // closes, so a process never outlives a cluster that died without its exit hook (kill -9, a killed worker).
    this.child = spawn(resolveExecutable(command, spec.cwd), args, { cwd: spec.cwd, env: { ...spec.env, KUBEFORGE_KUBELET_FD: '3' }, stdio: ['ignore', 'pipe', 'pipe', 'pipe'] });
    (this.child.stdio[3] as { unref?: () => void } | null)?.unref?.();
    track(this.child);
    const flushers = [this.lines(this.child.stdout!), this.lines(this.child.stderr!)];
    this.exited = new Promise((done) => {
      const finish = (exit: Omit<ContainerExit, 'at'>): void => {
        if (this.exit) return;
        for (const flush of flushers) flush();
        this.killTimer?.cancel();
        this.exit = { ...exit, at: this.clock.now() };
        this.logs.end(this.podUid, this.containerId);
        done();
        onExit();
      };
      this.child.once('error', (err: NodeJS.ErrnoException) => {
        if (this.child.pid !== undefined) return;
        const why = err.code === 'ENOENT' ? `exec: "${command}": executable file not found in $PATH` : err.message;
        finish({ exitCode: 128, reason: 'StartError', message: `failed to create containerd task: failed to create shim task: OCI runtime create failed: runc create failed: unable to start container process: ${why}: unknown` });
      });
      this.child.once('close', (code, signal) => {
        const exitCode = code ?? 128 + (signal ? constants.signals[signal] ?? 9 : 9);
        finish({ exitCode, reason: exitCode === 0 ? 'Completed' : 'Error' });
      });
    });
  }

  get running(): boolean {
    return this.exit === undefined;
  }

  /** The kubelet's stop: SIGTERM now, SIGKILL after `graceMs` of cluster time if it is still running. */
  terminate(graceMs: number): void {
    if (!this.running || this.terminating) return;
    this.terminating = true;
    if (graceMs <= 0) return this.kill();
    this.child.kill('SIGTERM');
    this.killTimer = this.clock.schedule(this.clock.now() + graceMs, () => this.kill());
  }

  /** SIGKILL at once. */
  kill(): void {
    if (this.running) this.child.kill('SIGKILL');
  }

  /** Each whole line of `stream` becomes a log line; returns a function writing what is left. */
  private lines(stream: NodeJS.ReadableStream): () => void {
    let partial = '';
    stream.setEncoding('utf8');
    stream.on('data', (chunk: string) => {
      const parts = (partial + chunk).split('\n');
      partial = parts.pop() ?? '';
      const complete = parts.map((l) => l.replace(/\r$/, ''));
      if (complete.length) this.logs.write(this.podUid, this.containerId, this.clock.now(), ...complete);
    });
    return () => {
      if (partial) this.logs.write(this.podUid, this.containerId, this.clock.now(), partial);
      partial = '';
    };
  }
}
