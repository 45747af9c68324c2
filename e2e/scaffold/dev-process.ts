/**
 * `kubeforge dev` as a test runs it: a child process in its own process group in a made project, its
 * output kept, and waits on the lines it prints (its readiness signals), never on the clock alone.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { CHECKOUT } from './scaffold-harness.js';

export class DevProcess {
  readonly child: ChildProcess;
  private text = '';
  private readonly listeners = new Set<() => void>();
  exit: { code: number | null; signal: NodeJS.Signals | null } | undefined;

  constructor(root: string, managerArgs: string[] = ['--health-probe-bind-address=:0']) {
    const env = Object.fromEntries(Object.entries(process.env).filter(([k]) => !/^npm_/i.test(k) && k !== 'NODE_OPTIONS' && k !== 'JEST_WORKER_ID'));
    this.child = spawn(process.execPath, [join(CHECKOUT, 'bin/kubeforge.js'), 'dev', '--', ...managerArgs], { cwd: root, env, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
    const keep = (chunk: Buffer): void => {
      this.text += chunk.toString();
      for (const listener of [...this.listeners]) listener();
    };
    this.child.stdout!.on('data', keep);
    this.child.stderr!.on('data', keep);
    this.child.on('exit', (code, signal) => {
      this.exit = { code, signal };
      for (const listener of [...this.listeners]) listener();
    });
  }

  /** Everything printed so far (stdout and stderr, as they came). */
  get output(): string {
    return this.text;
  }

  /** Where the output ends now: wait for lines printed after this point. */
  mark(): number {
    return this.text.length;
  }

  /** Resolves with the first match of `pattern` in the output after `from`; rejects on exit or after `limitMs`. */
  waitFor(pattern: RegExp, from: number, limitMs = 60_000): Promise<RegExpExecArray> {
    return new Promise((resolve, reject) => {
      const check = (): void => {
        const match = pattern.exec(this.text.slice(from));
        if (match) finish(() => resolve(match));
        else if (this.exit !== undefined) finish(() => reject(new Error(`kubeforge dev exited (${JSON.stringify(this.exit)}) before printing ${pattern}:\n${this.text.slice(from)}`)));
      };
      const timer = setTimeout(() => finish(() => reject(new Error(`kubeforge dev did not print ${pattern} within ${limitMs} ms:\n${this.text.slice(from)}`))), limitMs);
      const finish = (then: () => void): void => {
        clearTimeout(timer);
        this.listeners.delete(check);
        then();
      };
      this.listeners.add(check);
      check();
    });
  }

  /** Ctrl-C as a terminal sends it (SIGINT to the whole process group) and dev's exit; SIGKILL to the group if it outlives `limitMs`. */
  async interrupt(limitMs = 20_000): Promise<{ code: number | null; signal: NodeJS.Signals | null }> {
    if (this.exit === undefined) {
      const exited = new Promise<void>((resolve) => this.child.once('exit', () => resolve()));
      process.kill(-this.child.pid!, 'SIGINT');
      const timer = setTimeout(() => this.killGroup(), limitMs);
      await exited;
      clearTimeout(timer);
    }
    return this.exit!;
  }

  /** True while any process of dev's group (dev, the manager, the waiting host) is alive. */
  groupAlive(): boolean {
    try {
      process.kill(-this.child.pid!, 0);
      return true;
    } catch {
      return false;
    }
  }

  killGroup(): void {
    try {
      process.kill(-this.child.pid!, 'SIGKILL');
    } catch {
      // already gone
    }
  }
}
