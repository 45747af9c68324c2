/**
 * A made project's type-check (`tsc -p tsconfig.json --noEmit`) checked again after each edit by one
 * `tsc --watch` process: each verdict is tsc's compile after the edit, which reuses what it parsed before
 * (node_modules' declarations, most of a check's CPU) instead of a fresh tsc parsing everything again.
 * Waits are on the lines tsc prints (bounded), never on the clock alone.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { ProcessOutput } from '../process-output.js';

/** tsc's verdict: code 0 and no output when the project compiles, else 1 and the diagnostics as tsc prints them. */
export interface TypeCheckResult {
  code: number;
  output: string;
}

// tsc --watch's own lines around each compile ("9:37:04 PM - Found 1 error. Watching for file changes.").
const STARTED = / - (Starting compilation in watch mode|File change detected\. Starting incremental compilation)\.\.\./;
const FOUND = /^.* - Found (\d+) errors?\. Watching for file changes\.$/m;

export class TypeCheckWatch {
  private child: ChildProcess | undefined;
  private printed: ProcessOutput | undefined;

  constructor(private readonly root: string) {}

  /**
   * Makes `edit` (the first time: starts tsc after it) and resolves with the verdict of the first compile
   * that starts after it. An edit must change files the project compiles, or no compile follows it.
   */
  async afterEdit(edit: () => void, limitMs = 120_000): Promise<TypeCheckResult> {
    const from = this.printed?.mark() ?? 0;
    edit();
    const printed = this.printed ?? this.start();
    const block = await printed.waitFor(compileAfterEdit, from, limitMs, 'the verdict of a compile');
    const found = FOUND.exec(block)!;
    const output = block
      .slice(0, found.index)
      .split('\n')
      .filter((line) => line.trim() !== '' && !STARTED.test(line))
      .map((line) => `${line}\n`)
      .join('');
    return { code: found[1] === '0' ? 0 : 1, output };
  }

  /** Stops tsc and waits for its exit. */
  async stop(): Promise<void> {
    const child = this.child;
    if (child === undefined || this.printed?.exit !== undefined) return;
    const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
    child.kill('SIGTERM');
    await exited;
  }

  private start(): ProcessOutput {
    const tsc = join(this.root, 'node_modules/typescript/bin/tsc');
    const env = { ...process.env, NODE_OPTIONS: '' };
    const child = spawn(process.execPath, [tsc, '-p', 'tsconfig.json', '--noEmit', '--watch', '--preserveWatchOutput', '--pretty', 'false'], { cwd: this.root, env, stdio: ['ignore', 'pipe', 'pipe'] });
    this.child = child;
    this.printed = new ProcessOutput(child, 'tsc --watch');
    return this.printed;
  }
}

/** The output of the first compile that starts in `after`, up to and including its "Found N errors" line. */
function compileAfterEdit(after: string): string | undefined {
  const started = after.search(STARTED);
  const found = started < 0 ? null : FOUND.exec(after.slice(started));
  return found ? after.slice(started, started + found.index + found[0].length) : undefined;
}
