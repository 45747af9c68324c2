// A hand-written deepCopy<Type> suppresses the generated one (§14): the generated file imports and calls it
// wherever a value of that type is copied, type-checks strictly, and at run time really calls it.
import { mkdtempSync, cpSync, writeFileSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { strictDiagnostics } from '../testdata/strict-typecheck.js';
import { emitDeepCopy } from './index.js';
import { loadApiProject } from '../../reader/index.js';

const here = dirname(fileURLToPath(import.meta.url));
const fixtureRoot = join(here, 'fixtures/handwritten');
const folder = join(fixtureRoot, 'api/v1');

async function emitFixture(): Promise<string> {
  const { model, diagnostics } = await loadApiProject({ root: fixtureRoot });
  expect(diagnostics).toEqual([]);
  const text = emitDeepCopy(model, model.groups[0]!.versions[0]!);
  if (text === undefined) throw new Error('nothing emitted');
  return text;
}

/** Transpiles a module to CommonJS and evaluates it; `modules` answers its run-time imports. */
function evaluate(source: string, modules: Record<string, unknown> = {}): Record<string, unknown> {
  const js = ts.transpileModule(source, { compilerOptions: { module: ts.ModuleKind.CommonJS, target: ts.ScriptTarget.ES2022 } }).outputText;
  const exports: Record<string, unknown> = {};
  new Function('exports', 'require', js)(exports, (specifier: string) => {
    if (!(specifier in modules)) throw new Error(`unexpected run-time import ${specifier}`);
    return modules[specifier];
  });
  return exports;
}

type Copy = (value: unknown) => unknown;

describe('hand-written deep copies', () => {
  let text = '';
  beforeAll(async () => {
    text = await emitFixture();
  });

  it('emits no function for a hand-written type, imports the hand-written ones and calls them', () => {
    expect(text).toContain("import { deepCopyGizmo, deepCopyPart, deepCopySettings } from './gadget_copies.js';");
    // Settings is only ever passed to its hand-written copy, so its type is not imported (noUnusedLocals).
    expect(text).toContain("import type { Gadget, GadgetList, GadgetSpec, Gizmo, Part } from './gadget_types.js';");
    for (const name of ['Part', 'Settings', 'Gizmo']) expect(text).not.toContain(`function deepCopy${name}(`);
    for (const name of ['Gadget', 'GadgetList', 'GadgetSpec']) expect(text).toContain(`export function deepCopy${name}(value: ${name}): ${name} {`);
    expect(text).toContain('    main: deepCopyPart(value.main),');
    expect(text).toContain('out.settings = deepCopySettings(value.settings);');
    expect(text).toContain('for (let i = 0; i < length; i++) out[i] = deepCopyPart(value[i]!);');
    expect(text).toContain('for (const key in value) out[key] = deepCopyPart(value[key]!);');
    expect(text).toContain('  Gizmo: (value: Gizmo): Gizmo => deepCopyGizmo(value),');
    expect(text).toContain('  Gadget: deepCopyGadget,');
  });

  it('type-checks strictly against the types and the hand-written functions', () => {
    const dir = mkdtempSync(join(tmpdir(), 'kubeforge-handwritten-'));
    try {
      cpSync(fixtureRoot, dir, { recursive: true });
      const generatedPath = join(dir, 'api/v1/zz_generated.deepcopy.ts');
      writeFileSync(generatedPath, text);
      expect(strictDiagnostics([generatedPath], dir)).toEqual([]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('calls the hand-written functions at run time, in fields, lists, maps and deepCopyByKind', () => {
    const handWritten = evaluate(readFileSync(join(folder, 'gadget_copies.ts'), 'utf8'));
    const copiedByHand = handWritten.copiedByHand as WeakSet<object>;
    const generated = evaluate(text, { './gadget_copies.js': handWritten });
    const part = (name: string) => ({ name, size: 1 });
    const spec = { main: part('m'), parts: [part('a'), part('b')], partsByName: { c: part('c') }, settings: { flags: { on: true } } };
    const gadget = { apiVersion: 'hw.example.com/v1', kind: 'Gadget', metadata: { name: 'g' }, spec };

    const copy = (generated.deepCopyGadget as Copy)(gadget) as typeof gadget;
    expect(copy).toStrictEqual(gadget);
    expect(copiedByHand.has(copy)).toBe(false);
    for (const made of [copy.spec.main, ...copy.spec.parts, copy.spec.partsByName.c!, copy.spec.settings]) {
      expect(copiedByHand.has(made)).toBe(true);
    }
    expect(copiedByHand.has(spec.main)).toBe(false);

    const byKind = generated.deepCopyByKind as Record<string, Copy>;
    const gizmo = { ...gadget, kind: 'Gizmo' };
    const gizmoCopy = byKind.Gizmo!(gizmo) as object;
    expect(gizmoCopy).toStrictEqual(gizmo);
    expect(copiedByHand.has(gizmoCopy)).toBe(true);
    expect(copiedByHand.has(byKind.Gadget!(gadget) as object)).toBe(false);
  });
});
