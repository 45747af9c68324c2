/**
 * Runs the real kubectl on the PATH against a fixture's cluster, with its own HOME and KUBECACHEDIR
 * (asynchronously: the API server lives in the test's own process).
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

export class Kubectl {
  private readonly home = mkdtempSync(join(tmpdir(), 'kubectl-home-'));
  constructor(private readonly kubeconfigPath: string) {}

  async run(...args: string[]): Promise<string> {
    const env = { ...process.env, HOME: this.home, KUBECACHEDIR: join(this.home, 'cache'), KUBECONFIG: this.kubeconfigPath };
    const { stdout } = await run('kubectl', args, { env });
    return stdout;
  }

  dispose(): void {
    rmSync(this.home, { recursive: true, force: true });
  }
}
