// The API-evolution check (issue 17): `kubeforge manifests --compat <ref> --root <project>`, run in this process
// (runCli: the CLI's own entry, its output and exit code), on a temporary git repository whose history has one
// commit per kind of change, breaking and not. Each test checks out a commit and compares it with an earlier one:
// the findings, their file:line, the exit code, and the acknowledgement file turning a failure into success.
// The installed command in a fresh process: spawned-cli.test.ts; `--compat` so, through make in a made project:
// e2e/scaffold/api-compat-target.test.ts.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { positionOf, runCli, treeFingerprint } from './cli-harness.js';

const PROJECT = `domain: example.com
layout:
  - kubeforge.io/ts/v1
projectName: widgets
repo: widgets
version: "3"
`;

const GROUP_INFO = (version: string) => `// Package ${version} contains API Schema definitions for the batch ${version} API group.
// +kubebuilder:object:generate=true
// +groupName=batch.example.com

/** GroupVersion is the group and version used to register these objects. */
export const groupVersion = { group: 'batch.example.com', version: '${version}' } as const;
`;

const TYPES_V1 = `import type { int32, ObjectMeta, ListMeta } from 'kubeforge/api';

/** WidgetSpec defines the desired state of Widget. */
export interface WidgetSpec {
  /** Colour of the widget. */
  // +kubebuilder:validation:Enum=red;green;blue
  colour: string;

  /** How many. */
  // +kubebuilder:validation:Minimum=1
  // +kubebuilder:validation:Maximum=10
  count?: int32;

  /** Name of the widget. */
  // +kubebuilder:validation:MaxLength=20
  name?: string;

  /** Size of the widget. */
  // +kubebuilder:default=small
  size?: string;

  /** Tags. */
  tags?: string[];

  /** A note nobody reads. */
  note?: string;

  /** Replicas. */
  replicas?: int32;
}

/** Widget is the Schema for the widgets API. */
// +kubebuilder:object:root=true
// +kubebuilder:storageversion
// +kubebuilder:resource:shortName=wg;wdg
export interface Widget {
  apiVersion: 'batch.example.com/v1';
  kind: 'Widget';
  metadata?: ObjectMeta;
  spec?: WidgetSpec;
}

/** WidgetList contains a list of Widget. */
// +kubebuilder:object:root=true
export interface WidgetList {
  apiVersion: 'batch.example.com/v1';
  kind: 'WidgetList';
  metadata?: ListMeta;
  items: Widget[];
}
`;

const typesOf = (version: string, extraKindMarkers = ''): string => `import type { ObjectMeta, ListMeta } from 'kubeforge/api';

/** WidgetSpec defines the desired state of Widget. */
export interface WidgetSpec {
  /** Colour of the widget. */
  colour: string;
}

/** Widget is the Schema for the widgets API. */
// +kubebuilder:object:root=true${extraKindMarkers}
export interface Widget {
  apiVersion: 'batch.example.com/${version}';
  kind: 'Widget';
  metadata?: ObjectMeta;
  spec?: WidgetSpec;
}

/** WidgetList contains a list of Widget. */
// +kubebuilder:object:root=true
export interface WidgetList {
  apiVersion: 'batch.example.com/${version}';
  kind: 'WidgetList';
  metadata?: ListMeta;
  items: Widget[];
}
`;

const V1 = 'api/v1/widget_types.ts';
const SPROCKET = 'api/v1/sprocket_types.ts';
const SPROCKET_TYPES = `import type { ObjectMeta } from 'kubeforge/api';

/** Sprocket is a kind that goes away. */
// +kubebuilder:object:root=true
export interface Sprocket {
  apiVersion: 'batch.example.com/v1';
  kind: 'Sprocket';
  metadata?: ObjectMeta;
}
`;
const CRD = 'widgets.batch.example.com';

let repo: string;
/** What the last comparison printed on stderr, shown when a finding is missing. */
let lastStderr = '';
const commits = new Map<string, string>();

function run(command: string, args: string[], cwd = repo) {
  const result = spawnSync(command, args, { cwd, encoding: 'utf8' });
  if (result.status !== 0) throw new Error(`${command} ${args.join(' ')}: ${result.stderr}`);
  return result.stdout.trim();
}

function write(path: string, text: string, root = repo): void {
  mkdirSync(dirname(join(root, path)), { recursive: true });
  writeFileSync(join(root, path), text);
}

/** Replaces `from` by `to` in a file of the repository; fails when `from` is not there (the history would be wrong). */
function edit(path: string, from: string, to: string): void {
  const text = readFileSync(join(repo, path), 'utf8');
  if (!text.includes(from)) throw new Error(`${path}: "${from}" not found`);
  write(path, text.replace(from, () => to));
}

function commit(name: string): void {
  run('git', ['add', '-A']);
  run('git', ['-c', 'user.name=test', '-c', 'user.email=test@example.com', 'commit', '-q', '-m', name]);
  commits.set(name, run('git', ['rev-parse', 'HEAD']));
}

/** `kubeforge <args>` on the project at `root`: its exit status and what it printed. */
async function kubeforge(args: string[], root = repo) {
  const { code, stdout, stderr } = await runCli([...args, '--root', root]);
  return { status: code, stdout, stderr };
}

interface PrintedFinding {
  file: string;
  line: number;
  column: number;
  status: string;
  text: string;
  id: string;
}

/** The findings as printed: `file:line:col: status: text` then `  id: <id>`. */
function findings(stdout: string): PrintedFinding[] {
  const out: PrintedFinding[] = [];
  const lines = stdout.split('\n');
  lines.forEach((line, i) => {
    const m = /^(\S+?):(\d+):(\d+): (breaking, acknowledged|breaking|non-breaking): (.*)$/.exec(line);
    const id = /^ {2}id: (\S+)$/.exec(lines[i + 1] ?? '');
    if (m && id) out.push({ file: m[1]!, line: Number(m[2]), column: Number(m[3]), status: m[4]!, text: m[5]!, id: id[1]! });
  });
  return out;
}

/** Checks out commit `to` and compares it with commit `from`. */
async function compare(from: string, to: string) {
  run('git', ['checkout', '-q', '--detach', commits.get(to)!]);
  run('git', ['clean', '-q', '-fdx']);
  const result = await kubeforge(['manifests', '--compat', commits.get(from)!]);
  lastStderr = result.stderr;
  return { ...result, findings: findings(result.stdout) };
}

/** The position of `needle` in a file of the checked-out commit. */
function at(path: string, needle: string): { file: string; line: number; column: number } {
  return { file: path, ...positionOf(readFileSync(join(repo, path), 'utf8'), needle) };
}

function finding(list: PrintedFinding[], id: string): PrintedFinding {
  const found = list.find((f) => f.id === id);
  if (!found) throw new Error(`no finding ${id} among:\n${list.map((f) => f.id).join('\n')}\nstderr: ${lastStderr}`);
  return found;
}

const where = (f: PrintedFinding) => ({ file: f.file, line: f.line, column: f.column });

beforeAll(() => {
  repo = mkdtempSync(join(tmpdir(), 'kubeforge-api-compat-'));
  run('git', ['init', '-q', '-b', 'main']);
  write('PROJECT', PROJECT);
  write('api/v1/groupversion_info.ts', GROUP_INFO('v1'));
  write(V1, TYPES_V1);
  write('api/v1beta1/groupversion_info.ts', GROUP_INFO('v1beta1'));
  write('api/v1beta1/widget_types.ts', typesOf('v1beta1'));
  write(SPROCKET, SPROCKET_TYPES);
  commit('base');

  // Compatible: a new optional field, looser bounds, a wider enum, a new version.
  edit(V1, '  /** Replicas. */', '  /** A label. */\n  label?: string;\n\n  /** Replicas. */');
  edit(V1, 'Maximum=10', 'Maximum=20');
  edit(V1, 'MaxLength=20', 'MaxLength=30');
  edit(V1, 'Enum=red;green;blue', 'Enum=red;green;blue;yellow');
  write('api/v2/groupversion_info.ts', GROUP_INFO('v2'));
  write('api/v2/widget_types.ts', typesOf('v2'));
  commit('compatible');

  edit(V1, '  /** A note nobody reads. */\n  note?: string;\n\n', '');
  commit('field-removed');

  edit(V1, 'replicas?: int32;', 'replicas?: string;');
  commit('type-changed');

  edit(V1, '  /** A label. */', '  /** Who owns it. */\n  owner: string;\n\n  /** A label. */');
  commit('required-added');

  edit(V1, 'Minimum=1', 'Minimum=2');
  edit(V1, 'MaxLength=30', 'MaxLength=5\n  // +kubebuilder:validation:Pattern=`^[a-z]+$`');
  edit(V1, 'Enum=red;green;blue;yellow', 'Enum=red;green;yellow');
  edit(V1, '  /** Tags. */', '  /** Tags. */\n  // +kubebuilder:validation:MinItems=1');
  commit('tightened');

  edit(V1, '  size?: string;', `  // +kubebuilder:validation:XValidation:rule="self != 'huge'",message="no huge widgets"\n  size?: string;`);
  edit(V1, '  name?: string;', '  // +kubebuilder:validation:XValidation:rule="self == oldSelf",message="name is immutable"\n  name?: string;');
  edit(V1, '  tags?: string[];', '  // +kubebuilder:validation:XValidation:rule="self.size() >= 2",message="two tags at least",optionalOldSelf=true\n  tags?: string[];');
  commit('cel');

  edit(V1, 'default=small', 'default=medium');
  commit('default-changed');

  edit('api/v1beta1/widget_types.ts', '// +kubebuilder:object:root=true\nexport interface Widget {', '// +kubebuilder:object:root=true\n// +kubebuilder:unservedversion\nexport interface Widget {');
  commit('version-unserved');

  rmSync(join(repo, 'api/v1beta1'), { recursive: true });
  commit('version-removed');

  edit(V1, 'resource:shortName=wg;wdg', 'resource:shortName=wg,scope=Cluster,path=gadgets');
  commit('names');

  rmSync(join(repo, SPROCKET));
  commit('kind-removed');
});

afterAll(() => {
  if (repo) rmSync(repo, { recursive: true, force: true });
});

describe('kubeforge manifests --compat <ref>', () => {
  it('passes on compatible changes and lists each as non-breaking at its source line', async () => {
    const result = await compare('base', 'compatible');
    expect(result.status).toBe(0);
    const list = result.findings;
    expect(list.every((f) => f.status === 'non-breaking')).toBe(true);
    expect(where(finding(list, `${CRD}/v1/spec.label:field-added`))).toEqual(at(V1, 'label?:'));
    expect(where(finding(list, `${CRD}/v1/spec.count:maximum-loosened`))).toEqual(at(V1, '+kubebuilder:validation:Maximum'));
    expect(where(finding(list, `${CRD}/v1/spec.name:maxLength-loosened`))).toEqual(at(V1, '+kubebuilder:validation:MaxLength'));
    expect(finding(list, `${CRD}/v1/spec.colour:enum-widened`).text).toContain('enum values "yellow" added');
    expect(where(finding(list, `${CRD}/v2:version-added`))).toEqual(at('api/v2/widget_types.ts', 'Widget {'));
    expect(list).toHaveLength(5);
    expect(result.stdout).toMatch(/--compat [0-9a-f]{40} \([0-9a-f]{12}\): 0 breaking \(0 acknowledged\), 5 non-breaking\n$/);
  });

  it('fails on a removed field, pointing at the type that lost it', async () => {
    const result = await compare('compatible', 'field-removed');
    expect(result.status).toBe(1);
    expect(result.findings).toHaveLength(1);
    const removed = finding(result.findings, `${CRD}/v1/spec.note:field-removed`);
    expect(removed.status).toBe('breaking');
    expect(removed.text).toContain('field note removed');
    expect(where(removed)).toEqual(at(V1, 'WidgetSpec {'));
    expect(result.stderr).toContain('1 breaking change not acknowledged');
  });

  it('fails on a changed type, at the field', async () => {
    const result = await compare('field-removed', 'type-changed');
    expect(result.status).toBe(1);
    const changed = finding(result.findings, `${CRD}/v1/spec.replicas:type-changed`);
    expect(changed.status).toBe('breaking');
    expect(changed.text).toContain('type changed from integer to string');
    expect(where(changed)).toEqual(at(V1, 'replicas?:'));
  });

  it('fails on a new required field, and says a new optional one is not breaking', async () => {
    const result = await compare('type-changed', 'required-added');
    expect(result.status).toBe(1);
    expect(where(finding(result.findings, `${CRD}/v1/spec.owner:required-field-added`))).toEqual(at(V1, 'owner:'));
    expect(result.findings.map((f) => f.status)).toEqual(['breaking']);
  });

  it('fails on tightened validation: a raised minimum, a lowered maxLength, a new pattern, a narrowed enum, a new minItems', async () => {
    const result = await compare('required-added', 'tightened');
    expect(result.status).toBe(1);
    const list = result.findings;
    expect(where(finding(list, `${CRD}/v1/spec.count:minimum-tightened`))).toEqual(at(V1, '+kubebuilder:validation:Minimum'));
    expect(where(finding(list, `${CRD}/v1/spec.name:maxLength-tightened`))).toEqual(at(V1, '+kubebuilder:validation:MaxLength'));
    expect(where(finding(list, `${CRD}/v1/spec.name:pattern-added`))).toEqual(at(V1, '+kubebuilder:validation:Pattern'));
    const narrowed = finding(list, `${CRD}/v1/spec.colour:enum-narrowed`);
    expect(narrowed.text).toContain('enum values "blue" removed');
    expect(where(narrowed)).toEqual(at(V1, '+kubebuilder:validation:Enum'));
    expect(where(finding(list, `${CRD}/v1/spec.tags:minItems-tightened`))).toEqual(at(V1, '+kubebuilder:validation:MinItems'));
    expect(list).toHaveLength(5);
    expect(list.every((f) => f.status === 'breaking')).toBe(true);
  });

  it('fails on a new CEL rule, but not on a transition rule or one with optionalOldSelf', async () => {
    const result = await compare('tightened', 'cel');
    expect(result.status).toBe(1);
    const byField = (path: string) => result.findings.filter((f) => f.id.startsWith(`${CRD}/v1/${path}:cel-rule-added`));
    const [plain] = byField('spec.size');
    const [transition] = byField('spec.name');
    const [optional] = byField('spec.tags');
    expect(plain!.status).toBe('breaking');
    expect(where(plain!)).toEqual(at(V1, `+kubebuilder:validation:XValidation:rule="self != 'huge'"`));
    expect(transition!.status).toBe('non-breaking');
    expect(transition!.text).toContain('transition rule');
    expect(where(transition!)).toEqual(at(V1, '+kubebuilder:validation:XValidation:rule="self == oldSelf"'));
    expect(optional!.status).toBe('non-breaking');
    expect(optional!.text).toContain('optionalOldSelf');
    expect(result.findings).toHaveLength(3);
  });

  it('reports a changed default as breaking, at the default marker', async () => {
    const result = await compare('cel', 'default-changed');
    expect(result.status).toBe(1);
    const changed = finding(result.findings, `${CRD}/v1/spec.size:default-changed`);
    expect(changed.text).toContain('default changed from "small" to "medium"');
    expect(where(changed)).toEqual(at(V1, '+kubebuilder:default'));
  });

  it('fails on a version made unserved or removed, saying storedVersions cannot be known from the sources', async () => {
    const unserved = await compare('default-changed', 'version-unserved');
    expect(unserved.status).toBe(1);
    const notServed = finding(unserved.findings, `${CRD}/v1beta1:version-unserved`);
    expect(notServed.text).toContain('storedVersions');
    expect(notServed.text).toContain('cannot be known from the sources');
    expect(where(notServed)).toEqual(at('api/v1beta1/widget_types.ts', '+kubebuilder:unservedversion'));

    const removed = await compare('version-unserved', 'version-removed');
    expect(removed.status).toBe(1);
    const gone = finding(removed.findings, `${CRD}/v1beta1:version-removed`);
    expect(gone.status).toBe('breaking');
    expect(gone.text).toContain('storedVersions');
    // The version's files are gone: the finding points at the storage version that stays.
    expect(where(gone)).toEqual(at(V1, '+kubebuilder:storageversion'));
  });

  it('fails on a changed scope, plural and a removed short name, at the resource marker', async () => {
    const result = await compare('version-removed', 'names');
    expect(result.status).toBe(1);
    const resource = at(V1, '+kubebuilder:resource');
    for (const id of ['gadgets.batch.example.com:scope-changed', 'gadgets.batch.example.com:plural-changed', 'gadgets.batch.example.com:short-name-removed:wdg']) {
      const f = finding(result.findings, id);
      expect(f.status).toBe('breaking');
      expect(where(f)).toEqual(resource);
    }
  });

  it('fails on a removed kind, pointing at its type in the API at the ref', async () => {
    const result = await compare('names', 'kind-removed');
    expect(result.status).toBe(1);
    expect(result.findings).toHaveLength(1);
    const gone = finding(result.findings, 'sprockets.batch.example.com:crd-removed');
    expect(gone.status).toBe('breaking');
    expect(gone.text).toContain('storedVersions');
    expect(where(gone)).toEqual({ ...positionOf(SPROCKET_TYPES, 'Sprocket {'), file: `${commits.get('names')}:${SPROCKET}` });
  });

  it('passes once every breaking change is acknowledged in api-compat.yaml, and reports them as acknowledged', async () => {
    const first = await compare('required-added', 'tightened');
    expect(first.status).toBe(1);
    const breaking = first.findings.filter((f) => f.status === 'breaking');
    expect(breaking.length).toBeGreaterThan(1);

    // One acknowledged: still failing, for the others.
    write('api-compat.yaml', `acknowledged:\n  - id: ${breaking[0]!.id}\n    reason: no object uses it yet\n`);
    const partly = await kubeforge(['manifests', '--compat', commits.get('required-added')!]);
    expect(partly.status).toBe(1);
    expect(finding(findings(partly.stdout), breaking[0]!.id).status).toBe('breaking, acknowledged');
    expect(partly.stdout).toContain('reason (api-compat.yaml:2): no object uses it yet');

    write('api-compat.yaml', `acknowledged:\n${breaking.map((f) => `  - id: "${f.id}"\n    reason: accepted for 2.0\n`).join('')}  - id: nothing/v9:version-removed\n    reason: an old one\n`);
    const before = treeFingerprint(repo + '/api');
    const accepted = await kubeforge(['manifests', '--compat', commits.get('required-added')!]);
    expect(accepted.status).toBe(0);
    const list = findings(accepted.stdout);
    expect(list.map((f) => f.status)).toEqual(breaking.map(() => 'breaking, acknowledged'));
    expect(accepted.stdout).toContain(`${breaking.length} breaking (${breaking.length} acknowledged), 0 non-breaking`);
    expect(accepted.stderr).toContain(`api-compat.yaml:${2 + 2 * breaking.length}: warning: "nothing/v9:version-removed" matches no finding`);
    // The check writes nothing.
    expect(treeFingerprint(repo + '/api')).toEqual(before);
    expect(existsSync(join(repo, 'config'))).toBe(false);
  });

  it('names the file, line and field of a malformed acknowledgement, and compares nothing', async () => {
    run('git', ['checkout', '-q', '--detach', commits.get('tightened')!]);
    write('api-compat.yaml', 'acknowledged:\n  - id: x:y\n    reason: fine\n  - id: a:b\n');
    const result = await kubeforge(['manifests', '--compat', commits.get('base')!]);
    expect(result.status).toBe(1);
    expect(result.stdout).toBe('');
    expect(result.stderr.trim()).toBe('kubeforge manifests --compat: api-compat.yaml:4: acknowledged[1].reason: expected why the change is accepted (a non-empty string)');
  });

  it('says in one line when the ref does not exist', async () => {
    const result = await compare('base', 'compatible');
    expect(result.status).toBe(0);
    const missing = await kubeforge(['manifests', '--compat', 'v9.9.9']);
    expect(missing.status).toBe(1);
    expect(missing.stdout).toBe('');
    expect(missing.stderr).toBe(`kubeforge manifests --compat: "v9.9.9" is not a commit, branch or tag of the git repository at ${repo}\n`);
  });

  it('says in one line when the project is not in git', async () => {
    const lone = mkdtempSync(join(tmpdir(), 'kubeforge-api-compat-nogit-'));
    try {
      write('PROJECT', PROJECT, lone);
      write('api/v1/groupversion_info.ts', GROUP_INFO('v1'), lone);
      write(V1, TYPES_V1, lone);
      const result = await kubeforge(['manifests', '--compat', 'main'], lone);
      expect(result.status).toBe(1);
      expect(result.stderr.trim().split('\n')).toEqual([`kubeforge manifests --compat: ${lone} is not in a git repository: the check reads the API at a git ref (git init, commit, then compare)`]);
    } finally {
      rmSync(lone, { recursive: true, force: true });
    }
  });

  it('stops with the errors, file:line first, when the API at the ref or today does not generate', async () => {
    const other = mkdtempSync(join(tmpdir(), 'kubeforge-api-compat-broken-'));
    try {
      write('PROJECT', PROJECT, other);
      write('api/v1/groupversion_info.ts', GROUP_INFO('v1'), other);
      write(V1, TYPES_V1.replace('Minimum=1', 'Minimun=1'), other);
      run('git', ['init', '-q'], other);
      run('git', ['add', '-A'], other);
      run('git', ['-c', 'user.name=test', '-c', 'user.email=test@example.com', 'commit', '-q', '-m', 'broken'], other);
      const broken = run('git', ['rev-parse', 'HEAD'], other);
      const typo = positionOf(readFileSync(join(other, V1), 'utf8'), '+kubebuilder:validation:Minimun');

      // Today's types have the typo: reported as manifests reports it.
      const today = await kubeforge(['manifests', '--compat', 'HEAD'], other);
      expect(today.status).toBe(1);
      expect(today.stdout).toBe('');
      expect(today.stderr).toContain(`${V1}:${typo.line}:${typo.column}: unknown marker "+kubebuilder:validation:Minimun"`);
      expect(today.stderr).toContain("kubeforge manifests --compat: today's API types have errors (above); nothing was compared");

      // Fixed today, the ref still has it: its errors carry the ref.
      write(V1, TYPES_V1, other);
      const atRef = await kubeforge(['manifests', '--compat', broken], other);
      expect(atRef.status).toBe(1);
      expect(atRef.stdout).toBe('');
      expect(atRef.stderr).toContain(`${broken}:${V1}:${typo.line}:${typo.column}: unknown marker "+kubebuilder:validation:Minimun"`);
      expect(atRef.stderr).toContain(`kubeforge manifests --compat: the API types at ${broken} do not generate with this kubeforge (above); nothing was compared`);
    } finally {
      rmSync(other, { recursive: true, force: true });
    }
  });

  it('reads a project that is a folder of a bigger repository (as the examples are)', async () => {
    const outer = mkdtempSync(join(tmpdir(), 'kubeforge-api-compat-outer-'));
    try {
      const project = join(outer, 'operators/widgets');
      write('PROJECT', PROJECT, project);
      write('api/v1/groupversion_info.ts', GROUP_INFO('v1'), project);
      write(V1, TYPES_V1, project);
      run('git', ['init', '-q'], outer);
      run('git', ['add', '-A'], outer);
      run('git', ['-c', 'user.name=test', '-c', 'user.email=test@example.com', 'commit', '-q', '-m', 'base'], outer);
      write(V1, TYPES_V1.replace('Minimum=1', 'Minimum=3'), project);
      const result = await kubeforge(['manifests', '--compat', 'HEAD'], project);
      expect(result.stderr).toContain('1 breaking change not acknowledged');
      expect(result.status).toBe(1);
      const list = findings(result.stdout);
      expect(list.map((f) => f.id)).toEqual([`${CRD}/v1/spec.count:minimum-tightened`]);
      expect(where(list[0]!)).toEqual({ file: V1, ...positionOf(readFileSync(join(project, V1), 'utf8'), '+kubebuilder:validation:Minimum') });
    } finally {
      rmSync(outer, { recursive: true, force: true });
    }
  });
});
