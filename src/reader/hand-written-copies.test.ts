// Hand-written deep copies (§14): the reader records an exported `deepCopy<Type>` of the type's folder on the
// type, and reports one that is not exported, not a function, of the wrong shape, or written twice.
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { loadApiProject } from './index.js';

const GV = '// +groupName=toys.example.com\n\nexport {};\n';
const TYPES = `import type { ObjectMeta } from 'kubeforge/api';

export interface Toy {
  apiVersion: 'toys.example.com/v1';
  kind: 'Toy';
  metadata?: ObjectMeta;
  spec?: ToySpec;
}

export interface ToySpec {
  parts: Part[];
}

export interface Part {
  name: string;
}
`;

async function load(files: Record<string, string>) {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'kubeforge-handwritten-'));
  try {
    for (const [rel, text] of Object.entries({ 'api/v1/groupversion_info.ts': GV, 'api/v1/toy_types.ts': TYPES, ...files })) {
      fs.mkdirSync(path.dirname(path.join(root, rel)), { recursive: true });
      fs.writeFileSync(path.join(root, rel), text);
    }
    const { model, diagnostics } = await loadApiProject({ root });
    const handWritten = Object.fromEntries(
      Object.values(model.types).flatMap((t) => (t.handWrittenDeepCopy ? [[t.name, t.handWrittenDeepCopy]] : [])),
    );
    return { handWritten, messages: diagnostics.map((d) => `${d.position.file}:${d.position.line}:${d.position.column}: ${d.message}`) };
  } finally {
    fs.rmSync(root, { recursive: true, force: true });
  }
}

describe('hand-written deep copies', () => {
  it('records exported functions and const arrow functions named deepCopy<Type> of the same folder', async () => {
    const result = await load({
      'api/v1/part_copy.ts': `import type { Part, ToySpec } from './toy_types.js';

export function deepCopyPart(value: Part): Part {
  return { ...value };
}

export const deepCopyToySpec = (value: Readonly<ToySpec>): ToySpec => ({ parts: value.parts.map(deepCopyPart) });

/** Not a type of the folder: an ordinary function. */
export function deepCopyEverything(value: unknown): unknown {
  return value;
}
`,
    });
    expect(result.messages).toEqual([]);
    expect(result.handWritten).toEqual({
      Part: { file: 'api/v1/part_copy.ts', functionName: 'deepCopyPart', position: { file: 'api/v1/part_copy.ts', line: 3, column: 17 } },
      ToySpec: { file: 'api/v1/part_copy.ts', functionName: 'deepCopyToySpec', position: { file: 'api/v1/part_copy.ts', line: 7, column: 14 } },
    });
  });

  it('accepts an unannotated parameter and `export { name }` lists', async () => {
    const result = await load({
      'api/v1/part_copy.ts': `function deepCopyPart(value) {\n  return { ...value };\n}\nexport { deepCopyPart };\n`,
    });
    expect(result.messages).toEqual([]);
    expect(Object.keys(result.handWritten)).toEqual(['Part']);
  });

  it('ignores functions in other folders and in generated files', async () => {
    const result = await load({
      'api/v2/groupversion_info.ts': '// +groupName=toys.example.com\nexport {};\n',
      'api/v2/copies.ts': `export function deepCopyPart(value: unknown) {\n  return value;\n}\n`,
      'api/v1/zz_generated.extra.ts': `export function deepCopyPart(value: unknown) {\n  return value;\n}\n`,
    });
    expect(result.messages).toEqual([]);
    expect(result.handWritten).toEqual({});
  });

  it.each([
    [
      'not exported',
      `function deepCopyPart(value: Part): Part {\n  return value;\n}\n`,
      'api/v1/bad.ts:2:10: hand-written deepCopyPart is not exported: export it so the generated deep-copy code can call it (or rename it)',
    ],
    [
      'a default export',
      `export default function deepCopyPart(value: Part): Part {\n  return value;\n}\n`,
      'api/v1/bad.ts:2:25: hand-written deepCopyPart is not exported: export it so the generated deep-copy code can call it (or rename it)',
    ],
    [
      'a constant',
      `export const deepCopyPart = 5;\n`,
      'api/v1/bad.ts:2:14: deepCopyPart is a constant that is not a function: a hand-written deep copy of Part must be a function (value: Part): Part',
    ],
    [
      'a let variable',
      `export let deepCopyPart = (value: Part): Part => value;\n`,
      'api/v1/bad.ts:2:12: deepCopyPart is a variable (only `const` functions count): a hand-written deep copy of Part must be a function (value: Part): Part',
    ],
    [
      'a class',
      `export class deepCopyPart {}\n`,
      'api/v1/bad.ts:2:14: deepCopyPart is a class: a hand-written deep copy of Part must be a function (value: Part): Part',
    ],
    [
      'two parameters',
      `export function deepCopyPart(value: Part, deep: boolean): Part {\n  return deep ? value : value;\n}\n`,
      'api/v1/bad.ts:2:17: hand-written deepCopyPart must take exactly one parameter (value: Part): Part, it takes 2',
    ],
    [
      'a parameter of another type',
      `export function deepCopyPart(value: string): Part {\n  return { name: value };\n}\n`,
      'api/v1/bad.ts:2:17: hand-written deepCopyPart: its parameter must be a Part (value: Part): Part',
    ],
    [
      'another return type',
      `export function deepCopyPart(value: Part): unknown {\n  return value;\n}\n`,
      'api/v1/bad.ts:2:17: hand-written deepCopyPart: it must return a Part (value: Part): Part',
    ],
  ])('reports a deepCopy<Type> that is %s at file:line:col', async (_what, source, message) => {
    const result = await load({ 'api/v1/bad.ts': `import type { Part } from './toy_types.js';\n${source}` });
    expect(result.messages).toEqual([message]);
    expect(result.handWritten).toEqual({});
  });

  it('reports a second hand-written copy of the same type and keeps the first', async () => {
    const fn = `import type { Part } from './toy_types.js';\nexport function deepCopyPart(value: Part): Part {\n  return { ...value };\n}\n`;
    const result = await load({ 'api/v1/a_copy.ts': fn, 'api/v1/b_copy.ts': fn });
    expect(result.messages).toEqual(['api/v1/b_copy.ts:2:17: deepCopyPart is already written by hand in api/v1/a_copy.ts:2:17']);
    expect(result.handWritten.Part).toMatchObject({ file: 'api/v1/a_copy.ts' });
  });
});
