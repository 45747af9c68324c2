/**
 * A child process's output as a test waits on it: stdout and stderr kept as they came, and waits for what
 * it prints — bounded by a real-time limit (the process runs on the real clock), failing early if it exits.
 */
import type { ChildProcess } from 'node:child_process';

export class ProcessOutput {
  private text = '';
  private readonly listeners = new Set<() => void>();
  exit: { code: number | null; signal: NodeJS.Signals | null } | undefined;

  /** `name` says which process it is in the errors of `waitFor` ("kubeforge dev", "tsc --watch"). */
  constructor(
    child: ChildProcess,
    private readonly name: string,
  ) {
    const keep = (chunk: Buffer): void => {
      this.text += chunk.toString();
      this.notify();
    };
    child.stdout?.on('data', keep);
    child.stderr?.on('data', keep);
    child.on('exit', (code, signal) => {
      this.exit = { code, signal };
      this.notify();
    });
  }

  /** Everything printed so far. */
  get output(): string {
    return this.text;
  }

  /** Where the output ends now: wait for what is printed after this point. */
  mark(): number {
    return this.text.length;
  }

  /**
   * Resolves with the first value `find` returns for the output after `from` (undefined: not there yet);
   * rejects, with that output, when the process exits first or after `limitMs`. `what` names what is awaited.
   */
  waitFor<T>(find: (after: string) => T | undefined, from: number, limitMs: number, what: string): Promise<T> {
    return new Promise((resolve, reject) => {
      const check = (): void => {
        const found = find(this.text.slice(from));
        if (found !== undefined) finish(() => resolve(found));
        else if (this.exit !== undefined) finish(() => reject(new Error(`${this.name} exited (${JSON.stringify(this.exit)}) before printing ${what}:\n${this.text.slice(from)}`)));
      };
      const timer = setTimeout(() => finish(() => reject(new Error(`${this.name} did not print ${what} within ${limitMs} ms:\n${this.text.slice(from)}`))), limitMs);
      const finish = (then: () => void): void => {
        clearTimeout(timer);
        this.listeners.delete(check);
        then();
      };
      this.listeners.add(check);
      check();
    });
  }

  private notify(): void {
    for (const listener of [...this.listeners]) listener();
  }
}
