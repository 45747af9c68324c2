// `kubeforge generate` with a hand-written deep copy in the api folder (§14): the generated file leaves that
// function out and calls the hand-written one; a misdeclared one is a file:line:col error that writes nothing.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { makeProject, removeProjects, runCli, treeFingerprint, positionOf } from './cli-harness.js';

afterAll(removeProjects);

const HAND_WRITTEN = `import type { WidgetPart } from './widget_types.js';

/** Copies a part; written by hand to show the generator leaves it alone. */
export function deepCopyWidgetPart(value: WidgetPart): WidgetPart {
  return { name: value.name, count: value.count };
}
`;

describe('kubeforge generate with a hand-written deepCopy<Type>', () => {
  it('does not generate deepCopyWidgetPart and calls the hand-written one', async () => {
    const project = makeProject('good', { 'api/v1/widget_part_copy.ts': HAND_WRITTEN });
    const result = await runCli(['generate', '--root', project]);
    expect(result).toMatchObject({ code: 0, stderr: '' });
    const text = readFileSync(join(project, 'api/v1/zz_generated.deepcopy.ts'), 'utf8');
    expect(text).not.toContain('function deepCopyWidgetPart(');
    expect(text).toContain("import { deepCopyWidgetPart } from './widget_part_copy.js';");
    expect(text).toMatch(/deepCopyWidgetPart\(value\[i\]!\)/);
    expect(text).toContain('export function deepCopyWidgetSpec(');
  });

  it('rejects a deepCopy<Type> that is not a function, at file:line:col, and writes nothing', async () => {
    const bad = `import type { WidgetPart } from './widget_types.js';\n\nexport const deepCopyWidgetPart: WidgetPart = { name: 'x', count: 1 };\n`;
    const project = makeProject('good', { 'api/v1/widget_part_copy.ts': bad });
    const before = treeFingerprint(project);
    const result = await runCli(['generate', '--root', project]);
    const { line, column } = positionOf(bad, 'deepCopyWidgetPart');
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(
      `api/v1/widget_part_copy.ts:${line}:${column}: deepCopyWidgetPart is a constant that is not a function: a hand-written deep copy of WidgetPart must be a function (value: WidgetPart): WidgetPart`,
    );
    expect(existsSync(join(project, 'api/v1/zz_generated.deepcopy.ts'))).toBe(false);
    expect(treeFingerprint(project)).toEqual(before);
  });
});
