// The model cache: a second read of an unchanged project is answered from the saved entry; changing an API
// file, adding one, or changing a project file the types import makes the next read parse again; a corrupt
// entry is ignored; no entry is written without node_modules or with KUBEFORGE_NO_MODEL_CACHE=1.
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { loadApiProject } from './index.js';

const GROUP = '// +groupName=toys.example.com\n\nexport const groupVersion = "toys.example.com/v1";\n';
const TOY = `import type { ObjectMeta } from 'kubeforge/api';
import type { Shared } from '../../shared/shared.js';

/** ToySpec is what a Toy wants. */
export interface ToySpec {
  /** Size of the toy. */
  size?: string;
  shared?: Shared;
}

// +kubebuilder:object:root=true
export interface Toy {
  apiVersion: 'toys.example.com/v1';
  kind: 'Toy';
  metadata?: ObjectMeta;
  spec?: ToySpec;
}
`;
const SHARED = '/** Shared is imported from outside api/. */\nexport interface Shared {\n  /** Colour. */\n  colour?: string;\n}\n';

let root: string;

function write(rel: string, text: string): void {
  fs.mkdirSync(path.dirname(path.join(root, rel)), { recursive: true });
  fs.writeFileSync(path.join(root, rel), text);
}

const modelsFolder = (): string => path.join(root, 'node_modules', '.cache', 'kubeforge', 'models');
const savedEntries = (): string[] => (fs.existsSync(modelsFolder()) ? fs.readdirSync(modelsFolder()).filter((f) => f.endsWith('.json')) : []);

/** Rewrites the saved entry's description of Toy: a read that returns the new text came from the cache. */
function markSavedEntry(text: string): void {
  const file = path.join(modelsFolder(), savedEntries()[0]!);
  const entry = JSON.parse(fs.readFileSync(file, 'utf8'));
  const toy = Object.values(entry.result.model.types as Record<string, { name: string; description: string }>).find((t) => t.name === 'ToySpec')!;
  toy.description = text;
  fs.writeFileSync(file, JSON.stringify(entry));
}

const toySpecDescription = async (): Promise<string> => {
  const { model } = await loadApiProject({ root });
  return Object.values(model.types).find((t) => t.name === 'ToySpec')!.description;
};

beforeEach(() => {
  root = fs.mkdtempSync(path.join(os.tmpdir(), 'kubeforge-model-cache-'));
  fs.mkdirSync(path.join(root, 'node_modules'));
  write('api/v1/groupversion_info.ts', GROUP);
  write('api/v1/toy_types.ts', TOY);
  write('shared/shared.ts', SHARED);
});

afterEach(() => {
  delete process.env.KUBEFORGE_NO_MODEL_CACHE;
  fs.rmSync(root, { recursive: true, force: true });
});

test('a second read of an unchanged project comes from the saved entry, equal to a fresh read', async () => {
  const first = await loadApiProject({ root });
  expect(first.diagnostics).toEqual([]);
  expect(savedEntries()).toHaveLength(1);
  const second = await loadApiProject({ root });
  expect(second).toEqual(first);
  markSavedEntry('from the cache');
  expect(await toySpecDescription()).toBe('from the cache');
});

test('changing an API file, adding one, or changing an imported project file makes the next read parse again', async () => {
  await loadApiProject({ root });
  markSavedEntry('from the cache');
  write('api/v1/toy_types.ts', TOY.replace('ToySpec is what a Toy wants.', 'ToySpec is what a Toy needs.'));
  expect(await toySpecDescription()).toBe('ToySpec is what a Toy needs.');

  markSavedEntry('from the cache');
  write('api/v1/extra_types.ts', '/** Extra is new. */\nexport interface Extra {\n  /** Name. */\n  name?: string;\n}\n');
  const withExtra = await loadApiProject({ root });
  expect(Object.values(withExtra.model.types).map((t) => t.name)).toContain('Extra');
  expect(Object.values(withExtra.model.types).find((t) => t.name === 'ToySpec')!.description).toBe('ToySpec is what a Toy needs.');

  markSavedEntry('from the cache');
  write('shared/shared.ts', SHARED.replace('Colour.', 'Colour of the toy.'));
  const { model } = await loadApiProject({ root });
  const shared = Object.values(model.types).find((t) => t.name === 'Shared')!;
  expect(shared.definition.kind === 'struct' && shared.definition.fields[0]!.description).toBe('Colour of the toy.');
  expect(Object.values(model.types).find((t) => t.name === 'ToySpec')!.description).toBe('ToySpec is what a Toy needs.');
});

test('a read with diagnostics is saved and answered the same way', async () => {
  write('api/v1/toy_types.ts', TOY.replace('size?: string;', 'size?: number;'));
  const first = await loadApiProject({ root });
  const again = await loadApiProject({ root });
  expect(again.diagnostics).toEqual(first.diagnostics);
  // (plain `number` is reported by the CRD builder, not the reader; the reader's own errors are syntax errors)
  write('api/v1/toy_types.ts', `${TOY}\nexport interface Broken {\n`);
  const broken = await loadApiProject({ root });
  expect(broken.diagnostics.map((d) => d.message).join('\n')).toMatch(/syntax error/);
  expect((await loadApiProject({ root })).diagnostics).toEqual(broken.diagnostics);
});

test('a corrupt saved entry is ignored and replaced', async () => {
  await loadApiProject({ root });
  const file = path.join(modelsFolder(), savedEntries()[0]!);
  fs.writeFileSync(file, '{"format": 1, "reader": "x", "apiFi');
  expect(await toySpecDescription()).toBe('ToySpec is what a Toy wants.');
  expect(() => JSON.parse(fs.readFileSync(file, 'utf8'))).not.toThrow();
});

test('nothing is saved without node_modules, or with KUBEFORGE_NO_MODEL_CACHE=1', async () => {
  process.env.KUBEFORGE_NO_MODEL_CACHE = '1';
  await loadApiProject({ root });
  expect(savedEntries()).toEqual([]);
  delete process.env.KUBEFORGE_NO_MODEL_CACHE;
  fs.rmSync(path.join(root, 'node_modules'), { recursive: true });
  const { model } = await loadApiProject({ root });
  expect(Object.values(model.types).map((t) => t.name)).toContain('Toy');
  expect(fs.existsSync(path.join(root, 'node_modules'))).toBe(false);
});
