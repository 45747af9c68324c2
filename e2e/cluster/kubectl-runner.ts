/**
 * Runs the real kubectl 1.32 against a local cluster with a private HOME and KUBECACHEDIR per test
 * file, so discovery caches of other servers never leak in.
 */
import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { execFileSync } from 'node:child_process';

export interface KubectlResult {
  code: number;
  stdout: string;
  stderr: string;
}

/** The 1.32 binary behind the dispatcher when present (skips a /version round trip), else `kubectl`. */
function findKubectlBinary(): string {
  try {
    const onPath = execFileSync('which', ['kubectl'], { encoding: 'utf8' }).trim();
    const direct = join(dirname(realpathSync(onPath)), 'kubectl.1.32');
    return existsSync(direct) ? direct : onPath;
  } catch {
    return 'kubectl';
  }
}

/** Looked up once per test file, not once per Kubectl. */
let kubectlBinary: string | undefined;

/**
 * kubectl's Go runtime collects garbage less often (GOGC=400, default 100): each run is a short-lived process
 * whose heap stays small, and fewer collections save about a seventh of its CPU time (what the test sees is the same).
 */
const KUBECTL_GOGC = '400';

export class Kubectl {
  private readonly home = mkdtempSync(join(tmpdir(), 'kubeforge-kubectl-'));
  private readonly binary = (kubectlBinary ??= findKubectlBinary());

  /** `kubeconfig` may be a function, read at each run (for a cluster started after construction). */
  constructor(private readonly kubeconfig: string | (() => string)) {}

  run(args: string[], input?: string): Promise<KubectlResult> {
    return new Promise((resolve) => {
      const child = execFile(
        this.binary,
        ['--kubeconfig', typeof this.kubeconfig === 'string' ? this.kubeconfig : this.kubeconfig(), ...args],
        { env: { PATH: process.env.PATH ?? '', HOME: this.home, KUBECACHEDIR: join(this.home, 'cache'), GOGC: KUBECTL_GOGC }, timeout: 30_000 },
        (err, stdout, stderr) => {
          const code = err ? (typeof (err as { code?: unknown }).code === 'number' ? ((err as { code: number }).code) : 1) : 0;
          resolve({ code, stdout: String(stdout), stderr: String(stderr) });
        },
      );
      if (input !== undefined) child.stdin?.end(input);
      else child.stdin?.end();
    });
  }

  /** Runs and fails the test with kubectl's stderr when the exit status is not 0. */
  async ok(args: string[], input?: string): Promise<string> {
    const r = await this.run(args, input);
    if (r.code !== 0) throw new Error(`kubectl ${args.join(' ')} exited ${r.code}: ${r.stderr}${r.stdout}`);
    return r.stdout;
  }

  cleanup(): void {
    rmSync(this.home, { recursive: true, force: true });
  }
}
