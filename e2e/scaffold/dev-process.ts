/**
 * `kubeforge dev` as a test runs it: a child process in its own process group in a made project, its
 * output kept, and waits on the lines it prints (its readiness signals), never on the clock alone.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { ProcessOutput } from '../process-output.js';
import { CHECKOUT } from './scaffold-harness.js';

export class DevProcess {
  readonly child: ChildProcess;
  private readonly printed: ProcessOutput;

  constructor(root: string, managerArgs: string[] = ['--health-probe-bind-address=:0']) {
    const env = Object.fromEntries(Object.entries(process.env).filter(([k]) => !/^npm_/i.test(k) && k !== 'NODE_OPTIONS' && k !== 'JEST_WORKER_ID'));
    this.child = spawn(process.execPath, [join(CHECKOUT, 'bin/kubeforge.js'), 'dev', '--', ...managerArgs], { cwd: root, env, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
    this.printed = new ProcessOutput(this.child, 'kubeforge dev');
  }

  /** Everything printed so far (stdout and stderr, as they came). */
  get output(): string {
    return this.printed.output;
  }

  /** How dev exited, once it has. */
  get exit(): { code: number | null; signal: NodeJS.Signals | null } | undefined {
    return this.printed.exit;
  }

  /** Where the output ends now: wait for lines printed after this point. */
  mark(): number {
    return this.printed.mark();
  }

  /** Resolves with the first match of `pattern` in the output after `from`; rejects on exit or after `limitMs`. */
  waitFor(pattern: RegExp, from: number, limitMs = 60_000): Promise<RegExpExecArray> {
    return this.printed.waitFor((after) => pattern.exec(after) ?? undefined, from, limitMs, String(pattern));
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
