// The deep-copy generator: which types get functions, that the generated file type-checks against the
// real types under strict settings, that copies are equal and share nothing, and the golden output.
import { mkdtempSync, cpSync, writeFileSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { strictDiagnostics } from '../testdata/strict-typecheck.js';
import { emitDeepCopy, selectDeepCopyTypes, planDeepCopyFiles, DEEPCOPY_HEADER } from './index.js';
import { sampleModel } from './sample-model.js';
import { loadApiProject } from '../../reader/index.js';
import type { ApiModel, Marker } from '../../model/index.js';

const here = dirname(fileURLToPath(import.meta.url));
const fixtureRoot = join(here, 'fixtures/sample');
const goldenPath = join(fixtureRoot, 'api/v1/zz_generated.deepcopy.ts.golden');

function emitSample(model: ApiModel = sampleModel()): string {
  const text = emitDeepCopy(model, model.groups[0]!.versions[0]!);
  if (text === undefined) throw new Error('nothing emitted');
  return text;
}

type CopyModule = Record<string, (value: unknown) => unknown> & { deepCopyByKind: Record<string, unknown> };

/** Compiles the generated TypeScript to CommonJS and evaluates it (its imports are type-only). */
function loadGenerated(text: string): CopyModule {
  const js = ts.transpileModule(text, { compilerOptions: { module: ts.ModuleKind.CommonJS, target: ts.ScriptTarget.ES2022 } }).outputText;
  const exports: Record<string, unknown> = {};
  new Function('exports', 'require', js)(exports, () => {
    throw new Error('generated deep-copy code must not import anything at run time');
  });
  return exports as CopyModule;
}

function fullSample(): Record<string, unknown> {
  const port = (name: string, n: number) => ({ name, port: n });
  return {
    apiVersion: 'x.example.com/v1',
    kind: 'Sample',
    metadata: { name: 'one', namespace: 'default', labels: { a: 'b' }, ownerReferences: [{ kind: 'X', name: 'y', uid: '1' }] },
    spec: {
      id: 'id-1',
      tags: ['t1', 't2'],
      mode: 'Fast',
      rank: 3,
      hosts: ['a.example.com'],
      ports: [port('http', 80), port('https', 443)],
      portList: [port('grpc', 9000)],
      portsByName: { http: port('http', 80) },
      labels: { team: 'core' },
      matrix: [[1, 2], [3]],
      groups: [[port('a', 1)], [port('b', 2), port('c', 3)]],
      nestedMaps: { outer: { inner: port('i', 7) } },
      template: { metadata: { labels: { app: 'x' } }, spec: { containers: [{ name: 'c', image: 'busybox', args: ['sleep', '1'] }] } },
      startedAt: '2026-01-01T00:00:00Z',
      size: '1Gi',
      target: 8080,
      raw: { kind: 'Anything', nested: { list: [{ deep: true }] } },
      anything: [1, 'two', { three: [3] }, null],
      tree: { value: 'root', children: [{ value: 'leaf', children: [{ value: 'deeper' }] }] },
      opaque: { payload: { k: 'v' } },
      hidden: { secret: 's' },
      shared: { name: 'ref', port: { number: 5 }, labels: { s: 't' } },
      'odd-name': 'odd',
    },
    status: { phase: 'Done', count: 2 },
  };
}

/** Every object and array inside a value. */
function containers(value: unknown, into: Set<object> = new Set()): Set<object> {
  if (typeof value === 'object' && value !== null) {
    into.add(value);
    for (const child of Object.values(value)) containers(child, into);
  }
  return into;
}

describe('type selection', () => {
  const names = (model: ApiModel) => {
    const selection = selectDeepCopyTypes(model, model.groups[0]!.versions[0]!);
    return { exported: selection.exported.map((t) => t.name), helpers: selection.helpers.map((t) => t.name), roots: selection.roots.map((t) => t.name) };
  };

  it('generates every type reachable from a root, skipping scalar aliases, generate=false and unexported types', () => {
    expect(names(sampleModel())).toEqual({
      exported: ['Base', 'Hosts', 'Port', 'PortList', 'Sample', 'SampleList', 'SampleSpec', 'SampleStatus', 'TreeNode'],
      helpers: ['Port', 'SharedRef'],
      roots: ['Sample', 'SampleList'],
    });
  });

  it('generates every copyable type of the folder when the folder has +kubebuilder:object:generate=true', () => {
    expect(names(sampleModel({ packageGenerate: true })).exported).toContain('Unused');
    expect(names(sampleModel({ packageGenerate: true })).exported).not.toContain('Opaque');
  });

  it('lets a type marker override the folder: generate=true adds a type, generate=false removes a root', () => {
    const model = sampleModel();
    const flag = (name: string, value: boolean): Marker => ({ name, args: { '': value }, text: '', position: { file: 'f', line: 1, column: 1 } });
    model.types['api/v1/sample_types.ts#Unused']!.markers.push(flag('kubebuilder:object:generate', true));
    model.types['api/v1/sample_types.ts#SampleList']!.markers.push(flag('kubebuilder:object:generate', false));
    const result = names(model);
    expect(result.exported).toContain('Unused');
    expect(result.exported).not.toContain('SampleList');
    expect(result.roots).toEqual(['Sample']);
  });

  it('emits nothing for a folder without copyable types', () => {
    const model = sampleModel();
    const version = model.groups[0]!.versions[0]!;
    version.kinds = [];
    for (const id of version.typeIds) model.types[id]!.markers = [];
    expect(emitDeepCopy(model, version)).toBeUndefined();
    expect(planDeepCopyFiles(model)).toEqual([]);
  });
});

describe('generated code', () => {
  const text = emitSample();
  const generated = loadGenerated(text);

  it('starts with the generated-code header and plans api/<version>/zz_generated.deepcopy.ts', () => {
    expect(text.startsWith(`${DEEPCOPY_HEADER}\n`)).toBe(true);
    expect(planDeepCopyFiles(sampleModel()).map((f) => f.path)).toEqual(['api/v1/zz_generated.deepcopy.ts']);
  });

  it('copies a fully populated object to an equal value', () => {
    const original = fullSample();
    expect(generated.deepCopySample!(original)).toStrictEqual(original);
  });

  it('shares no object or array with the original, at any depth', () => {
    const original = fullSample();
    const copy = generated.deepCopySample!(original);
    const originals = containers(original);
    const shared = [...containers(copy)].filter((c) => originals.has(c));
    expect(shared).toEqual([]);
  });

  it('leaves the original unchanged when the copy is mutated everywhere', () => {
    const original = fullSample();
    const before = JSON.stringify(original);
    const copy = generated.deepCopySample!(original) as ReturnType<typeof fullSample>;
    const mutate = (value: unknown): void => {
      if (Array.isArray(value)) {
        value.forEach(mutate);
        value.push('added');
      } else if (typeof value === 'object' && value !== null) {
        const record = value as Record<string, unknown>;
        for (const key of Object.keys(record)) mutate(record[key]);
        record.added = true;
      }
    };
    mutate(copy);
    expect(JSON.stringify(original)).toBe(before);
  });

  it('keeps absent optional fields absent and null values null', () => {
    const sparse = { apiVersion: 'x.example.com/v1', kind: 'Sample', spec: { id: 'i', mode: 'Slow', tree: null, labels: null } };
    const copy = generated.deepCopySample!(sparse) as { spec: Record<string, unknown> } & Record<string, unknown>;
    expect(copy).toStrictEqual(sparse);
    expect('metadata' in copy).toBe(false);
    expect('hosts' in copy.spec).toBe(false);
    expect(generated.deepCopySampleSpec!(null)).toBeNull();
  });

  it('copies lists item by item through the kind function', () => {
    const list = { apiVersion: 'x.example.com/v1', kind: 'SampleList', metadata: { resourceVersion: '7' }, items: [fullSample(), fullSample()] };
    const copy = generated.deepCopySampleList!(list) as typeof list;
    expect(copy).toStrictEqual(list);
    expect(copy.items[0]).not.toBe(list.items[0]);
  });

  it('keeps a "__proto__" key of a raw JSON value as data, without touching the prototype', () => {
    const raw = JSON.parse('{"__proto__": {"polluted": true}, "x": 1}') as Record<string, unknown>;
    const sample = { ...fullSample(), spec: { id: 'i', mode: 'Fast', raw } };
    const copy = generated.deepCopySample!(sample) as { spec: { raw: Record<string, unknown> } };
    expect(Object.getPrototypeOf(copy.spec.raw)).toBe(Object.prototype);
    expect(Object.keys(copy.spec.raw)).toEqual(['__proto__', 'x']);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('exposes the copy function of every root by kind name', () => {
    expect(Object.keys(generated.deepCopyByKind)).toEqual(['Sample', 'SampleList']);
    expect(generated.deepCopyByKind.Sample).toBe(generated.deepCopySample);
  });

  it('copies a recursive type to any depth', () => {
    let tree: Record<string, unknown> = { value: 'leaf' };
    for (let i = 0; i < 200; i++) tree = { value: `n${i}`, children: [tree] };
    const copy = generated.deepCopyTreeNode!(tree);
    expect(copy).toStrictEqual(tree);
    expect(copy).not.toBe(tree);
  });
});

describe('generated code type-checks against the types it copies', () => {
  it('compiles with strict, noUncheckedIndexedAccess and exactOptionalPropertyTypes', () => {
    const dir = mkdtempSync(join(tmpdir(), 'kubeforge-deepcopy-'));
    try {
      cpSync(fixtureRoot, dir, { recursive: true });
      const generatedPath = join(dir, 'api/v1/zz_generated.deepcopy.ts');
      writeFileSync(generatedPath, emitSample());
      expect(strictDiagnostics([generatedPath], dir)).toEqual([]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('golden output', () => {
  it('matches fixtures/sample/api/v1/zz_generated.deepcopy.ts.golden (UPDATE_GOLDEN=1 rewrites it)', () => {
    const text = emitSample();
    if (process.env.UPDATE_GOLDEN === '1') writeFileSync(goldenPath, text);
    expect(text).toBe(readFileSync(goldenPath, 'utf8'));
  });
});

describe('from TypeScript sources through the reader', () => {
  it('reads fixtures/sample into the same model the tests build by hand, so it emits the same golden text', async () => {
    const { model, diagnostics } = await loadApiProject({ root: fixtureRoot });
    expect(diagnostics).toEqual([]);
    expect(emitDeepCopy(model, model.groups[0]!.versions[0]!)).toBe(readFileSync(goldenPath, 'utf8'));
  });
});
