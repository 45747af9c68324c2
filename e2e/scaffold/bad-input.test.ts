/**
 * Every bad input of the scaffold commands is refused before anything is written: the error names the
 * flag (or the file in the way), the exit status is 1, and the project's tree hash is unchanged.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createApi, createWebhook, init, read, tempProject, treeHash, type CommandResult } from './scaffold-harness.js';

describe('bad input changes nothing', () => {
  const project = tempProject('guard');
  let root = '';

  beforeAll(async () => {
    root = project.root;
    expect(init(root).code).toBe(0);
    expect((await createApi(root, { group: 'batch', version: 'v1', kind: 'CronJob', make: false })).code).toBe(0);
  });
  afterAll(() => project.remove());

  async function expectRefused(run: () => CommandResult | Promise<CommandResult>, message: string): Promise<void> {
    const before = treeHash(root);
    const result = await run();
    expect(result.err).toBe(message);
    expect(result.code).toBe(1);
    expect(treeHash(root)).toBe(before);
  }

  const api = (flags: Partial<{ group: string; version: string; kind: string; plural: string; multigroup: boolean; resource: boolean; controller: boolean }>) => () =>
    createApi(root, { group: 'batch', version: 'v1', kind: 'Widget', make: false, ...flags });

  it.each([
    ['an upper-case group', { group: 'Batch' }, '--group "Batch": must be a DNS-1123 subdomain: lower-case letters, digits, "-" and ".", starting and ending with a letter or digit'],
    ['a group with a slash', { group: 'batch/x' }, '--group "batch/x": must be a DNS-1123 subdomain: lower-case letters, digits, "-" and ".", starting and ending with a letter or digit'],
    ['a group ending in "-"', { group: 'batch-' }, '--group "batch-": must be a DNS-1123 subdomain: lower-case letters, digits, "-" and ".", starting and ending with a letter or digit'],
    ['version "1"', { version: '1' }, '--version "1": must look like v1, v2, v1alpha1 or v2beta3 (v, a number, then optionally alpha|beta and a number)'],
    ['version "v1gamma1"', { version: 'v1gamma1' }, '--version "v1gamma1": must look like v1, v2, v1alpha1 or v2beta3 (v, a number, then optionally alpha|beta and a number)'],
    ['version "v0"', { version: 'v0' }, '--version "v0": must look like v1, v2, v1alpha1 or v2beta3 (v, a number, then optionally alpha|beta and a number)'],
    ['a camelCase kind', { kind: 'cronJob' }, '--kind "cronJob": must be PascalCase: an upper-case letter, then letters and digits (e.g. CronJob)'],
    ['a kind with a path', { kind: '../Evil' }, '--kind "../Evil": must not contain path characters, dots or spaces'],
    ['a kind with a dash', { kind: 'Cron-Job' }, '--kind "Cron-Job": must be PascalCase: an upper-case letter, then letters and digits (e.g. CronJob)'],
    ['a reserved kind', { kind: 'Interface' }, '--kind "Interface": is a reserved word in TypeScript or Go; choose another name'],
    ['a built-in type name as kind', { kind: 'Promise' }, '--kind "Promise": is a reserved word in TypeScript or Go; choose another name'],
    ['a kind ending in List', { kind: 'WidgetList' }, '--kind "WidgetList": must not end in "List" (the List type is made for every kind)'],
    ['an upper-case plural', { plural: 'Widgets' }, '--plural "Widgets": must be a lower-case DNS-1123 label (letters, digits and "-")'],
    ['a second group in a single-group project', { group: 'ship' }, '--group "ship": this single-group project already has the group "batch"; a second group needs the multigroup layout (`kubeforge edit --multigroup`)'],
    ['--multigroup after the first API', { multigroup: true }, '--multigroup "true": the project already has APIs in the single-group layout (api/<version>); run `kubeforge edit --multigroup` first (existing APIs stay where they are)'],
    ['--resource=false --controller=false', { resource: false, controller: false }, '--resource "false": with --controller=false there is nothing to create'],
  ])('create api refuses %s', async (_name, flags, message) => {
    await expectRefused(api(flags), `kubeforge create api: ${message}`);
  });

  it('create api refuses a kind that exists', async () => {
    await expectRefused(api({ kind: 'CronJob' }), 'kubeforge create api: --kind "CronJob": the API batch/v1 CronJob already exists in PROJECT (use --force to scaffold it again)');
  });

  it('create api refuses --resource=false when the types do not exist', async () => {
    await expectRefused(api({ resource: false }), 'kubeforge create api: nothing was written:\n  --resource=false needs the types in api/v1/widget_types.ts, which do not exist');
  });

  it('create api refuses when a file it would create exists, listing it', async () => {
    writeFileSync(join(root, 'config/samples/batch_v1_widget.yaml'), '# mine\n');
    await expectRefused(api({}), 'kubeforge create api: nothing was written:\n  config/samples/batch_v1_widget.yaml already exists (use --force to overwrite it)');
  });

  it('create api refuses when a scaffold marker was removed, naming the file', async () => {
    const index = read(root, 'internal/controller/index.ts');
    writeFileSync(join(root, 'internal/controller/index.ts'), index.replace('  // +kubebuilder:scaffold:builder\n', ''));
    await expectRefused(
      api({ kind: 'Gadget' }),
      'kubeforge create api: nothing was written:\n  internal/controller/index.ts: the "+kubebuilder:scaffold:builder" marker line is missing; put it back where new entries should go',
    );
    writeFileSync(join(root, 'internal/controller/index.ts'), index);
  });

  it('create api reports a broken PROJECT with its line and column', async () => {
    const original = read(root, 'PROJECT');
    writeFileSync(join(root, 'PROJECT'), original.replace('domain: example.com', 'domain: [example.com'));
    const before = treeHash(root);
    const result = await api({})();
    expect(result.code).toBe(1);
    expect(result.err).toMatch(/^kubeforge create api: PROJECT:\d+:\d+: not valid YAML: /);
    expect(treeHash(root)).toBe(before);
    writeFileSync(join(root, 'PROJECT'), original);
  });

  it('create api outside a project says to run init', async () => {
    const empty = tempProject('empty');
    try {
      const result = await createApi(empty.root, { group: 'batch', version: 'v1', kind: 'Widget' });
      expect(result.code).toBe(1);
      expect(result.err).toBe(`kubeforge create api: no PROJECT found in ${empty.root} or its parents; run \`kubeforge init\` first, or pass --root <project folder>`);
    } finally {
      empty.remove();
    }
  });

  it.each([
    ['no webhook type', {}, '--defaulting "false": choose at least one of --defaulting, --programmatic-validation and --conversion'],
    ['a kind without an API', { kind: 'Widget', defaulting: true }, '--kind "Widget": no API batch/v1 Widget in PROJECT; run `kubeforge create api` for it first'],
    ['a bad version', { version: 'V1', defaulting: true }, '--version "V1": must look like v1, v2, v1alpha1 or v2beta3 (v, a number, then optionally alpha|beta and a number)'],
  ])('create webhook refuses %s', async (_name, flags, message) => {
    await expectRefused(() => createWebhook(root, { group: 'batch', version: 'v1', kind: 'CronJob', make: false, ...flags }), `kubeforge create webhook: ${message}`);
  });

  it.each([
    ['a domain with "_"', { domain: 'my_domain.com' }, '--domain "my_domain.com": must be a DNS-1123 subdomain such as my.domain or example.com'],
    ['an empty domain', { domain: '' }, '--domain "": must be a DNS-1123 subdomain such as my.domain or example.com'],
    ['a repo with spaces', { repo: 'my operator' }, '--repo "my operator": must be a valid npm package name (lower-case, no spaces, optionally @scope/name) or a module path such as github.com/org/project'],
    ['an upper-case repo', { repo: 'MyOperator' }, '--repo "MyOperator": must be a valid npm package name (lower-case, no spaces, optionally @scope/name) or a module path such as github.com/org/project'],
    ['a project name with dots', { projectName: 'my.project' }, '--project-name "my.project": must be a DNS-1123 label: lower-case letters, digits and "-" (it names the namespace and resources)'],
    ['an unknown license', { license: 'mit' }, '--license "mit": must be "none" or "apache2"'],
    ['a kubeforge dependency with a space', { kubeforgeDependency: 'file:../my kubeforge' }, '--kubeforge-dependency "file:../my kubeforge": must be an npm dependency spec such as ^0.1.0, file:<folder> or file:<tarball>.tgz (no spaces or quotes)'],
  ])('init refuses %s', async (_name, flags, message) => {
    const fresh = tempProject('fresh');
    try {
      const before = treeHash(fresh.root);
      const result = init(fresh.root, flags);
      expect(result.err).toBe(`kubeforge init: ${message}`);
      expect(result.code).toBe(1);
      expect(treeHash(fresh.root)).toBe(before);
    } finally {
      fresh.remove();
    }
  });

  it('init refuses a folder whose name is no project name, unless --project-name is given', () => {
    const odd = tempProject('___');
    try {
      expect(init(odd.root).err).toBe('kubeforge init: --project-name "": must be a DNS-1123 label: lower-case letters, digits and "-" (it names the namespace and resources)');
      expect(init(odd.root, { projectName: 'fine' }).code).toBe(0);
    } finally {
      odd.remove();
    }
  });
});
