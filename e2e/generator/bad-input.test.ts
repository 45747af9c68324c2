// Bad input to `kubeforge manifests`, one case per kind of mistake: each is printed as
// `file:line:col: message` (path relative to the project), the exit status is 1, and no file is written
// or changed — not even outputs a previous good run left behind.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { makeProject, removeProjects, runCli, treeFingerprint, fixtureFile, positionOf } from './cli-harness.js';

afterAll(removeProjects);

const cronjobTypes = fixtureFile('good', 'api/v1/cronjob_types.ts');
const widgetTypes = fixtureFile('good', 'api/v1/widget_types.ts');

/** Replaces `from` (which must occur) in a fixture text. */
function edit(text: string, from: string, to: string): string {
  if (!text.includes(from)) throw new Error(`fixture text not found: ${from}`);
  return text.replace(from, to);
}

interface BadCase {
  file: string;
  text: string;
  /** Where the error points: the first occurrence of this text, moved right by `offset` columns. */
  at: string;
  offset?: number;
  message: string;
}

const cases: Record<string, BadCase> = {
  'an unknown marker, with "did you mean"': {
    file: 'api/v1/cronjob_types.ts',
    text: edit(cronjobTypes, '+kubebuilder:validation:MinLength=0', '+kubebuilder:validation:MinLenght=0'),
    at: '+kubebuilder:validation:MinLenght',
    message: 'unknown marker "+kubebuilder:validation:MinLenght" (did you mean "+kubebuilder:validation:MinLength"?)',
  },
  'a marker on the wrong target': {
    file: 'api/v1/widget_types.ts',
    text: edit(widgetTypes, '  /** Colour of the widget. */', '  /** Colour of the widget. */\n  // +kubebuilder:subresource:status'),
    at: '+kubebuilder:subresource:status',
    message: 'marker "+kubebuilder:subresource:status" cannot be used on a field (it applies to: type)',
  },
  'a bad marker argument': {
    file: 'api/v1/widget_types.ts',
    text: edit(widgetTypes, '+kubebuilder:validation:Minimum=1', '+kubebuilder:validation:Minimum=one'),
    at: '+kubebuilder:validation:Minimum=one',
    // At the value, after "+kubebuilder:validation:Minimum=".
    offset: '+kubebuilder:validation:Minimum='.length,
    message: 'marker "+kubebuilder:validation:Minimum=one": expected integer or float, got "one"',
  },
  'conflicting types (a field marker against its named type)': {
    file: 'api/v1/widget_types.ts',
    text: edit(
      edit(widgetTypes, 'export interface WidgetPart', 'export type Rank = int32;\n\nexport interface WidgetPart'),
      '  /** Colour of the widget. */',
      '  /** Size. */\n  // +kubebuilder:validation:Type=string\n  size?: Rank;\n  /** Colour of the widget. */',
    ),
    at: 'size?: Rank',
    message: 'field "size" of WidgetSpec: conflicting types in allOf branches in schema: integer vs string',
  },
  'a type the mapping cannot express': {
    file: 'api/v1/widget_types.ts',
    text: edit(widgetTypes, '  colour: string;', '  colour: string;\n  /** A callback. */\n  onChange?: () => void;'),
    at: '() => void',
    message: 'field "onChange" of WidgetSpec: function type () => void cannot be part of an API type',
  },
  'a non-structural result': {
    file: 'api/v1/widget_types.ts',
    text: edit(widgetTypes, '  /** Spare parts by shelf. */', '  /** Spare parts by shelf. */\n  // +kubebuilder:validation:Schemaless'),
    at: 'export interface Widget {',
    offset: 'export interface '.length,
    message:
      'CRD for kind Widget (batch.example.com): not a valid structural CRD: spec.versions[v1].schema.openAPIV3Schema.properties.spec.properties.spares.type: Required value: must not be empty for specified object fields',
  },
  'a TypeScript syntax error': {
    file: 'api/v1/widget_types.ts',
    text: edit(widgetTypes, '  count: int32;\n}', '  count: int32;\n'),
    at: 'export interface WidgetSpec',
    message: 'syntax error: Property or signature expected.',
  },
  'an RBAC marker without its required verbs': {
    file: 'internal/controller/widget_controller.ts',
    text: '// +kubebuilder:rbac:groups=batch.example.com,resources=widgets\n\nexport const unused = 1;\n',
    at: '+kubebuilder:rbac',
    message: 'marker "+kubebuilder:rbac:groups=batch.example.com,resources=widgets": missing argument "verbs"',
  },
};

describe('kubeforge manifests on bad input', () => {
  it.each(Object.keys(cases))('reports %s as file:line:col: message, exits 1 and writes nothing', async (name) => {
    const bad = cases[name]!;
    const project = makeProject('good', { [bad.file]: bad.text });
    const before = treeFingerprint(project);
    const result = await runCli(['manifests', '--root', project]);
    const at = positionOf(bad.text, bad.at);
    expect(result.stderr.split('\n')).toContain(`${bad.file}:${at.line}:${at.column + (bad.offset ?? 0)}: ${bad.message}`);
    expect(result.code).toBe(1);
    expect(result.stdout).toBe('');
    expect(treeFingerprint(project)).toEqual(before);
  });

  it('reports one mistyped rbac argument once, at the argument, without parser positions', async () => {
    const text = '// +kubebuilder:rbac:groups=batch.example.com,resourcs=widgets,verbs=get;list\n\nexport const unused = 1;\n';
    const project = makeProject('good', { 'internal/controller/widget_controller.ts': text });
    const result = await runCli(['manifests', '--root', project]);
    expect(result.code).toBe(1);
    expect(result.stderr).toBe(
      'internal/controller/widget_controller.ts:1:47: marker "+kubebuilder:rbac:groups=batch.example.com,resourcs=widgets,verbs=get;list": unknown argument "resourcs" (did you mean "resources"?)\n' +
        'kubeforge manifests: 1 error; no file was written\n',
    );
  });

  it('reports a recursive type at the field that recurses, once, with the word "recursive"', async () => {
    const types = edit(widgetTypes, 'export interface WidgetPart', 'export interface Assembly {\n  name?: string;\n  parts?: Assembly[];\n}\n\nexport interface WidgetPart');
    const withUse = edit(types, '  /** Colour of the widget. */', '  assembly?: Assembly;\n  /** Colour of the widget. */');
    const project = makeProject('good', { 'api/v1/widget_types.ts': withUse });
    const result = await runCli(['manifests', '--root', project]);
    const at = positionOf(withUse, 'parts?: Assembly[]');
    expect(result.code).toBe(1);
    const lines = result.stderr.trim().split('\n');
    expect(lines).toHaveLength(2);
    expect(lines[0]).toMatch(new RegExp(`^api/v1/widget_types\\.ts:${at.line}:${at.column}: field "parts" of Assembly: recursive type: spec\\.assembly\\.parts \\(Assembly\\.parts\\) refers back to Assembly`));
    expect(lines[1]).toBe('kubeforge manifests: 1 error; no file was written');
  });

  it('reports a missing +groupName at every kind of the folder', async () => {
    const info = edit(fixtureFile('good', 'api/v1/groupversion_info.ts'), '// +groupName=batch.example.com\n', '');
    const project = makeProject('good', { 'api/v1/groupversion_info.ts': info });
    const before = treeFingerprint(project);
    const result = await runCli(['manifests', '--root', project]);
    const cronjob = positionOf(cronjobTypes, 'export interface CronJob {');
    const widget = positionOf(widgetTypes, 'export interface Widget {');
    const offset = 'export interface '.length;
    expect(result.stderr.split('\n').slice(0, 3)).toEqual([
      `api/v1/cronjob_types.ts:${cronjob.line}:${cronjob.column + offset}: kind CronJob: the folder api/v1 has no +groupName marker (put it in api/v1/groupversion_info.ts)`,
      `api/v1/widget_types.ts:${widget.line}:${widget.column + offset}: kind Widget: the folder api/v1 has no +groupName marker (put it in api/v1/groupversion_info.ts)`,
      'kubeforge manifests: 2 errors; no file was written',
    ]);
    expect(result.code).toBe(1);
    expect(treeFingerprint(project)).toEqual(before);
  });

  it('prints every error of a run at once, from the API types and the controllers alike', async () => {
    const all = cases['an unknown marker, with "did you mean"']!;
    const badArg = cases['a bad marker argument']!;
    const rbac = cases['an RBAC marker without its required verbs']!;
    const project = makeProject('good', { [all.file]: all.text, [badArg.file]: badArg.text, [rbac.file]: rbac.text });
    const result = await runCli(['manifests', '--root', project]);
    const lines = result.stderr.trim().split('\n');
    expect(lines).toHaveLength(4);
    expect(lines[0]).toMatch(/^api\/v1\/cronjob_types\.ts:\d+:\d+: unknown marker/);
    expect(lines[1]).toMatch(/^api\/v1\/widget_types\.ts:\d+:\d+: marker "\+kubebuilder:validation:Minimum=one"/);
    expect(lines[2]).toMatch(/^internal\/controller\/widget_controller\.ts:1:4: marker "\+kubebuilder:rbac/);
    expect(lines[3]).toBe('kubeforge manifests: 3 errors; no file was written');
    expect(result.code).toBe(1);
  });

  it('leaves the outputs of an earlier good run exactly as they were', async () => {
    const project = makeProject('good');
    expect((await runCli(['manifests', '--root', project])).code).toBe(0);
    const bad = cases['a bad marker argument']!;
    // A good change (a new field) in one file, a mistake in another: nothing may be written.
    const cronjob = edit(cronjobTypes, '  suspend?: boolean;', '  suspend?: boolean;\n  /** New. */\n  paused?: boolean;');
    writeFileSync(join(project, 'api/v1/cronjob_types.ts'), cronjob);
    writeFileSync(join(project, bad.file), bad.text);
    const before = treeFingerprint(project);
    const result = await runCli(['manifests', '--root', project]);
    expect(result.code).toBe(1);
    expect(treeFingerprint(project)).toEqual(before);
  });
});
