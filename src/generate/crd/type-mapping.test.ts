// Golden tests per feature: a small TypeScript input → the schema fragment controller-gen would emit for the
// equivalent Go type (spec §4, §5, §7, §8, §9).
import { buildProject, specField, toyTypes } from './fixtures/temp-project.js';

async function field(body: string, name: string, extra = '', options = {}) {
  const built = await buildProject({ 'api/v1/toy_types.ts': toyTypes(body, extra) }, options);
  expect(built.messages).toEqual([]);
  return specField(built, name);
}

describe('type mapping (§4)', () => {
  it.each([
    ['s: string', { type: 'string' }],
    ['b: boolean', { type: 'boolean' }],
    ['s: int32', { type: 'integer', format: 'int32' }],
    ['s: int64', { type: 'integer', format: 'int64' }],
    ['s: int', { type: 'integer' }],
    ['s: bytes', { type: 'string', format: 'byte' }],
    ['s: Time', { type: 'string', format: 'date-time' }],
    ['s: Duration', { type: 'string' }],
    ['s: IntOrString', { anyOf: [{ type: 'integer' }, { type: 'string' }], 'x-kubernetes-int-or-string': true }],
    ['s: RawExtension', { type: 'object', 'x-kubernetes-preserve-unknown-fields': true }],
    ['s: JSONValue', { 'x-kubernetes-preserve-unknown-fields': true }],
    ['s: string[]', { type: 'array', items: { type: 'string' } }],
    ['s: Array<int32>', { type: 'array', items: { type: 'integer', format: 'int32' } }],
    ['s: Record<string, bytes>', { type: 'object', additionalProperties: { type: 'string', format: 'byte' } }],
    ['s: { [k: string]: string[] }', { type: 'object', additionalProperties: { type: 'array', items: { type: 'string' } } }],
    ["s: 'A' | 'B'", { type: 'string', enum: ['A', 'B'] }],
    ['s: 1 | 2', { type: 'integer', enum: [1, 2] }],
  ])('%s', async (body, expected) => {
    const name = body.split(':')[0]!.trim();
    expect(await field(body, name)).toEqual(expected);
  });

  it('maps Quantity to int-or-string with the quantity pattern', async () => {
    const q = await field('q: Quantity', 'q');
    expect(q?.['x-kubernetes-int-or-string']).toBe(true);
    expect(q?.pattern).toMatch(/^\^\(\\\+\|-\)\?/);
  });

  it('allows floats only with allowDangerousTypes, and then without a format', async () => {
    expect(await field('f: float64', 'f', '', { allowDangerousTypes: true })).toEqual({ type: 'number' });
    const built = await buildProject({ 'api/v1/toy_types.ts': toyTypes('f: float64') });
    expect(built.messages.join('\n')).toMatch(/api\/v1\/toy_types.ts:4:1: field "f" of ToySpec: found float, the usage of which is highly discouraged/);
  });

  it('rejects plain number (no width) with a hint', async () => {
    const built = await buildProject({ 'api/v1/toy_types.ts': toyTypes('n: number') });
    expect(built.messages).toEqual([
      'api/v1/toy_types.ts:4:1: field "n" of ToySpec: plain "number" has no width; use int32, int64 or int from kubeforge/api (or float64 with allowDangerousTypes)',
    ]);
  });

  it('resolves a Kubernetes type from kubernetes-types through the catalogue, with the type doc when the field has none', async () => {
    const extra = '';
    const built = await buildProject({
      'api/v1/toy_types.ts': toyTypes('ref: ObjectReference', extra).replace(
        "from 'kubeforge/api';",
        "from 'kubeforge/api';\nimport type { ObjectReference } from 'kubernetes-types/core/v1.js';",
      ),
    });
    const ref = specField(built, 'ref');
    expect(ref?.description).toMatch(/^ObjectReference contains enough information/);
    expect(ref?.['x-kubernetes-map-type']).toBe('atomic');
    expect(Object.keys(ref?.properties ?? {})).toEqual(['apiVersion', 'fieldPath', 'kind', 'name', 'namespace', 'resourceVersion', 'uid']);
  });

  it('rejects a union of literals of different types', async () => {
    const built = await buildProject({ 'api/v1/toy_types.ts': toyTypes("  m?: 'a' | 1;") });
    expect(built.messages[0]).toBe('api/v1/toy_types.ts:4:3: field "m" of ToySpec: a union of literals must have one value type (strings, integers, numbers or booleans)');
  });

  it('reports Kubernetes types the catalogue has no schema for', async () => {
    const built = await buildProject({
      'api/v1/toy_types.ts': toyTypes('  n?: ResourceClaimSpec;').replace(
        "from 'kubeforge/api';",
        "from 'kubeforge/api';\nimport type { ResourceClaimSpec } from 'kubernetes-types/resource/v1alpha2.js';",
      ),
    });
    expect(built.messages).toEqual([
      'api/v1/toy_types.ts:5:3: field "n" of ToySpec: no schema is known for Kubernetes type resource/v1alpha2.ResourceClaimSpec ' +
        "(kubeforge knows the Kubernetes 1.32 types of the groups its local cluster serves; write this one out in an API file)",
    ]);
  });

  const WRITTEN_OUT_NODE = `
/** NodeCopy is a written-out copy of the core/v1 Node kind. */
export interface Node {
  apiVersion?: 'v1';
  kind?: 'Node';
  metadata?: ObjectMeta;
  /** The node's pod CIDR. */
  podCIDR?: string;
}
`;

  it('takes a written-out Kubernetes kind of another group under api/ as a type, not as a kind of the folder', async () => {
    const built = await buildProject({ 'api/v1/toy_types.ts': toyTypes('  /** The template node. */\n  node?: Node;', WRITTEN_OUT_NODE) });
    expect(built.messages).toEqual([]);
    expect(built.result.crds.map((c) => c.fileName)).toEqual(['toys.example.com_toys.yaml']);
    expect(specField(built, 'node')).toMatchObject({
      description: 'The template node.',
      type: 'object',
      properties: { apiVersion: { type: 'string', enum: ['v1'] }, metadata: { type: 'object' }, podCIDR: { type: 'string' } },
    });
  });

  it('takes the same written-out kind from a project file outside api/', async () => {
    const built = await buildProject({
      'pkg/k8s/node.ts': `import type { ObjectMeta } from 'kubeforge/api';\n${WRITTEN_OUT_NODE}`,
      'api/v1/toy_types.ts': toyTypes('  node?: Node;').replace("from 'kubeforge/api';", "from 'kubeforge/api';\nimport type { Node } from '../../pkg/k8s/node.js';"),
    });
    expect(built.messages).toEqual([]);
    expect(built.result.crds.map((c) => c.fileName)).toEqual(['toys.example.com_toys.yaml']);
    expect(specField(built, 'node')).toMatchObject({ description: 'NodeCopy is a written-out copy of the core/v1 Node kind.', type: 'object' });
  });

  it('keeps the literal check for a kind marked +kubebuilder:object:root whose apiVersion names another group', async () => {
    const built = await buildProject({
      'api/v1/toy_types.ts': toyTypes('  node?: Node;', WRITTEN_OUT_NODE.replace('export interface Node', '// +kubebuilder:object:root=true\nexport interface Node')),
    });
    expect(built.messages).toEqual([
      expect.stringMatching(/^api\/v1\/toy_types.ts:\d+:3: field "apiVersion" of Node: literal "v1" does not match "toys.example.com\/v1"/),
    ]);
  });

  it('accepts a kind that extends TypeMeta instead of declaring apiVersion and kind', async () => {
    const built = await buildProject({
      'api/v1/toy_types.ts': "import type { ObjectMeta, TypeMeta } from 'kubeforge/api';\n\nexport interface Toy extends TypeMeta {\n  metadata?: ObjectMeta;\n  size?: string;\n}\n",
    });
    expect(built.messages).toEqual([]);
    expect(Object.keys(built.schema.properties ?? {})).toEqual(['apiVersion', 'kind', 'metadata', 'size']);
    expect(built.schema.required).toBeUndefined();
  });

  it('gives nested ObjectMeta name/namespace/labels/annotations/finalizers with generateEmbeddedObjectMeta', async () => {
    const plain = await field('meta: ObjectMeta', 'meta');
    expect(plain).toEqual({ type: 'object' });
    const embedded = await field('meta: ObjectMeta', 'meta', '', { generateEmbeddedObjectMeta: true });
    expect(Object.keys(embedded?.properties ?? {})).toEqual(['annotations', 'finalizers', 'labels', 'name', 'namespace']);
  });

  it('reports a self-referencing type at the field that recurses, with its path and the word "recursive", and nothing more', async () => {
    const built = await buildProject({ 'api/v1/toy_types.ts': toyTypes('tree: Tree', 'export interface Tree {\n  children?: Tree[];\n}\n') });
    expect(built.messages).toEqual([
      'api/v1/toy_types.ts:7:3: field "children" of Tree: recursive type: spec.tree.children (Tree.children) refers back to Tree, and a CRD schema cannot be recursive; break the cycle (e.g. separate types for a fixed depth), or type the field JSONValue from kubeforge/api (any JSON, kept as written)',
    ]);
  });

  it('reports a cycle through two types at the field that closes it, listing the cycle', async () => {
    const extra = 'export interface Team {\n  lead?: Person;\n}\nexport interface Person {\n  name?: string;\n  team?: Team;\n}\n';
    const built = await buildProject({ 'api/v1/toy_types.ts': toyTypes('team: Team', extra) });
    expect(built.messages).toHaveLength(1);
    expect(built.messages[0]).toMatch(/^api\/v1\/toy_types\.ts:11:3: field "team" of Person: recursive type: spec\.team\.lead\.team \(Team\.lead → Person\.team\) refers back to Team/);
  });
});

describe('required and optional (§5.2)', () => {
  const body = [
    '  plain: string;',
    '  omitted?: string;',
    '  // +kubebuilder:validation:Required',
    '  kbRequired?: string;',
    '  // +required',
    '  required?: string;',
    '  // +optional',
    '  optionalMarker: string;',
    '  // +kubebuilder:validation:Optional',
    '  // +required',
    '  optionalBeatsRequired: string;',
  ].join('\n');

  it('follows markers first, then `?`', async () => {
    const built = await buildProject({ 'api/v1/toy_types.ts': toyTypes(body) });
    expect(built.messages).toEqual([]);
    expect(built.schema.properties?.spec?.required).toEqual(['kbRequired', 'plain', 'required']);
  });

  it('makes fields optional by default with a package-level +kubebuilder:validation:Optional', async () => {
    const built = await buildProject({
      'api/v1/groupversion_info.ts': '// +groupName=toys.example.com\n// +kubebuilder:validation:Optional\n\nexport {};\n',
      'api/v1/toy_types.ts': toyTypes(body),
    });
    expect(built.schema.properties?.spec?.required).toEqual(['kbRequired', 'required']);
  });

  it('inlines `extends` like an embedded struct, with the parent first', async () => {
    const spec = (await buildProject({ 'api/v1/toy_types.ts': toyTypes('  own: string;', 'export interface Base {\n  /** From the base. */\n  base?: string;\n  must: int32;\n}\n').replace('export interface ToySpec {', 'export interface ToySpec extends Base {') })).schema.properties?.spec;
    expect(spec).toEqual({
      type: 'object',
      properties: { base: { description: 'From the base.', type: 'string' }, must: { type: 'integer', format: 'int32' }, own: { type: 'string' } },
      required: ['must', 'own'],
    });
  });
});

describe('descriptions (§6)', () => {
  it('uses JSDoc or // text, drops markers and TODO lines, stops at ---, and falls back to the type doc', async () => {
    const body = [
      '  /**',
      '   * First line.',
      '   *',
      '   * TODO: not this.',
      '   * Second paragraph.',
      '   * +optional',
      '   * ---',
      '   * hidden',
      '   */',
      '  a?: string;',
      '  // Line comment doc.',
      '  // +kubebuilder:validation:MinLength=1',
      '  b?: string;',
      '  c?: Named;',
    ].join('\n');
    const built = await buildProject({ 'api/v1/toy_types.ts': toyTypes(body, '/** Named is documented. */\nexport type Named = string;\n') });
    expect(built.messages).toEqual([]);
    expect(specField(built, 'a')).toEqual({ description: 'First line.\n\nSecond paragraph.', type: 'string' });
    expect(specField(built, 'b')).toEqual({ description: 'Line comment doc.', minLength: 1, type: 'string' });
    expect(specField(built, 'c')).toEqual({ description: 'Named is documented.', type: 'string' });
  });

  it('shortens descriptions with maxDescLen like controller-gen', async () => {
    const built = await buildProject({ 'api/v1/toy_types.ts': toyTypes('  /** Short. */\n  a?: string;') }, { maxDescLen: 50 });
    expect(built.schema.properties?.apiVersion?.description).toBe('APIVersion defines the versioned schema of this...');
    expect(built.schema.properties?.kind?.description).toBe('Kind is a string value representing the REST...');
    expect(specField(built, 'a')?.description).toBe('Short.');
  });
});

describe('merging a named type into its use site (§7)', () => {
  const extra = [
    '// +kubebuilder:validation:MinLength=4',
    '/** Longer is at least four long. */',
    'export type Longer = string;',
    '// +kubebuilder:validation:Enum=A;B',
    'export type Letters = string;',
  ].join('\n');

  it('pushes conflicting keywords into a two-entry allOf and keeps the others on top', async () => {
    const body = '  // +kubebuilder:validation:MinLength=10\n  // +kubebuilder:validation:MaxLength=10\n  l?: Longer;';
    expect(await field(body, 'l', extra)).toEqual({
      allOf: [{ minLength: 4 }, { minLength: 10 }],
      description: 'Longer is at least four long.',
      maxLength: 10,
      type: 'string',
    });
  });

  it("keeps the type's enum over the field's", async () => {
    expect(await field('  // +kubebuilder:validation:Enum=C\n  e?: Letters;', 'e', extra)).toEqual({ enum: ['A', 'B'], type: 'string' });
  });

  it('applies type-level markers to array items, with the type doc', async () => {
    expect(await field('  items?: Longer[];', 'items', extra)).toEqual({
      items: { description: 'Longer is at least four long.', minLength: 4, type: 'string' },
      type: 'array',
    });
  });
});
