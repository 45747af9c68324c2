// CEL at generate time: `kubeforge manifests` compiles and cost-estimates every x-kubernetes-validations rule with
// the local cluster's own CRD-write checks. A rule the API server would refuse is an error at the marker's
// file:line:col quoting the server's field error (with the estimated cost and the limit for cost refusals);
// the run exits 1 and writes nothing. Every message is also compared with what the local cluster answers
// when the CRD the generator would have written (the same text without the check) is created there.
import { join } from 'node:path';
import { readFileSync } from 'node:fs';
import { parse } from 'yaml';
import { makeProject, removeProjects, runCli, treeFingerprint, fixtureFile, positionOf } from './cli-harness.js';
import { planManifests } from '../../src/cli/manifests.js';
import { validateCrd } from '../../src/cluster/crd/crd-kind.js';
import { fieldErrorText } from '../../src/cluster/errors/field-errors.js';
import { buildCrds } from '../../src/generate/crd/index.js';
import { loadApiProject } from '../../src/reader/index.js';

afterAll(removeProjects);

const widgetTypes = fixtureFile('good', 'api/v1/widget_types.ts');
const widgetFile = 'api/v1/widget_types.ts';
const refused = 'would be refused by the API server: ';

/** Replaces `from` (which must occur) in the widget types. */
function widgetsWith(from: string, to: string): string {
  if (!widgetTypes.includes(from)) throw new Error(`fixture text not found: ${from}`);
  return widgetTypes.replace(from, to);
}

/** The CRD-write errors the local cluster gives for the Widget CRD built from `text` without the CEL check. */
async function clusterErrors(text: string): Promise<string[]> {
  const project = makeProject('good', { [widgetFile]: text });
  const loaded = await loadApiProject({ root: project, apiPaths: ['api'] });
  const built = buildCrds(loaded.model);
  const widget = built.crds.find((c) => c.document.spec.names.kind === 'Widget')!;
  return validateCrd(structuredClone(widget.document) as never).map(fieldErrorText);
}

interface RuleCase {
  /** Text put before `colour: string;` of WidgetSpec (a field marker and the field). */
  field: string;
  /** What the error line says after the marker and rule, as a regular expression over the whole message. */
  says: RegExp;
}

const cases: Record<string, RuleCase> = {
  'a syntax error': {
    field: '  // +kubebuilder:validation:XValidation:rule="self.size( > 1"\n  name?: string;\n',
    says: /compilation failed: ERROR: <input>:1:\d+: Syntax error/,
  },
  'an unknown field': {
    field: '  // +kubebuilder:validation:XValidation:rule="self.nam == \'x\'"\n  part?: WidgetPart;\n',
    says: /compilation failed: ERROR: <input>:1:5: undefined field 'nam'/,
  },
  'a rule that is not a bool': {
    field: '  // +kubebuilder:validation:XValidation:rule="self + \'x\'"\n  name?: string;\n',
    says: /Invalid value: .*: cel expression must evaluate to a bool$/,
  },
  'a messageExpression that does not compile': {
    field: '  // +kubebuilder:validation:XValidation:rule="self != \'\'",messageExpression="self.nope"\n  name?: string;\n',
    says: /messageExpression compilation failed: ERROR: <input>:1:\d+: /,
  },
  'a fieldPath naming no field': {
    field: '  // +kubebuilder:validation:XValidation:rule="has(self.name)",fieldPath=".nmae"\n  part?: WidgetPart;\n',
    says: /fieldPath: Invalid value: "\.nmae": fieldPath must be a valid path$/,
  },
  'oldSelf on an item of a list without keys': {
    field: '  // +kubebuilder:validation:items:XValidation:rule="self == oldSelf"\n  // +kubebuilder:validation:MaxItems=10\n  // +kubebuilder:validation:items:MaxLength=10\n  tags?: string[];\n',
    says: /oldSelf cannot be used on the uncorrelatable portion of the schema within/,
  },
  'optionalOldSelf without oldSelf': {
    field: '  // +kubebuilder:validation:XValidation:rule="self != \'\'",optionalOldSelf=true\n  name?: string;\n',
    says: /optionalOldSelf: Invalid value: true: may not be set if oldSelf is not used in rule$/,
  },
  'a rule over the per-rule cost limit': {
    field: '  // +kubebuilder:validation:XValidation:rule="self.all(x, self.all(y, x.contains(y)))"\n  names?: string[];\n',
    says: /estimated cost [\d.e+]+ exceeds the per-rule limit 10000000; .*x-kubernetes-validations\[0\]\.rule: Forbidden: estimated rule cost exceeds budget by factor of more than 100x \(try simplifying the rule/,
  },
};

describe('kubeforge manifests checks CEL rules as the API server does when the CRD is created', () => {
  it.each(Object.keys(cases))("reports %s at the marker, in the API server's words, exits 1 and writes nothing", async (name) => {
    const bad = cases[name]!;
    const text = widgetsWith('  /** Colour of the widget. */\n', `${bad.field}  /** Colour of the widget. */\n`);
    const project = makeProject('good', { [widgetFile]: text });
    const before = treeFingerprint(project);
    const result = await runCli(['manifests', '--root', project]);
    expect(result.code).toBe(1);
    expect(result.stdout).toBe('');
    expect(treeFingerprint(project)).toEqual(before);
    const marker = bad.field.match(/\+kubebuilder:validation:(items:)?XValidation/)![0];
    const at = positionOf(text, `${marker}:`);
    const prefix = `${widgetFile}:${at.line}:${at.column}: ${marker} rule `;
    const report = result.stderr.slice(0, result.stderr.lastIndexOf('\nkubeforge manifests:'));
    expect(report.slice(0, prefix.length)).toBe(prefix);
    expect(report).toMatch(bad.says);
    // The quoted field errors are exactly those the local cluster gives when the CRD is created.
    const quoted = report
      .split(/\n(?=api\/v1\/)/)
      .map((d) => d.slice(d.indexOf(refused) + refused.length).replace(/^estimated cost .*?; /, ''));
    expect(quoted.sort()).toEqual((await clusterErrors(text)).sort());
  });

  it('reports the per-CRD cost limit at the most expensive rules and at the kind, with the total and the limit', async () => {
    // Each rule is below the per-rule limit (10^7); twelve of them go over the per-CRD limit (10^8).
    const rule = (i: number): string =>
      `  // +kubebuilder:validation:MaxItems=300000\n  // +kubebuilder:validation:items:MaxLength=63\n  // +kubebuilder:validation:XValidation:rule="self.all(x, x.contains('a${i}'))"\n  list${i}?: string[];\n`;
    const fields = Array.from({ length: 12 }, (_, i) => rule(i)).join('');
    const text = widgetsWith('  /** Colour of the widget. */\n', `${fields}  /** Colour of the widget. */\n`);
    const project = makeProject('good', { [widgetFile]: text });
    const before = treeFingerprint(project);
    const result = await runCli(['manifests', '--root', project]);
    expect(result.code).toBe(1);
    expect(treeFingerprint(project)).toEqual(before);
    const lines = result.stderr.trim().split('\n');
    const kindAt = positionOf(text, 'Widget {');
    expect(lines).toContainEqual(
      expect.stringMatching(
        new RegExp(
          `^${widgetFile}:${kindAt.line}:${kindAt.column}: kind Widget would be refused by the API server: estimated cost of all the CRD's rules \\d+ exceeds the per-CRD limit 100000000; spec\\.validation\\.openAPIV3Schema: Forbidden: x-kubernetes-validations estimated rule & messageExpression cost total for entire OpenAPIv3 schema exceeds budget by factor of`,
        ),
      ),
    );
    const contributors = lines.filter((l) =>
      l.includes('contributed to estimated rule & messageExpression cost total exceeding cost limit for entire OpenAPIv3 schema'),
    );
    expect(contributors).toHaveLength(4);
    for (const line of contributors)
      expect(line).toMatch(
        /^api\/v1\/widget_types\.ts:\d+:6: \+kubebuilder:validation:XValidation rule "self\.all\(x, x\.contains\('a\d+'\)\)" would be refused/,
      );
    // no rule is refused alone
    expect(lines.filter((l) => l.includes('per-rule limit'))).toEqual([]);
    expect(lines.at(-1)).toBe('kubeforge manifests: 5 errors; no file was written');
  });

  it('names a rule of one version of several by that version, as the server does when their schemas differ', async () => {
    const v2 = widgetsWith("'batch.example.com/v1'", "'batch.example.com/v2'")
      .replace("apiVersion: 'batch.example.com/v1';\n  kind: 'WidgetList'", "apiVersion: 'batch.example.com/v2';\n  kind: 'WidgetList'")
      .replace('// +kubebuilder:object:root=true\n// +kubebuilder:resource', '// +kubebuilder:object:root=true\n// +kubebuilder:storageversion\n// +kubebuilder:resource')
      .replace('  /** Colour of the widget. */\n', '  // +kubebuilder:validation:XValidation:rule="self.size() > 0"\n  part?: WidgetPart;\n  /** Colour of the widget. */\n');
    const info = fixtureFile('good', 'api/v1/groupversion_info.ts').replace("version: 'v1'", "version: 'v2'");
    const project = makeProject('good', { 'api/v2/widget_types.ts': v2, 'api/v2/groupversion_info.ts': info });
    const result = await runCli(['manifests', '--root', project]);
    const at = positionOf(v2, '+kubebuilder:validation:XValidation');
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(
      `api/v2/widget_types.ts:${at.line}:${at.column}: +kubebuilder:validation:XValidation rule "self.size() > 0" would be refused by the API server: spec.versions[1].schema.openAPIV3Schema.properties[spec].properties[part].x-kubernetes-validations[0].rule: Invalid value: apiextensions.ValidationRule{Rule:"self.size() > 0"`,
    );
  });

  it('reports the rule of a k8s:immutable marker at that marker', async () => {
    // a list without keys: `self == oldSelf` inside its items cannot be correlated
    const text = widgetsWith('  /** Name of the part. */\n  name: string;', '  /** Name of the part. */\n  // +k8s:immutable\n  name: string;').replace(
      '  // +listType=map\n  // +listMapKey=name\n  parts?: WidgetPart[];',
      '  parts?: WidgetPart[];',
    );
    const project = makeProject('good', { [widgetFile]: text });
    const result = await runCli(['manifests', '--root', project]);
    const at = positionOf(text, '+k8s:immutable');
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(
      `${widgetFile}:${at.line}:${at.column}: +k8s:immutable rule "self == oldSelf" would be refused by the API server: spec.validation.openAPIV3Schema.properties[spec].properties[parts].items.properties[name].x-kubernetes-validations[0].rule: Invalid value: "self == oldSelf": oldSelf cannot be used on the uncorrelatable portion of the schema within spec.validation.openAPIV3Schema.properties[spec].properties[parts]`,
    );
  });

  it('accepts good rules, incl. transition rules and messageExpressions, and writes them', async () => {
    const good =
      '  // +kubebuilder:validation:MaxLength=63\n' +
      '  // +kubebuilder:validation:XValidation:rule="self == oldSelf",message="name is immutable"\n' +
      "  // +kubebuilder:validation:XValidation:rule=\"self.startsWith('w-')\",messageExpression=\"'name ' + self + ' must start with w-'\"\n" +
      '  name?: string;\n';
    const text = widgetsWith('  /** Colour of the widget. */\n', `${good}  /** Colour of the widget. */\n`);
    const project = makeProject('good', { [widgetFile]: text });
    const result = await runCli(['manifests', '--root', project]);
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    const crd = parse(readFileSync(join(project, 'config/crd/bases/batch.example.com_widgets.yaml'), 'utf8'));
    const rules = crd.spec.versions[0].schema.openAPIV3Schema.properties.spec.properties.name['x-kubernetes-validations'];
    expect(rules.map((r: { rule: string }) => r.rule)).toEqual(['self == oldSelf', "self.startsWith('w-')"]);
    expect(await clusterErrors(text)).toEqual([]);
  });

  it('reports nothing for a project without rules', async () => {
    const run = await planManifests({ root: makeProject('good') });
    expect(run.diagnostics).toEqual([]);
    expect(run.files.length).toBeGreaterThan(0);
  });
});
