// Schema markers (§8–§10) and CRD-level markers (§11): output fragments, priority rules, the §4.5
// type-visibility quirk, and the error messages for misapplied markers.
import { buildProject, specField, toyTypes } from './fixtures/temp-project.js';

async function spec(body: string, extra = '') {
  return buildProject({ 'api/v1/toy_types.ts': toyTypes(body, extra) });
}

describe('schema markers', () => {
  it('emits defaults, examples and titles with controller-gen value shapes', async () => {
    const built = await spec(
      [
        '  // +kubebuilder:default={}',
        '  emptySlice?: string[];',
        '  // +kubebuilder:default={}',
        '  emptyMap?: Record<string, string>;',
        '  // +kubebuilder:default={a,b}',
        '  // +kubebuilder:example={a,b}',
        '  slice?: string[];',
        '  // +kubebuilder:default="kb"',
        '  // +default="k8s"',
        '  both?: string;',
        '  // +default=ref(Other)',
        '  ref?: string;',
        '  // +kubebuilder:title="124"',
        '  titled?: string;',
      ].join('\n'),
    );
    expect(built.messages).toEqual([]);
    expect(specField(built, 'emptySlice')).toEqual({ default: [], items: { type: 'string' }, type: 'array' });
    expect(specField(built, 'emptyMap')).toEqual({ additionalProperties: { type: 'string' }, default: {}, type: 'object' });
    expect(specField(built, 'slice')).toEqual({ default: ['a', 'b'], example: ['a', 'b'], items: { type: 'string' }, type: 'array' });
    expect(specField(built, 'both')).toEqual({ default: 'kb', type: 'string' });
    expect(specField(built, 'ref')).toEqual({ type: 'string' });
    expect(specField(built, 'titled')).toEqual({ title: '124', type: 'string' });
  });

  it('applies Type/XIntOrString first, so later checks see them', async () => {
    const built = await spec('  // +kubebuilder:validation:MaxLength=3\n  // +kubebuilder:validation:XIntOrString\n  v?: IntOrString;');
    expect(built.messages).toEqual([]);
    expect(specField(built, 'v')).toEqual({
      anyOf: [{ type: 'integer' }, { type: 'string' }],
      maxLength: 3,
      'x-kubernetes-int-or-string': true,
    });
  });

  it('emits list and map topology markers', async () => {
    const built = await spec(
      '  // +listType=map\n  // +listMapKey=name\n  items?: Item[];\n  // +mapType=atomic\n  labels?: Record<string, string>;',
      'export interface Item {\n  name: string;\n}\n',
    );
    expect(built.messages).toEqual([]);
    expect(specField(built, 'items')).toMatchObject({ 'x-kubernetes-list-map-keys': ['name'], 'x-kubernetes-list-type': 'map' });
    expect(specField(built, 'labels')).toMatchObject({ 'x-kubernetes-map-type': 'atomic' });
  });

  it('appends XValidation rules: field rules first, then the type rules', async () => {
    const built = await spec(
      '  // +kubebuilder:validation:XValidation:rule="self.startsWith(\'a\')",message="starts with a"\n  s?: Even;',
      '// +kubebuilder:validation:XValidation:rule="self.size() % 2 == 0"\nexport type Even = string;\n',
    );
    expect(specField(built, 's')?.['x-kubernetes-validations']).toEqual([
      { message: 'starts with a', rule: "self.startsWith('a')" },
      { rule: 'self.size() % 2 == 0' },
    ]);
  });

  it.each([
    ['  // +kubebuilder:validation:Maximum=3\n  s?: string;', 'must apply maximum to a numeric value, found string'],
    ['  // +kubebuilder:validation:Maximum=1.5\n  i?: int32;', 'cannot apply non-integral maximum validation (1.5) to integer value'],
    ['  // +kubebuilder:validation:MinLength=1\n  i?: int32;', 'must apply minlength to a textual value, found type "integer"'],
    ['  // +kubebuilder:validation:MinItems=1\n  s?: string;', 'must apply minitems to an array'],
    ['  // +listType=set\n  s?: string;', 'must apply listType to an array, found string'],
    ['  // +listMapKey=name\n  s?: string[];', 'must apply listMapKey to an associative-list'],
    ['  // +kubebuilder:validation:XValidation:rule="true",reason=Nope\n  s?: string;', 'invalid reason Nope, valid values are FieldValueRequired, FieldValueInvalid, FieldValueForbidden and FieldValueDuplicate'],
    ['  // +kubebuilder:title=123\n  s?: string;', 'expected string, got int'],
    ['  // +kubebuilder:validation:MaxProperties=1\n  s?: string;', 'must apply maxproperties to an object'],
  ])('reports %s', async (body, message) => {
    const built = await spec(body);
    expect(built.messages.join('\n')).toContain(message);
    expect(built.messages.join('\n')).toMatch(/^api\/v1\/toy_types\.ts:\d+:\d+: field "\w+" of ToySpec: /);
  });

  it('hides the type of named arrays and other folders\' types from field markers (§4.5 quirk)', async () => {
    const built = await buildProject({
      'api/v1/toy_types.ts': toyTypes(
        '  // +kubebuilder:validation:MinItems=1\n  hosts?: Hosts;\n  // +kubebuilder:validation:Maximum=3\n  count?: Count;',
        "export type Hosts = string[];\nimport type { Count } from '../shared/count.js';\n",
      ),
      'api/shared/count.ts': "import type { int32 } from 'kubeforge/api';\n\nexport type Count = int32;\n",
    });
    expect(built.messages.some((m) => m.includes('field "hosts" of ToySpec: must apply minitems to an array'))).toBe(true);
    expect(built.messages.some((m) => m.includes('field "count" of ToySpec: must apply maximum to a numeric value, found '))).toBe(true);
  });

  it('builds OneOf rules and rejects required members', async () => {
    const extra = '// +kubebuilder:validation:ExactlyOneOf=a;b\nexport interface Pair {\n  a?: string;\n  b?: string;\n}\n';
    const ok = await spec('  pair?: Pair;', extra);
    expect(specField(ok, 'pair')?.['x-kubernetes-validations']).toEqual([
      { message: 'exactly one of the fields in [a b] must be set', rule: '[has(self.a),has(self.b)].filter(x,x==true).size() == 1' },
    ]);
    const bad = await spec('  pair?: Pair;', extra.replace('b?: string', 'b: string'));
    expect(bad.messages.join('\n')).toContain('field b is part of OneOf constraint and must have omitempty tag');
  });
});

describe('CRD-level markers (§11)', () => {
  const kind = (markers: string, body = '  rank?: int32;\n  replicas?: int32;') =>
    toyTypes(body).replace('// +kubebuilder:object:root=true', `// +kubebuilder:object:root=true\n${markers}`);

  it('writes resource names, scope, printer columns and subresources', async () => {
    const built = await buildProject({
      'api/v1/toy_types.ts': kind(
        [
          '// +kubebuilder:resource:path=toyz,singular=toyy,shortName=ty;tz,categories=all,scope=Cluster',
          '// +kubebuilder:printcolumn:name="Rank",type=integer,JSONPath=`.spec.rank`,priority=10,description="rank"',
          '// +kubebuilder:printcolumn:name="Age",type="date",JSONPath=".metadata.creationTimestamp"',
          '// +kubebuilder:subresource:status',
          '// +kubebuilder:subresource:scale:specpath=.spec.replicas,statuspath=.status.replicas,selectorpath=.status.selector',
        ].join('\n'),
      ),
    });
    expect(built.messages).toEqual([]);
    const [crd] = built.result.crds;
    expect(crd!.fileName).toBe('toys.example.com_toyz.yaml');
    expect(crd!.document.metadata.name).toBe('toyz.toys.example.com');
    expect(crd!.document.spec.names).toEqual({ categories: ['all'], kind: 'Toy', listKind: 'ToyList', plural: 'toyz', shortNames: ['ty', 'tz'], singular: 'toyy' });
    expect(crd!.document.spec.scope).toBe('Cluster');
    const version = crd!.document.spec.versions[0]!;
    expect(version.additionalPrinterColumns).toEqual([
      { description: 'rank', jsonPath: '.spec.rank', name: 'Rank', priority: 10, type: 'integer' },
      { jsonPath: '.metadata.creationTimestamp', name: 'Age', type: 'date' },
    ]);
    expect(version.subresources).toEqual({
      scale: { labelSelectorPath: '.status.selector', specReplicasPath: '.spec.replicas', statusReplicasPath: '.status.replicas' },
      status: {},
    });
  });

  it('gives a printcolumn-only version an empty subresources', async () => {
    const built = await buildProject({ 'api/v1/toy_types.ts': kind('// +kubebuilder:printcolumn:name="Rank",type=integer,JSONPath=`.spec.rank`') });
    expect(built.result.crds[0]!.document.spec.versions[0]!.subresources).toEqual({});
  });

  it('reports annotations without "=" at the marker', async () => {
    const built = await buildProject({ 'api/v1/toy_types.ts': kind('// +kubebuilder:metadata:annotations="a:b"') });
    expect(built.messages).toEqual([expect.stringMatching(/^api\/v1\/toy_types\.ts:\d+:\d+: annotation a:b is not in 'xxx=xxx' format$/)]);
  });

  describe('storage version of a kind with several versions', () => {
    const info = (v: string) => [`api/${v}/groupversion_info.ts`, '// +groupName=toys.example.com\n\nexport {};\n'] as const;
    const inVersion = (v: string, markers: string) => [`api/${v}/toy_types.ts`, kind(markers).replace(/toys\.example\.com\/v1/, `toys.example.com/${v}`)] as const;
    const project = (...files: Array<readonly [string, string]>) => buildProject(Object.fromEntries(files));

    it('without one, names the kind at every version’s file', async () => {
      const built = await project(inVersion('v1', ''), info('v2'), inVersion('v2', ''));
      expect(built.result.crds).toEqual([]);
      expect(built.messages).toEqual([
        expect.stringMatching(/^api\/v1\/toy_types\.ts:\d+:\d+: CRD for Toy\.toys\.example\.com has no storage version: mark exactly one of v1 \(api\/v1\/toy_types\.ts:\d+\), v2 \(api\/v2\/toy_types\.ts:\d+\) with \+kubebuilder:storageversion$/),
        expect.stringMatching(/^api\/v2\/toy_types\.ts:\d+:\d+: CRD for Toy\.toys\.example\.com has no storage version: /),
      ]);
    });

    it('with two marked, names both files and writes nothing', async () => {
      const built = await project(inVersion('v1', '// +kubebuilder:storageversion'), info('v2'), inVersion('v2', '// +kubebuilder:storageversion'), info('v3'), inVersion('v3', ''));
      expect(built.result.crds).toEqual([]);
      expect(built.messages).toHaveLength(2);
      expect(built.messages[0]).toMatch(/^api\/v1\/toy_types\.ts:\d+:\d+: CRD for Toy\.toys\.example\.com has more than one storage version: v1 \(api\/v1\/toy_types\.ts:\d+\), v2 \(api\/v2\/toy_types\.ts:\d+\) are marked \+kubebuilder:storageversion; keep it on exactly one$/);
      expect(built.messages[1]).toMatch(/^api\/v2\/toy_types\.ts:/);
    });

    it('lists every version, storage only on the marked one, unserved where marked', async () => {
      const built = await project(inVersion('v1', '// +kubebuilder:unservedversion'), info('v2'), inVersion('v2', '// +kubebuilder:storageversion'), info('v3'), inVersion('v3', ''));
      expect(built.messages).toEqual([]);
      expect(built.result.crds[0]!.document.spec.versions.map((v) => [v.name, v.served, v.storage])).toEqual([
        ['v1', false, false],
        ['v2', true, true],
        ['v3', true, false],
      ]);
    });
  });

  it('needs a storage version when a kind has several versions', async () => {
    const v2 = kind('').replace(/toys\.example\.com\/v1/, 'toys.example.com/v2');
    const built = await buildProject({
      'api/v1/toy_types.ts': kind(''),
      'api/v2/groupversion_info.ts': '// +groupName=toys.example.com\n\nexport {};\n',
      'api/v2/toy_types.ts': v2,
    });
    expect(built.result.crds).toEqual([]);
    expect(built.messages.join('\n')).toContain('CRD for Toy.toys.example.com has no storage version');
    const fixed = await buildProject({
      'api/v1/toy_types.ts': kind(''),
      'api/v2/groupversion_info.ts': '// +groupName=toys.example.com\n\nexport {};\n',
      'api/v2/toy_types.ts': v2.replace('// +kubebuilder:object:root=true', '// +kubebuilder:object:root=true\n// +kubebuilder:storageversion'),
    });
    expect(fixed.messages).toEqual([]);
    expect(fixed.result.crds[0]!.document.spec.versions.map((v) => [v.name, v.storage])).toEqual([
      ['v1', false],
      ['v2', true],
    ]);
  });

  it('refuses a non-structural CRD (uniqueItems) naming kind, version and schema path', async () => {
    const built = await spec('  // +kubebuilder:validation:UniqueItems=true\n  tags?: string[];');
    expect(built.result.crds).toEqual([]);
    expect(built.messages).toEqual([
      expect.stringContaining(
        'CRD for kind Toy (toys.example.com): not a valid structural CRD: spec.versions[v1].schema.openAPIV3Schema.properties.spec.properties.tags.uniqueItems: uniqueItems cannot be set to true',
      ),
    ]);
  });

  it('drops a +kubebuilder:skipversion version and marks +kubebuilder:unservedversion ones served: false', async () => {
    const v2 = kind('// +kubebuilder:storageversion').replace(/toys\.example\.com\/v1/, 'toys.example.com/v2');
    const gv = (v: string) => `// +groupName=toys.example.com\n// +versionName=${v}\n\nexport {};\n`;
    const built = await buildProject({
      'api/v1/toy_types.ts': kind('// +kubebuilder:unservedversion'),
      'api/v2/groupversion_info.ts': gv('v2'),
      'api/v2/toy_types.ts': v2,
      'api/v3/groupversion_info.ts': gv('v3'),
      'api/v3/toy_types.ts': kind('// +kubebuilder:skipversion').replace(/toys\.example\.com\/v1/, 'toys.example.com/v3'),
    });
    expect(built.messages).toEqual([]);
    expect(built.result.crds[0]!.document.spec.versions.map((v) => [v.name, v.served, v.storage])).toEqual([
      ['v1', false, false],
      ['v2', true, true],
    ]);
  });

  it('writes externalDocs and +kubebuilder:metadata labels', async () => {
    const built = await buildProject({
      'api/v1/toy_types.ts': kind(
        '// +kubebuilder:metadata:labels="team=toys"',
        '  // +kubebuilder:externalDocs:url="https://example.com/docs",description="docs"\n  rank?: int32;',
      ),
    });
    expect(built.messages).toEqual([]);
    expect(built.result.crds[0]!.document.metadata.labels).toEqual({ team: 'toys' });
    expect(specField(built, 'rank')).toEqual({ externalDocs: { description: 'docs', url: 'https://example.com/docs' }, format: 'int32', type: 'integer' });
  });
});

