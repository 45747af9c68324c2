/**
 * `make run-local` of a fresh project whose only webhook is a conversion webhook (the multiversion tutorial's
 * flow through the CLI, no admission webhooks, so no config/webhook/manifests.yaml): run-local still registers
 * the conversion — the CRD gets strategy Webhook at the manager's /convert with its CA — and real kubectl
 * writes in v2 and reads in v1 and back. Real processes on the real clock: polling with a bounded wait.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { Kubectl } from '../cluster/kubectl-runner.js';
import { createApi, createWebhook, fillRenameConversion, init, linkDependencies, tempProject } from './scaffold-harness.js';
import { stopGroup } from '../process-group.js';

describe('make run-local with only a conversion webhook', () => {
  const project = tempProject('multiversion-run-local');
  const root = project.root;
  let child: ChildProcess | undefined;
  let kubectl: Kubectl | undefined;
  afterAll(async () => {
    kubectl?.cleanup();
    if (child) await stopGroup(child);
    project.remove();
  });

  it('registers the conversion without a manifests file; kubectl writes in v2 and reads in v1, and the reverse', async () => {
    expect(init(root, { domain: 'tutorial.kubebuilder.io' }).code).toBe(0);
    expect(await createApi(root, { group: 'batch', version: 'v1', kind: 'CronJob' })).toMatchObject({ code: 0, err: '' });
    expect(await createApi(root, { group: 'batch', version: 'v2', kind: 'CronJob' })).toMatchObject({ code: 0, err: '' });
    expect(await createWebhook(root, { group: 'batch', version: 'v1', kind: 'CronJob', conversion: true, spoke: ['v2'] })).toMatchObject({ code: 0, err: '' });
    // v2 renames spec.foo to spec.bar; the spoke maps it both ways.
    const { real } = fillRenameConversion(root);
    expect(real).not.toContain('dst.spec = src.spec;');
    linkDependencies(root);

    child = spawn('make', ['run-local', 'MANAGER_FLAGS=--health-probe-bind-address=:0 --metrics-bind-address=0'], { cwd: root, env: { ...process.env, NODE_OPTIONS: '' }, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
    let output = '';
    let exited: number | null | undefined;
    child.stdout!.on('data', (c: Buffer) => (output += c.toString()));
    child.stderr!.on('data', (c: Buffer) => (output += c.toString()));
    child.on('exit', (code) => (exited = code));
    const end = Date.now() + 180_000;
    let kubeconfig: string | undefined;
    while (kubeconfig === undefined && exited === undefined && Date.now() < end) {
      kubeconfig = /export KUBECONFIG=(\S+)\n/.exec(output)?.[1];
      if (kubeconfig === undefined) await sleep(250);
    }
    if (kubeconfig === undefined) throw new Error(`make run-local did not print the KUBECONFIG= line (exit ${String(exited)}):\n${output}`);
    // `make manifests` wrote no admission webhook configurations: the conversion is all there is.
    expect(existsSync(join(root, 'config/webhook/manifests.yaml'))).toBe(false);
    expect(output).toContain('registered conversion webhook');

    kubectl = new Kubectl(kubeconfig);
    const conversion = JSON.parse(await kubectl.ok(['get', 'crd', 'cronjobs.batch.tutorial.kubebuilder.io', '-o', 'jsonpath={.spec.conversion}']));
    expect(conversion).toMatchObject({ strategy: 'Webhook', webhook: { clientConfig: { url: expect.stringMatching(/^https:\/\/127\.0\.0\.1:\d+\/convert$/) }, conversionReviewVersions: ['v1'] } });
    await kubectl.ok(['create', '-n', 'default', '-f', '-'], JSON.stringify({ apiVersion: 'batch.tutorial.kubebuilder.io/v2', kind: 'CronJob', metadata: { name: 'in-v2' }, spec: { bar: 'from v2' } }));
    expect(JSON.parse(await kubectl.ok(['get', 'cronjobs.v1.batch.tutorial.kubebuilder.io', 'in-v2', '-n', 'default', '-o', 'jsonpath={.spec}']))).toEqual({ foo: 'from v2' });
    await kubectl.ok(['create', '-n', 'default', '-f', '-'], JSON.stringify({ apiVersion: 'batch.tutorial.kubebuilder.io/v1', kind: 'CronJob', metadata: { name: 'in-v1' }, spec: { foo: 'from v1' } }));
    expect(JSON.parse(await kubectl.ok(['get', 'cronjobs.v2.batch.tutorial.kubebuilder.io', 'in-v1', '-n', 'default', '-o', 'jsonpath={.spec}']))).toEqual({ bar: 'from v1' });
  }, 300_000);
});
