// The reader: TypeScript api files → API model, and every input it cannot express → a Diagnostic at
// file:line:col naming the field or type.
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { loadApiProject } from './index.js';

const GV = '// +groupName=toys.example.com\n// +kubebuilder:object:generate=true\n\nexport {};\n';

async function load(files: Record<string, string>, apiPaths?: string[]) {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'kubeforge-reader-'));
  try {
    for (const [rel, text] of Object.entries({ 'api/v1/groupversion_info.ts': GV, ...files })) {
      fs.mkdirSync(path.dirname(path.join(root, rel)), { recursive: true });
      fs.writeFileSync(path.join(root, rel), text);
    }
    const result = await loadApiProject({ root, apiPaths });
    return { ...result, messages: result.diagnostics.map((d) => `${d.position.file}:${d.position.line}:${d.position.column}: ${d.message}`) };
  } finally {
    fs.rmSync(root, { recursive: true, force: true });
  }
}

const KIND = `import type { int32, ObjectMeta } from 'kubeforge/api';

// +kubebuilder:object:root=true
// +kubebuilder:subresource:status

/** Toy is a toy. */
export interface Toy {
  apiVersion: 'toys.example.com/v1';
  kind: 'Toy';
  metadata?: ObjectMeta;
  // +optional
  /** Spec of the toy. */
  spec?: ToySpec;
}

export interface ToySpec {
  /** How many. */
  count: int32;
  tags?: string[];
}
`;

describe('loadApiProject', () => {
  it('builds groups, versions, kinds and types with markers, descriptions and positions', async () => {
    const { model, diagnostics } = await load({ 'api/v1/toy_types.ts': KIND });
    expect(diagnostics).toEqual([]);
    expect(model.groups.map((g) => [g.name, g.versions.map((v) => [v.version, v.dir, v.kinds.map((k) => k.name)])])).toEqual([
      ['toys.example.com', [['v1', 'api/v1', ['Toy']]]],
    ]);
    const version = model.groups[0]!.versions[0]!;
    expect(version.markers.map((m) => m.name)).toEqual(['groupName', 'kubebuilder:object:generate']);
    expect(version.typeIds).toEqual(['api/v1/toy_types.ts#Toy', 'api/v1/toy_types.ts#ToySpec']);
    const toy = model.types['api/v1/toy_types.ts#Toy']!;
    expect(toy.description).toBe('Toy is a toy.');
    expect(toy.markers.map((m) => m.name)).toEqual(['kubebuilder:object:root', 'kubebuilder:subresource:status']);
    expect(toy.position).toEqual({ file: 'api/v1/toy_types.ts', line: 7, column: 18 });
    expect(toy.definition.kind === 'struct' && toy.definition.fields.find((f) => f.name === 'spec')).toEqual({
      name: 'spec',
      optional: true,
      type: { kind: 'named', id: 'api/v1/toy_types.ts#ToySpec', name: 'ToySpec' },
      description: 'Spec of the toy.',
      markers: [expect.objectContaining({ name: 'optional' })],
      position: { file: 'api/v1/toy_types.ts', line: 13, column: 3 },
    });
    const spec = model.types['api/v1/toy_types.ts#ToySpec']!;
    expect(spec.definition.kind === 'struct' && spec.definition.fields.map((f) => f.type)).toEqual([
      { kind: 'primitive', type: 'integer', format: 'int32', alias: 'int32' },
      { kind: 'array', items: { kind: 'primitive', type: 'string' } },
    ]);
  });

  it('uses +versionName and follows imports into non-api folders', async () => {
    const { model, diagnostics } = await load({
      'api/v1/groupversion_info.ts': '// +groupName=toys.example.com\n// +versionName=v1alpha1\n\nexport {};\n',
      'api/v1/toy_types.ts': KIND.replace('toys.example.com/v1', 'toys.example.com/v1alpha1').replace(
        '  tags?: string[];',
        '  tags?: Tag[];',
      ).replace("from 'kubeforge/api';", "from 'kubeforge/api';\nimport type { Tag } from '../../lib/tags.js';"),
      'lib/tags.ts': '/** A tag. */\nexport type Tag = string;\n',
    });
    expect(diagnostics).toEqual([]);
    expect(model.groups[0]!.versions[0]!.version).toBe('v1alpha1');
    expect(model.types['lib/tags.ts#Tag']?.description).toBe('A tag.');
  });

  it.each([
    ['  a: any;', 'field "a" of ToySpec: cannot generate schema for any; use JSONValue from kubeforge/api for free-form JSON, or an explicit type'],
    ['  f: () => void;', 'field "f" of ToySpec: function type () => void cannot be part of an API type'],
    ['  t: [string, int32];', 'field "t" of ToySpec: tuple type [string, int32] is not supported; use an array'],
    ['  u: string | int32;', 'field "u" of ToySpec: union type string | int32 is not supported (only unions of literals, which become an enum; use IntOrString for int-or-string)'],
    ['  n: string | null;', 'field "n" of ToySpec: "null" in a union is not supported; use an optional property and +nullable instead'],
    ['  o: { a: string };', 'field "o" of ToySpec: inline object types are not supported, use a named interface instead'],
    ['  x: Missing;', 'field "x" of ToySpec: unknown type Missing'],
    ['  g: Set<string>;', 'field "g" of ToySpec: generic type Set<string> is not supported'],
  ])('reports %s', async (field, message) => {
    const { messages } = await load({ 'api/v1/toy_types.ts': KIND.replace('  tags?: string[];', field) });
    expect(messages).toEqual([`api/v1/toy_types.ts:19:${field.indexOf(':') + 3}: ${message}`]);
  });

  it('reports non-string map keys at the key type', async () => {
    const { messages } = await load({ 'api/v1/toy_types.ts': KIND.replace('  tags?: string[];', '  m: Record<number, string>;') });
    expect(messages).toEqual(['api/v1/toy_types.ts:19:13: field "m" of ToySpec: map keys must be strings, not number']);
  });

  it('reports imports from unsupported modules', async () => {
    const { messages } = await load({
      'api/v1/toy_types.ts': KIND.replace('  tags?: string[];', '  when: Date2;').replace("from 'kubeforge/api';", "from 'kubeforge/api';\nimport type { Date2 } from 'some-lib';"),
    });
    expect(messages).toEqual([
      'api/v1/toy_types.ts:20:9: field "when" of ToySpec: types from "some-lib" are not supported in API types (use kubeforge/api, kubeforge/kubernetes/<group>/<version>, kubernetes-types/<group>/<version> or a project file)',
    ]);
  });

  it('reports TypeScript syntax errors with their position', async () => {
    const { messages } = await load({ 'api/v1/toy_types.ts': KIND.replace('count: int32;', 'count int32;') });
    expect(messages[0]).toBe('api/v1/toy_types.ts:18:3: syntax error: Property or signature expected.');
  });

  it('reports a kind whose apiVersion literal does not match its folder', async () => {
    const { messages } = await load({ 'api/v1/toy_types.ts': KIND.replace("'toys.example.com/v1'", "'toys.example.com/v2'") });
    expect(messages).toEqual([
      'api/v1/toy_types.ts:8:3: field "apiVersion" of Toy: literal "toys.example.com/v2" does not match "toys.example.com/v1" (from +groupName/+versionName of api/v1)',
    ]);
  });

  it('reports kinds in a folder without +groupName', async () => {
    const { model, messages } = await load({ 'api/v1/groupversion_info.ts': 'export {};\n', 'api/v1/toy_types.ts': KIND });
    expect(model.groups).toEqual([]);
    expect(messages).toEqual([
      'api/v1/toy_types.ts:7:18: kind Toy: the folder api/v1 has no +groupName marker (put it in api/v1/groupversion_info.ts)',
    ]);
  });

  it('skips folders marked +kubebuilder:skip', async () => {
    const { model } = await load({ 'api/v1/groupversion_info.ts': '// +groupName=toys.example.com\n// +kubebuilder:skip\n\nexport {};\n', 'api/v1/toy_types.ts': KIND });
    expect(model.groups).toEqual([]);
  });

  it('moves package-only markers found above a type to the package (§2.2)', async () => {
    const { model, diagnostics } = await load({
      'api/v1/groupversion_info.ts': 'export {};\n',
      'api/v1/toy_types.ts': KIND.replace('// +kubebuilder:subresource:status', '// +kubebuilder:subresource:status\n// +groupName=toys.example.com'),
    });
    expect(diagnostics).toEqual([]);
    expect(model.groups[0]?.name).toBe('toys.example.com');
    expect(model.types['api/v1/toy_types.ts#Toy']!.markers.map((m) => m.name)).toEqual(['kubebuilder:object:root', 'kubebuilder:subresource:status']);
  });
});
