/**
 * The Kubebuilder book's Quick Start, typed as a newcomer types it, with kubeforge (issue 14's "Done when"):
 * `kubeforge init --domain my.domain --repo my.domain/guestbook`, `kubeforge create api --group webapp
 * --version v1 --kind Guestbook`, `make manifests`, `make install` and `make run` against a cluster — here
 * `kubeforge cluster start` in its own process, reached only through the kubeconfig it prints, as a kind
 * cluster would be — then `kubectl apply -k config/samples/`, and the manager reconciles the sample.
 * Real CLI, real make, real kubectl; the project's dependencies are linked from this checkout.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { CHECKOUT, linkDependencies, runInProject, tempProject } from './scaffold-harness.js';

const KUBEFORGE = join(CHECKOUT, 'bin/kubeforge.js');

const run = (command: string, args: string[], cwd: string, env: NodeJS.ProcessEnv = {}): Promise<{ code: number; output: string }> => runInProject(command, args, cwd, { env });

/** A long-running child whose output is collected; `waitFor` resolves when a line matches. */
function background(command: string, args: string[], cwd: string, env: NodeJS.ProcessEnv = {}): { proc: ChildProcess; output: () => string; waitFor: (pattern: RegExp, what: string) => Promise<RegExpMatchArray> } {
  const proc = spawn(command, args, { cwd, env: { ...process.env, NODE_OPTIONS: '', ...env }, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
  let text = '';
  const waiters: Array<() => void> = [];
  const take = (chunk: Buffer): void => {
    text += chunk.toString();
    for (const w of waiters.splice(0)) w();
  };
  proc.stdout!.on('data', take);
  proc.stderr!.on('data', take);
  proc.on('exit', () => waiters.splice(0).forEach((w) => w()));
  const waitFor = (pattern: RegExp, what: string): Promise<RegExpMatchArray> =>
    new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`timed out waiting for ${what}; output:\n${text}`)), 120_000);
      const check = (): void => {
        const m = pattern.exec(text);
        if (m) {
          clearTimeout(timer);
          resolve(m);
        } else if (proc.exitCode !== null) {
          clearTimeout(timer);
          reject(new Error(`exited (${proc.exitCode}) before ${what}; output:\n${text}`));
        } else waiters.push(check);
      };
      check();
    });
  return { proc, output: () => text, waitFor };
}

const stop = (proc: ChildProcess | undefined): void => {
  if (proc?.pid && proc.exitCode === null) {
    try {
      process.kill(-proc.pid, 'SIGINT');
    } catch {
      // already gone
    }
  }
};

describe("the Kubebuilder book's Quick Start with kubeforge", () => {
  const project = tempProject('quickstart');
  let cluster: ReturnType<typeof background> | undefined;
  let manager: ReturnType<typeof background> | undefined;
  afterAll(() => {
    stop(manager?.proc);
    stop(cluster?.proc);
    project.remove();
  });

  test('init, create api, make manifests, make install, make run, kubectl apply -k config/samples/ → reconciled', async () => {
    const root = join(project.root, 'guestbook');
    mkdirSync(root);
    const init = await run(process.execPath, [KUBEFORGE, 'init', '--domain', 'my.domain', '--repo', 'my.domain/guestbook'], root);
    expect(init).toMatchObject({ code: 0 });
    expect(init.output).toContain('--repo my.domain/guestbook is a module path: the npm package is named "guestbook"');
    const api = await run(process.execPath, [KUBEFORGE, 'create', 'api', '--group', 'webapp', '--version', 'v1', '--kind', 'Guestbook'], root);
    expect(api).toMatchObject({ code: 0 });
    linkDependencies(root); // in place of `npm install`

    expect((await run('make', ['manifests'], root)).code).toBe(0);

    const kubeconfigDir = join(project.root, 'kube');
    mkdirSync(kubeconfigDir);
    cluster = background(process.execPath, [KUBEFORGE, 'cluster', 'start', '--port', '0', '--kubeconfig', join(kubeconfigDir, 'config')], project.root);
    const [, kubeconfig] = await cluster.waitFor(/export KUBECONFIG=(\S+)\n/, 'the cluster\'s KUBECONFIG line');
    const env = { KUBECONFIG: kubeconfig!, KUBECACHEDIR: join(kubeconfigDir, 'cache') };

    const install = await run('make', ['install'], root, env);
    expect(install).toMatchObject({ code: 0 });
    expect(install.output).toContain('customresourcedefinition.apiextensions.k8s.io/guestbooks.webapp.my.domain serverside-applied');

    manager = background('make', ['run', 'MANAGER_FLAGS=--zap-devel --health-probe-bind-address=:0'], root, env);
    await manager.waitFor(/Starting workers|starting workers/i, 'the manager\'s workers');
    const apply = await run('kubectl', ['apply', '-k', 'config/samples/'], root, env);
    expect(apply).toMatchObject({ code: 0 });
    expect(apply.output).toContain('guestbook.webapp.my.domain/guestbook-sample created');
    await manager.waitFor(/reconciling Guestbook guestbook-sample/, 'the sample reconciled');
    const got = await run('kubectl', ['get', 'guestbooks', '-o', 'name'], root, env);
    expect(got.output.trim()).toBe('guestbook.webapp.my.domain/guestbook-sample');
  }, 300_000);
});
