/**
 * The multiversion tutorial's flow through the CLI in a fresh project, as kubebuilder 4 scaffolds it:
 * `create api` adds v2 of CronJob (types yes, controller no: v1 has one; v1 stays the storage version),
 * `create webhook --conversion --spoke v2` makes v1 the hub and v2 a spoke with a round-trip test,
 * registers the conversion on the manager's webhook server and enables the CRD conversion patch and CA
 * injection; bad spokes change nothing. Then the stubs get a real conversion (v2 renames a field) and the
 * project's `make manifests generate build test` passes; `make run-local` of that project, whose only
 * webhook is the conversion webhook (so no config/webhook/manifests.yaml), registers the conversion — the
 * CRD gets strategy Webhook at the manager's /convert — and real kubectl writes in v2 and reads in v1 and
 * back (real processes on the real clock: polling with a bounded wait); and the round-trip test fails when
 * the conversion loses data. (run-local runs on the build `make build` just made, so the project is
 * compiled once.)
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { parse, parseAllDocuments } from 'yaml';
import { Kubectl } from '../cluster/kubectl-runner.js';
import { stopGroup } from '../process-group.js';
import { createApi, createWebhook, fillRenameConversion, init, linkDependencies, read, runCli, runInProject, tempProject, treeHash } from './scaffold-harness.js';

/** Waits (bounded, on the real clock) for `make run-local`'s KUBECONFIG= line: the kubeconfig and what it printed so far. */
async function runLocalStarted(child: ChildProcess): Promise<{ kubeconfig: string; output: string }> {
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
  return { kubeconfig, output };
}

describe('create api v2 + create webhook --conversion --spoke v2', () => {
  const project = tempProject('multiversion');
  let root = '';

  beforeAll(async () => {
    root = project.root;
    expect(init(root, { domain: 'tutorial.kubebuilder.io' }).code).toBe(0);
    expect(await createApi(root, { group: 'batch', version: 'v1', kind: 'CronJob' })).toMatchObject({ code: 0, err: '' });
  }, 120_000);
  afterAll(() => project.remove());

  it('adds v2 of the kind without a controller, and keeps v1 the storage version', async () => {
    expect(read(root, 'api/v1/cronjob_types.ts')).not.toContain('+kubebuilder:storageversion');
    expect(await createApi(root, { group: 'batch', version: 'v2', kind: 'CronJob' })).toMatchObject({ code: 0, err: '' });
    const resources = parse(read(root, 'PROJECT')).resources;
    expect(resources.map((r: { version: string; controller?: boolean }) => [r.version, r.controller ?? false])).toEqual([
      ['v1', true],
      ['v2', false],
    ]);
    expect(read(root, 'api/v2/cronjob_types.ts')).toContain("apiVersion: 'batch.tutorial.kubebuilder.io/v2';");
    expect(read(root, 'internal/controller/index.ts').match(/setupCronJobController\(mgr\)/g)).toHaveLength(1);
    expect(read(root, 'api/v1/cronjob_types.ts')).toMatch(/\/\/ \+kubebuilder:object:root=true\n\/\/ \+kubebuilder:storageversion\n\/\/ \+kubebuilder:subresource:status\nexport interface CronJob \{/);
    const crd = parse(read(root, 'config/crd/bases/batch.tutorial.kubebuilder.io_cronjobs.yaml'));
    expect(crd.spec.versions.map((v: { name: string; served: boolean; storage: boolean }) => [v.name, v.served, v.storage])).toEqual([
      ['v1', true, true],
      ['v2', true, false],
    ]);
  });

  it.each([
    ['an unknown spoke', { version: 'v1', kind: 'CronJob', conversion: true, spoke: ['v3'] }, '--spoke "v3": no API batch/v3 CronJob in PROJECT (it has v1, v2); run `kubeforge create api --group batch --version v3 --kind CronJob` first'],
    ['no such kind', { version: 'v1', kind: 'Schedule', conversion: true, spoke: ['v2'] }, '--kind "Schedule": no API batch/v1 Schedule in PROJECT; run `kubeforge create api` for it first'],
    ['the hub as a spoke', { version: 'v1', kind: 'CronJob', conversion: true, spoke: ['v1'] }, '--spoke "v1": v1 is the hub (--version); a spoke must be another version of CronJob'],
    ['no spoke', { version: 'v1', kind: 'CronJob', conversion: true }, '--spoke "": --conversion needs the versions that convert to and from the hub v1: --spoke <version>[,<version>…]'],
    ['a spoke without --conversion', { version: 'v1', kind: 'CronJob', defaulting: true, spoke: ['v2'] }, '--spoke "v2": --spoke needs --conversion (the spokes convert to and from the hub --version)'],
    ['a bad spoke name', { version: 'v1', kind: 'CronJob', conversion: true, spoke: ['V2'] }, '--spoke "V2": must look like v1, v2, v1alpha1 or v2beta3'],
    ['a hub that is not the storage version', { version: 'v2', kind: 'CronJob', conversion: true, spoke: ['v1'] }, 'api/v1/cronjob_types.ts: CronJob v1 is marked +kubebuilder:storageversion, but the hub v2 must be the storage version'],
  ])('refuses %s and changes nothing', async (_name, flags, message) => {
    const before = treeHash(root);
    const result = await createWebhook(root, { group: 'batch', make: false, ...flags });
    expect(result.code).toBe(1);
    expect(result.err).toContain(message);
    expect(treeHash(root)).toBe(before);
  });

  // The command line through the CLI's main in this process (bin/kubeforge.js only calls it; spawned-cli.test.ts
  // runs the bin in a fresh process).
  it('the kubeforge command takes --spoke (a dry run lists the files and writes nothing)', async () => {
    const before = treeHash(root);
    const dry = await runCli(['create', 'webhook', '--group', 'batch', '--version', 'v1', '--kind', 'CronJob', '--conversion', '--spoke', 'v2', '--dry-run', '--root', root]);
    expect(dry.code).toBe(0);
    for (const file of ['api/v1/cronjob_conversion.ts', 'api/v2/cronjob_conversion.ts', 'api/v2/cronjob_conversion.test.ts', 'internal/webhook/v1/cronjob_conversion.ts', 'config/crd/patches/webhook_in_cronjobs.yaml']) {
      expect(dry.out).toContain(`create ${file}`);
    }
    expect(dry.out).toContain('update PROJECT');
    expect(treeHash(root)).toBe(before);
  }, 60_000);

  it('scaffolds the hub, the spoke, its round-trip test, the registration, the CRD patch and CA injection', async () => {
    expect(await createWebhook(root, { group: 'batch', version: 'v1', kind: 'CronJob', conversion: true, spoke: ['v2'] })).toMatchObject({ code: 0, err: '' });
    expect(parse(read(root, 'PROJECT')).resources[0].webhooks).toEqual({ conversion: true, spoke: ['v2'], webhookVersion: 'v1' });
    expect(read(root, 'api/v1/cronjob_conversion.ts')).toContain('export const CronJobHub: Hub<CronJob> = { hub: CronJobKind };');
    const spoke = read(root, 'api/v2/cronjob_conversion.ts');
    expect(spoke).toContain('export const CronJobV2Convertible: Convertible<CronJob, CronJobV1> = {');
    expect(spoke).toContain("import type { CronJob as CronJobV1 } from '../v1/cronjob_types.js';");
    expect(read(root, 'api/v2/cronjob_conversion.test.ts')).toContain('randomObjects(CronJobHub.hub, { crdPaths: [crdFolder], seed: SEED, count: COUNT })');
    const registration = read(root, 'internal/webhook/v1/cronjob_conversion.ts');
    expect(registration).toContain("import { CronJobV2Convertible } from '../../../api/v2/cronjob_conversion.js';");
    expect(registration).toContain('cronJobConversion.spoke(CronJobV2Convertible);');
    expect(registration).toContain('return mgr.webhookFor(CronJobHub.hub).withConversion(cronJobConversion).complete();');
    expect(read(root, 'internal/webhook/index.ts')).toContain('paths.push(...setupCronJobConversionWithManager(mgr));');
    expect(read(root, 'config/crd/kustomization.yaml')).toMatch(/\npatches:\n(#.*\n)*- path: patches\/webhook_in_cronjobs\.yaml\n# \+kubebuilder:scaffold:crdkustomizewebhookpatch/);
    // Only a conversion webhook: no admission configurations for kustomize to look for.
    expect(parse(read(root, 'config/webhook/kustomization.yaml')).resources).toEqual(['service.yaml']);

    const kubectl = new Kubectl('/dev/null'); // kustomize needs no cluster
    try {
      const rendered = parseAllDocuments(await kubectl.ok(['kustomize', join(root, 'config/default')])).map((d) => d.toJS());
      const crd = rendered.find((o) => o.kind === 'CustomResourceDefinition');
      expect(crd.metadata.annotations['cert-manager.io/inject-ca-from']).toBe('multiversion-system/multiversion-serving-cert');
      expect(crd.spec.conversion).toEqual({ strategy: 'Webhook', webhook: { clientConfig: { service: { name: 'multiversion-webhook-service', namespace: 'multiversion-system', path: '/convert' } }, conversionReviewVersions: ['v1'] } });
    } finally {
      kubectl.cleanup();
    }
  }, 60_000);

  it('a second run with the same spoke is refused; the same command changes nothing', async () => {
    const before = treeHash(root);
    const again = await createWebhook(root, { group: 'batch', version: 'v1', kind: 'CronJob', conversion: true, spoke: ['v2'], make: false });
    expect(again.err).toBe('kubeforge create webhook: --conversion "true": CronJob already has this webhook (see PROJECT); use --force to scaffold it again');
    expect(treeHash(root)).toBe(before);
  });

  // The real conversion of the test below, for the lossy edit of the last test.
  let real = '';

  it('with a real conversion filled in, make manifests generate build test passes', async () => {
    // v2 renames spec.foo to spec.bar; the spoke maps it both ways.
    const filled = fillRenameConversion(root);
    real = filled.real;
    expect(real).not.toBe(filled.stub);
    expect(real).not.toContain('dst.spec = src.spec;');
    linkDependencies(root);
    const make = await runInProject('make', ['manifests', 'generate', 'build', 'test'], root);
    expect(make.output).toContain('PASS api/v2/cronjob_conversion.test.ts');
    expect(make.code).toBe(0);
    const crd = parse(read(root, 'config/crd/bases/batch.tutorial.kubebuilder.io_cronjobs.yaml'));
    expect(Object.keys(crd.spec.versions[1].schema.openAPIV3Schema.properties.spec.properties)).toEqual(['bar']);
  }, 300_000);

  it('make run-local with only a conversion webhook registers it without a manifests file; kubectl writes in v2 and reads in v1, and the reverse', async () => {
    expect(real).not.toBe('');
    const child = spawn('make', ['run-local', 'MANAGER_FLAGS=--health-probe-bind-address=:0 --metrics-bind-address=0'], { cwd: root, env: { ...process.env, NODE_OPTIONS: '' }, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
    let kubectl: Kubectl | undefined;
    try {
      const started = await runLocalStarted(child);
      // `make manifests` wrote no admission webhook configurations: the conversion is all there is.
      expect(existsSync(join(root, 'config/webhook/manifests.yaml'))).toBe(false);
      expect(started.output).toContain('registered conversion webhook');

      kubectl = new Kubectl(started.kubeconfig);
      const conversion = JSON.parse(await kubectl.ok(['get', 'crd', 'cronjobs.batch.tutorial.kubebuilder.io', '-o', 'jsonpath={.spec.conversion}']));
      expect(conversion).toMatchObject({ strategy: 'Webhook', webhook: { clientConfig: { url: expect.stringMatching(/^https:\/\/127\.0\.0\.1:\d+\/convert$/) }, conversionReviewVersions: ['v1'] } });
      await kubectl.ok(['create', '-n', 'default', '-f', '-'], JSON.stringify({ apiVersion: 'batch.tutorial.kubebuilder.io/v2', kind: 'CronJob', metadata: { name: 'in-v2' }, spec: { bar: 'from v2' } }));
      expect(JSON.parse(await kubectl.ok(['get', 'cronjobs.v1.batch.tutorial.kubebuilder.io', 'in-v2', '-n', 'default', '-o', 'jsonpath={.spec}']))).toEqual({ foo: 'from v2' });
      await kubectl.ok(['create', '-n', 'default', '-f', '-'], JSON.stringify({ apiVersion: 'batch.tutorial.kubebuilder.io/v1', kind: 'CronJob', metadata: { name: 'in-v1' }, spec: { foo: 'from v1' } }));
      expect(JSON.parse(await kubectl.ok(['get', 'cronjobs.v2.batch.tutorial.kubebuilder.io', 'in-v1', '-n', 'default', '-o', 'jsonpath={.spec}']))).toEqual({ bar: 'from v1' });
    } finally {
      kubectl?.cleanup();
      await stopGroup(child);
    }
  }, 300_000);

  it('a conversion that drops data fails the generated round trip', async () => {
    expect(real).not.toBe('');
    writeFileSync(join(root, 'api/v2/cronjob_conversion.ts'), real.replace('{ foo: src.spec.bar }', '{ foo: src.spec.bar.slice(1) }'));
    const lossy = await runInProject(process.execPath, ['--experimental-vm-modules', 'node_modules/jest/bin/jest.js', 'api/v2'], root);
    expect(lossy.code).not.toBe(0);
    expect(lossy.output).toContain('FAIL api/v2/cronjob_conversion.test.ts');
  }, 300_000);
});
