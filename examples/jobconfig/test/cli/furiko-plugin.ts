/**
 * The `furiko` CLI as kubectl's plugin for tests: cmd/furiko and the modules it imports are transpiled
 * into the checkout's dist/ (so `commander` resolves from its node_modules and
 * `kubeforge/runtime` from its own built dist/ through the package's exports, as the demo's copy does), a `kubectl-furiko` executable running it is put in a bin folder, and commands
 * run through the real `kubectl furiko …` with that folder first on the PATH, a private HOME and
 * KUBECACHEDIR, and KUBECONFIG — or through `script` from util-linux, on a real pseudo-terminal — or, for
 * variations of a command another run has taken through kubectl, through the CLI's own entry (runFurikoCli,
 * what main.ts calls) in this process with the same arguments and environment (~0.25 CPU-s less each).
 */
import { spawn } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative, resolve } from 'node:path';
import { Readable, Writable } from 'node:stream';
import ts from 'typescript';
import { runFurikoCli } from '../../cmd/furiko/cli.js';
import { projectFile } from '../furiko-env.js';

export interface CommandResult {
  code: number;
  stdout: string;
  stderr: string;
}

export interface FurikoPlugin {
  /** The folder holding `kubectl-furiko`. */
  binDir: string;
  /** The transpiled entry point (`node <main> …` runs the CLI standalone). */
  main: string;
  /** `kubectl furiko <args>` against `kubeconfig`, stdin closed (not a terminal); `env` adds variables. */
  kubectl(args: string[], options?: { env?: NodeJS.ProcessEnv }): Promise<CommandResult>;
  /**
   * The same command line as `kubectl furiko <args>` (kubectl hands a plugin its arguments and environment
   * unchanged) run by runFurikoCli in this process: stdin closed and not a terminal, named `kubectl furiko`.
   */
  inProcess(args: string[], options?: { env?: NodeJS.ProcessEnv }): Promise<CommandResult>;
  /** The environment the commands run in. */
  env(): NodeJS.ProcessEnv;
  remove(): void;
}

/** Transpiles `entry` and every file it imports by a relative path into `outDir`; returns the number of files. */
function transpileTree(root: string, entry: string, outDir: string): number {
  const seen = new Set<string>();
  const pending = [entry];
  while (pending.length > 0) {
    const file = pending.pop()!;
    if (seen.has(file)) continue;
    seen.add(file);
    const output = ts.transpileModule(readFileSync(file, 'utf8'), {
      fileName: file,
      compilerOptions: { target: ts.ScriptTarget.ES2022, module: ts.ModuleKind.ESNext, inlineSourceMap: true },
    }).outputText;
    const target = join(outDir, relative(root, file)).replace(/\.ts$/, '.js');
    mkdirSync(dirname(target), { recursive: true });
    writeFileSync(target, output);
    for (const match of output.matchAll(/\bfrom ['"](\.{1,2}\/[^'"]+)\.js['"]/g)) pending.push(resolve(dirname(file), `${match[1]}.ts`));
  }
  return seen.size;
}

export function buildFurikoPlugin(kubeconfig: string): FurikoPlugin {
  const root = projectFile('.');
  // Under the checkout's dist/ (ignored by git), so `type: module`, the checkout's node_modules and its
  // package self-reference (`kubeforge/runtime` → dist/runtime) apply.
  const checkoutDist = resolve(root, '../../dist');
  if (!existsSync(join(checkoutDist, 'runtime/index.js'))) throw new Error('dist/ is missing: run `npm run build` (npm test does it first)');
  const outDir = mkdtempSync(join(checkoutDist, 'furiko-cli-test-'));
  transpileTree(root, join(root, 'cmd/furiko/main.ts'), outDir);
  const main = join(outDir, 'cmd/furiko/main.js');
  const binDir = join(outDir, 'bin');
  mkdirSync(binDir);
  writeFileSync(join(binDir, 'kubectl-furiko'), `#!/bin/sh\nexec "${process.execPath}" "${main}" "$@"\n`);
  chmodSync(join(binDir, 'kubectl-furiko'), 0o755);
  const home = mkdtempSync(join(tmpdir(), 'furiko-cli-home-'));
  const env = (): NodeJS.ProcessEnv => ({
    PATH: `${binDir}:${process.env.PATH ?? ''}`,
    HOME: home,
    KUBECACHEDIR: join(home, 'cache'),
    KUBECONFIG: kubeconfig,
    TZ: 'UTC',
  });
  return {
    binDir,
    main,
    env,
    kubectl: (args, options) => runCommand('kubectl', ['furiko', ...args], { ...env(), ...options?.env }),
    inProcess: (args, options) => runInProcess(args, { ...env(), ...options?.env }),
    remove() {
      rmSync(outDir, { recursive: true, force: true });
      rmSync(home, { recursive: true, force: true });
    },
  };
}

/** runFurikoCli with `args` and `env`, stdin empty, stdout and stderr kept (neither a terminal). */
async function runInProcess(args: string[], env: NodeJS.ProcessEnv): Promise<CommandResult> {
  let stdout = '';
  let stderr = '';
  const keep = (append: (text: string) => void): Writable =>
    new Writable({
      write(chunk: Buffer | string, _encoding, done) {
        append(chunk.toString());
        done();
      },
    });
  const code = await runFurikoCli(args, {
    stdin: Readable.from([]),
    stdout: keep((text) => (stdout += text)),
    stderr: keep((text) => (stderr += text)),
    stdinIsTTY: false,
    stdoutIsTTY: false,
    env,
    name: 'kubectl furiko',
  });
  return { code, stdout, stderr };
}

/** Runs a command to its end with stdin closed. */
export function runCommand(command: string, args: string[], env: NodeJS.ProcessEnv): Promise<CommandResult> {
  return new Promise((done, fail) => {
    const child = spawn(command, args, { env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('error', fail);
    child.on('close', (code) => done({ code: code ?? -1, stdout, stderr }));
  });
}

/** A command running on a pseudo-terminal (`script -qfec <command> /dev/null`): answer prompts as they appear. */
export class TerminalSession {
  private output = '';
  private readonly exited: Promise<number>;
  private readonly waiters: Array<() => void> = [];

  constructor(command: string, env: NodeJS.ProcessEnv) {
    const child = spawn('script', ['-qfec', command, '/dev/null'], { env, stdio: ['pipe', 'pipe', 'pipe'] });
    this.child = child;
    const keep = (chunk: Buffer): void => {
      // The terminal writes line ends as \r\n (its output processing); the screen keeps them as \n.
      this.output += chunk.toString().replace(/\r\n/g, '\n');
      for (const wake of this.waiters.splice(0)) wake();
    };
    child.stdout.on('data', keep);
    child.stderr.on('data', keep);
    this.exited = new Promise((done) => child.on('close', (code) => done(code ?? -1)));
  }

  private readonly child: ReturnType<typeof spawn>;

  /** Everything the terminal showed so far (the program's output and the echo of what was typed). */
  get screen(): string {
    return this.output;
  }

  /** Waits until the screen shows `text` after position `from`; returns the position after it. Fails after 20 s. */
  async waitFor(text: string, from = 0): Promise<number> {
    const deadline = Date.now() + 20_000;
    for (;;) {
      const at = this.output.indexOf(text, from);
      if (at >= 0) return at + text.length;
      if (Date.now() > deadline) {
        this.child.kill();
        throw new Error(`the terminal never showed ${JSON.stringify(text)}; it shows:\n${this.output}`);
      }
      await new Promise<void>((wake) => {
        const timer = setTimeout(wake, 1000);
        this.waiters.push(() => {
          clearTimeout(timer);
          wake();
        });
      });
    }
  }

  /** Types a line (the terminal echoes it). */
  type(line: string): void {
    this.child.stdin!.write(`${line}\r`);
  }

  /** Ends the command (a watch that would run until interrupted): the terminal closes, as on Ctrl-D of the window. */
  stop(): Promise<number> {
    this.child.kill('SIGTERM');
    return this.exited;
  }

  /** The exit status; stdin is kept open until then (script ends the session when it reaches its end). */
  async exit(): Promise<number> {
    const code = await this.exited;
    this.child.stdin!.end();
    return code;
  }
}
