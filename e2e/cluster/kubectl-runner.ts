/**
 * Runs the real kubectl 1.32 against a local cluster with a private HOME and KUBECACHEDIR per test
 * file, so discovery caches of other servers never leak in.
 */
import { accessSync, constants, existsSync, mkdtempSync, realpathSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { KubectlLauncher } from './kubectl-launcher-client.js';

export interface KubectlResult {
  code: number;
  stdout: string;
  stderr: string;
}

/** What `which` answers: the first executable file `name` in a PATH directory (looked up in-process, no child). */
function onPath(name: string): string | undefined {
  for (const dir of (process.env.PATH ?? '').split(delimiter)) {
    if (!dir) continue;
    const candidate = join(dir, name);
    try {
      accessSync(candidate, constants.X_OK);
      if (statSync(candidate).isFile()) return candidate;
    } catch {
      // not there or not executable: the next directory
    }
  }
  return undefined;
}

/** The 1.32 binary behind the dispatcher when present (skips a /version round trip), else `kubectl`. */
function findKubectlBinary(): string {
  const found = onPath('kubectl');
  if (!found) return 'kubectl';
  const direct = join(dirname(realpathSync(found)), 'kubectl.1.32');
  return existsSync(direct) ? direct : found;
}

/** Looked up once per test file, not once per Kubectl. */
let kubectlBinary: string | undefined;

/**
 * kubectl's Go runtime collects garbage less often (GOGC=400, default 100): each run is a short-lived process
 * whose heap stays small, and fewer collections save about a seventh of its CPU time (what the test sees is the same).
 */
const KUBECTL_GOGC = '400';

/**
 * One OS thread running Go code at a time (GOMAXPROCS=1, default one per core): a run is a few ms of mostly serial
 * work, and fewer runtime threads spinning for work cost less; measured 0.043 → 0.040 CPU-s a get, 0.075 → 0.072
 * an apply (medians of 25 interleaved runs, GOGC=400 both; what the test sees is the same).
 */
const KUBECTL_GOMAXPROCS = '1';

/** The launcher every Kubectl of this test file shares while at least one of them is not cleaned up. */
const launcher = new KubectlLauncher(fileURLToPath(new URL('./kubectl-launcher.mjs', import.meta.url)));

export class Kubectl {
  private readonly home = mkdtempSync(join(tmpdir(), 'kubeforge-kubectl-'));
  private readonly binary = (kubectlBinary ??= findKubectlBinary());
  private released = false;

  /** `kubeconfig` may be a function, read at each run (for a cluster started after construction). */
  constructor(private readonly kubeconfig: string | (() => string)) {
    launcher.hold();
  }

  /** One kubectl process, started by the file's launcher (kubectl-launcher.mjs says why). */
  run(args: string[], input?: string): Promise<KubectlResult> {
    return launcher.run({
      file: this.binary,
      args: ['--kubeconfig', typeof this.kubeconfig === 'string' ? this.kubeconfig : this.kubeconfig(), ...args],
      env: { PATH: process.env.PATH ?? '', HOME: this.home, KUBECACHEDIR: join(this.home, 'cache'), GOGC: KUBECTL_GOGC, GOMAXPROCS: KUBECTL_GOMAXPROCS },
      input,
      timeout: 30_000,
    });
  }

  /** Runs and fails the test with kubectl's stderr when the exit status is not 0. */
  async ok(args: string[], input?: string): Promise<string> {
    const r = await this.run(args, input);
    if (r.code !== 0) throw new Error(`kubectl ${args.join(' ')} exited ${r.code}: ${r.stderr}${r.stdout}`);
    return r.stdout;
  }

  /** Removes the private HOME; resolves once the file's launcher has exited when this was its last Kubectl. */
  cleanup(): Promise<void> {
    rmSync(this.home, { recursive: true, force: true });
    if (this.released) return Promise.resolve();
    this.released = true;
    return launcher.release();
  }
}
