// `kubeforge manifests` from the outside on good projects: which files it writes and what is in them,
// multi-group layouts, --max-desc-len, --check on stale and fresh trees, and no rewrite of unchanged files.
import { readFileSync, writeFileSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { parseAllDocuments } from 'yaml';
import { makeProject, removeProjects, runCli, treeFingerprint, fixtureFile, positionOf } from './cli-harness.js';

afterAll(removeProjects);

type Doc = Record<string, any>;  
const documents = (project: string, path: string): Doc[] =>
  parseAllDocuments(readFileSync(join(project, path), 'utf8')).map((d) => d.toJS() as Doc).filter((d) => d !== null);

describe('kubeforge manifests on a good project', () => {
  let project: string;
  let first: Awaited<ReturnType<typeof runCli>>;
  beforeAll(async () => {
    project = makeProject('good');
    first = await runCli(['manifests', '--root', project]);
  });

  it('writes a CRD per kind, the manager role and the webhook configurations, and says so', () => {
    expect(first).toMatchObject({ code: 0, stderr: '' });
    expect(first.stdout.split('\n').filter(Boolean)).toEqual([
      'wrote config/crd/bases/batch.example.com_cronjobs.yaml',
      'wrote config/crd/bases/batch.example.com_widgets.yaml',
      'wrote config/rbac/role.yaml',
      'wrote config/webhook/manifests.yaml',
    ]);
  });

  it('makes CRDs with the kinds, scopes, subresources and schemas the markers ask for', () => {
    const [cronjob] = documents(project, 'config/crd/bases/batch.example.com_cronjobs.yaml');
    expect(cronjob).toMatchObject({ kind: 'CustomResourceDefinition', metadata: { name: 'cronjobs.batch.example.com' } });
    expect(cronjob!.spec.scope).toBe('Namespaced');
    const version = cronjob!.spec.versions[0];
    expect(version).toMatchObject({ name: 'v1', served: true, storage: true, subresources: { status: {} } });
    const spec = version.schema.openAPIV3Schema.properties.spec;
    expect(spec.required).toEqual(['jobTemplate', 'schedule']);
    expect(spec.properties.concurrencyPolicy.enum).toEqual(['Allow', 'Forbid', 'Replace']);
    expect(spec.properties.jobTemplate.properties.spec.properties.template.properties.spec.required).toContain('containers');

    const [widget] = documents(project, 'config/crd/bases/batch.example.com_widgets.yaml');
    expect(widget!.spec).toMatchObject({ scope: 'Cluster', names: { shortNames: ['wg'], plural: 'widgets', listKind: 'WidgetList' } });
  });

  it('merges the controllers RBAC markers into one ClusterRole, ignoring marker-like text inside strings', () => {
    const [role] = documents(project, 'config/rbac/role.yaml');
    expect(role).toMatchObject({ kind: 'ClusterRole', metadata: { name: 'manager-role' } });
    expect(role!.rules.map((r: Doc) => `${r.apiGroups.join(',')}/${r.resources.join(',')}`)).toEqual([
      '/events',
      'batch/jobs',
      'batch.example.com/cronjobs',
      'batch.example.com/cronjobs/status',
      'batch.example.com/widgets',
    ]);
    expect(JSON.stringify(role)).not.toContain('secrets');
  });

  it('writes mutating then validating webhook configurations', () => {
    const configs = documents(project, 'config/webhook/manifests.yaml');
    expect(configs.map((c) => `${c.kind}/${c.webhooks[0].name}`)).toEqual([
      'MutatingWebhookConfiguration/mcronjob-v1.kb.io',
      'ValidatingWebhookConfiguration/vcronjob-v1.kb.io',
    ]);
  });

  it('rewrites nothing on a second run (same bytes, same mtimes) and prints nothing', async () => {
    const before = treeFingerprint(project);
    await new Promise((resolve) => setTimeout(resolve, 20));
    const second = await runCli(['manifests', '--root', project]);
    expect(second).toMatchObject({ code: 0, stdout: '', stderr: '' });
    expect(treeFingerprint(project)).toEqual(before);
  });

  it('--check passes on fresh outputs, then names a stale CRD after a type changes, writing nothing', async () => {
    const fresh = await runCli(['manifests', '--check', '--root', project]);
    expect(fresh.code).toBe(0);
    expect(fresh.stdout).toContain('4 generated files up to date');

    const types = join(project, 'api/v1/widget_types.ts');
    writeFileSync(types, readFileSync(types, 'utf8').replace('  colour: string;', '  colour: string;\n  /** Size. */\n  size?: string;'));
    const before = treeFingerprint(project);
    const stale = await runCli(['manifests', '--check', '--root', project]);
    expect(stale.code).toBe(1);
    expect(stale.stderr.split('\n')[0]).toBe('stale: config/crd/bases/batch.example.com_widgets.yaml');
    expect(stale.stderr).toContain('1 generated file is out of date');
    expect(treeFingerprint(project)).toEqual(before);

    const rewrite = await runCli(['manifests', '--root', project]);
    expect(rewrite.stdout).toBe('wrote config/crd/bases/batch.example.com_widgets.yaml\n');
  });
});

describe('kubeforge manifests options and layouts', () => {
  it('drops every description with --max-desc-len 0', async () => {
    const project = makeProject('good');
    expect((await runCli(['manifests', '--root', project, '--max-desc-len', '0'])).code).toBe(0);
    expect(readFileSync(join(project, 'config/crd/bases/batch.example.com_widgets.yaml'), 'utf8')).not.toContain('description:');
  });

  it('refuses float fields unless --allow-dangerous-types is given, as controller-gen does', async () => {
    const widget = fixtureFile('good', 'api/v1/widget_types.ts')
      .replace('import type { int32,', 'import type { float64, int32,')
      .replace('  colour: string;', '  colour: string;\n  /** Ratio. */\n  ratio?: float64;');
    const project = makeProject('good', { 'api/v1/widget_types.ts': widget });
    const refused = await runCli(['manifests', '--root', project]);
    const at = positionOf(widget, 'ratio?: float64');
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain(`api/v1/widget_types.ts:${at.line}:${at.column}: field "ratio" of WidgetSpec: found float`);
    const allowed = await runCli(['manifests', '--root', project, '--allow-dangerous-types']);
    expect(allowed.code).toBe(0);
    const [crd] = documents(project, 'config/crd/bases/batch.example.com_widgets.yaml');
    expect(crd!.spec.versions[0].schema.openAPIV3Schema.properties.spec.properties.ratio.type).toBe('number');
  });

  it('keeps the Job template metadata fields with --generate-embedded-object-meta, as crd:generateEmbeddedObjectMeta', async () => {
    const project = makeProject('good');
    const metadataOfTemplate = (): Doc =>
      documents(project, 'config/crd/bases/batch.example.com_cronjobs.yaml')[0]!.spec.versions[0].schema.openAPIV3Schema.properties.spec.properties.jobTemplate.properties.metadata;
    expect((await runCli(['manifests', '--root', project])).code).toBe(0);
    expect(metadataOfTemplate().properties).toBeUndefined();
    expect(metadataOfTemplate().type).toBe('object');
    expect((await runCli(['manifests', '--root', project, '--generate-embedded-object-meta'])).code).toBe(0);
    const metadata = metadataOfTemplate();
    expect(Object.keys(metadata.properties).sort()).toEqual(['annotations', 'finalizers', 'labels', 'name', 'namespace']);
    expect(metadata.properties.labels).toEqual({ type: 'object', additionalProperties: { type: 'string' } });
  });

  it('rejects a --max-desc-len that is not a number, naming the flag', async () => {
    const project = makeProject('good');
    const result = await runCli(['manifests', '--root', project, '--max-desc-len', 'ten']);
    expect(result.code).not.toBe(0);
    expect(result.stderr).toContain("option '--max-desc-len <n>' argument 'ten' is invalid");
  });

  it('writes both groups of a multi-group project, a role, and no webhook file when there are no webhook markers', async () => {
    const project = makeProject('multigroup');
    const result = await runCli(['manifests', '--root', project]);
    expect(result.code).toBe(0);
    expect(result.stdout.split('\n').filter(Boolean)).toEqual([
      'wrote config/crd/bases/batch.example.com_tasks.yaml',
      'wrote config/crd/bases/ship.example.com_frigates.yaml',
      'wrote config/rbac/role.yaml',
    ]);
    expect(existsSync(join(project, 'config/webhook/manifests.yaml'))).toBe(false);
    const [frigate] = documents(project, 'config/crd/bases/ship.example.com_frigates.yaml');
    expect(frigate!.spec.versions[0].name).toBe('v1beta1');
  });

  it('reads API types and controllers from the folders given with --paths and --controller-paths', async () => {
    const project = makeProject('good');
    const result = await runCli(['manifests', '--root', project, '--paths', './api/...', '--controller-paths', 'internal/webhook/...']);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('wrote config/webhook/manifests.yaml');
    expect(result.stdout).not.toContain('config/rbac/role.yaml');
  });
});
