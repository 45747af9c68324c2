// The apply-configuration generator: which folders and types get configurations, that the generated file
// type-checks under strict settings and agrees with the types it configures (ApplyConfiguration<T>), that
// the builders make the JSON a server-side apply sends, and the golden output.
import { mkdtempSync, cpSync, writeFileSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { strictDiagnostics } from '../testdata/strict-typecheck.js';
import { emitApplyConfigurations, planApplyConfigFiles, selectApplyConfigTypes, APPLYCONFIG_HEADER } from './index.js';
import { loadApiProject } from '../../reader/index.js';
import type { ApiModel } from '../../model/index.js';

const here = dirname(fileURLToPath(import.meta.url));
const repoRoot = join(here, '../../..');
const fixtureRoot = join(here, 'fixtures/sample');
const goldenPath = join(fixtureRoot, 'api/v1/zz_generated.applyconfigurations.ts.golden');

let model: ApiModel;
let text: string;
beforeAll(async () => {
  const loaded = await loadApiProject({ root: fixtureRoot });
  expect(loaded.diagnostics).toEqual([]);
  model = loaded.model;
  text = emitApplyConfigurations(model, model.groups[0]!.versions[0]!)!;
});

type Builder = Record<string, (...args: unknown[]) => Builder>;
type GeneratedModule = Record<string, (...args: unknown[]) => Builder>;

/** Compiles the generated TypeScript to CommonJS and evaluates it (its imports are type-only). */
function loadGenerated(source: string): GeneratedModule {
  const js = ts.transpileModule(source, { compilerOptions: { module: ts.ModuleKind.CommonJS, target: ts.ScriptTarget.ES2022 } }).outputText;
  const exports: Record<string, unknown> = {};
  new Function('exports', 'require', js)(exports, () => {
    throw new Error('generated apply configurations must not import anything at run time');
  });
  return exports as GeneratedModule;
}

describe('type selection', () => {
  const names = () => {
    const selection = selectApplyConfigTypes(model, model.groups[0]!.versions[0]!);
    return { local: selection.local.map((t) => t.name), external: selection.external.map((t) => `${t.file}#${t.name}`), roots: selection.roots.map((t) => t.name) };
  };

  it('takes the kinds (not lists, not ac:generate=false) and every struct they reach, through aliases, lists, maps and embeds', () => {
    expect(names()).toEqual({
      local: ['Base', 'Gadget', 'GadgetSpec', 'Port', 'TreeNode', 'Widget', 'WidgetSpec', 'WidgetStatus'],
      external: ['shared/shared_types.ts#Port', 'shared/shared_types.ts#SharedRef'],
      roots: ['Gadget', 'Widget'],
    });
  });

  it('writes nothing for a folder without +kubebuilder:ac:generate=true (opt-in, as controller-gen)', () => {
    const version = model.groups[0]!.versions[0]!;
    const withoutMarker = { ...version, markers: version.markers.filter((m) => m.name !== 'kubebuilder:ac:generate') };
    expect(emitApplyConfigurations(model, withoutMarker)).toBeUndefined();
    expect(planApplyConfigFiles({ ...model, groups: [{ ...model.groups[0]!, versions: [withoutMarker] }] })).toEqual([]);
    expect(planApplyConfigFiles(model).map((f) => f.path)).toEqual(['api/v1/zz_generated.applyconfigurations.ts']);
  });
});

/** The lines of one generated declaration (`export interface X…` or `export class X`) up to its closing brace. */
function declaration(source: string, head: string): string {
  const start = source.indexOf(`${head} `);
  if (start < 0) throw new Error(`no ${head}`);
  return source.slice(start, source.indexOf('\n}', start) + 2);
}

describe('per feature', () => {
  it.each([
    ['nested structs', 'export interface WidgetApplyConfiguration', ['  spec?: WidgetSpecApplyConfiguration;', '  status?: WidgetStatusApplyConfiguration;']],
    ['lists of structs, of scalars and of lists', 'export interface WidgetSpecApplyConfiguration', ['  ports?: PortApplyConfiguration[];', '  tags?: string[];', '  matrix?: number[][];']],
    ['maps of structs and of scalars', 'export interface WidgetSpecApplyConfiguration', ['  portsByName?: Record<string, PortApplyConfiguration>;', '  labels?: Record<string, string>;']],
    ['the embedded ObjectMeta of a kind, apiVersion and kind literals', 'export interface WidgetApplyConfiguration', ['  readonly [kubeforge.appliesTo]?: WidgetObject;', "  apiVersion?: 'x.example.com/v1';", "  kind?: 'Widget';", '  metadata?: kubeforge.ApplyConfiguration<kubeforge.ObjectMeta>;']],
    ['required and optional fields all optional', 'export interface WidgetStatusApplyConfiguration', ['  readyReplicas?: number;', "  phase?: 'Pending' | 'Done';"]],
    ['Kubernetes types, deep-partial through ApplyConfiguration<T>, and wire-scalar ones as they are', 'export interface WidgetSpecApplyConfiguration', ['  template?: kubeforge.ApplyConfiguration<corev1.PodTemplateSpec>;', '  resources?: kubeforge.ApplyConfiguration<corev1.ResourceRequirements>;', '  startedAt?: string;', '  size?: number | string;', '  target?: number | string;', '  raw?: Record<string, unknown>;']],
    ['conditions as kubeforge/api types them', 'export interface WidgetStatusApplyConfiguration', ['  conditions?: kubeforge.ApplyConfiguration<kubeforge.Condition>[];']],
    ['aliases written as what they stand for; embeds flattened', 'export interface WidgetSpecApplyConfiguration', ['  hosts?: string[];', "  mode?: 'Fast' | 'Slow';", '  id?: string;']],
    ['recursive types', 'export interface TreeNodeApplyConfiguration', ['  children?: TreeNodeApplyConfiguration[];']],
    ['a struct from outside the folder, its name numbered past the folder\'s own', 'export interface SharedRefApplyConfiguration', ['  port?: Port_2ApplyConfiguration;']],
    ['a kind embedding TypeMeta', 'export interface GadgetApplyConfiguration', ['export interface GadgetApplyConfiguration extends kubeforge.TypeMeta {']],
    ['list appends, map puts, value sets', 'export class WidgetSpecBuilder', ['  withPorts(...values: PortApplyConfiguration[]): this {', '    (this.ports ??= []).push(...values);', '  withPortsByName(entries: Record<string, PortApplyConfiguration>): this {', '    this.portsByName = { ...this.portsByName, ...entries };', '  withTree(value: TreeNodeApplyConfiguration): this {', '  withOddName(value: string): this {', "    this['odd-name'] = value;"]],
    ['metadata builders on a kind', 'export class WidgetBuilder', ['  withLabels(entries: Record<string, string>): this {', "  withOwnerReferences(...values: kubeforge.ApplyConfiguration<NonNullable<kubeforge.ObjectMeta['ownerReferences']>[number]>[]): this {", '    ((this.metadata ??= {}).finalizers ??= []).push(...values);']],
  ])('%s', (_feature, head, lines) => {
    const block = declaration(text, head).split('\n');
    for (const line of lines) expect(block).toContain(line);
  });

  it('imports only types: kubeforge/api, the Kubernetes modules used, and the kinds under an alias', () => {
    const imports = text.split('\n').filter((l) => l.startsWith('import '));
    expect(imports).toEqual([
      "import type * as kubeforge from 'kubeforge/api';",
      "import type * as corev1 from 'kubeforge/kubernetes/core/v1';",
      "import type { Gadget as GadgetObject, Widget as WidgetObject } from './widget_types.js';",
    ]);
  });
});

describe('builders', () => {
  const generated = () => loadGenerated(text);

  it('start a kind with apiVersion, kind, name and namespace; a cluster-scoped kind takes no namespace', () => {
    const { Widget, Gadget } = generated();
    expect(JSON.parse(JSON.stringify(Widget!('w1', 'default')))).toEqual({ apiVersion: 'x.example.com/v1', kind: 'Widget', metadata: { name: 'w1', namespace: 'default' } });
    expect(JSON.parse(JSON.stringify(Gadget!('g1')))).toEqual({ apiVersion: 'x.example.com/v1', kind: 'Gadget', metadata: { name: 'g1' } });
    expect(Gadget!.length).toBe(1);
  });

  it('set values, append list items, put map entries, nest configurations — and serialise to the fields only', () => {
    const { Widget, WidgetSpec, WidgetStatus, Port, TreeNode } = generated();
    const config = Widget!('w1', 'default')
      .withLabels!({ app: 'w' })
      .withLabels!({ tier: 'web' })
      .withOwnerReferences!({ apiVersion: 'v1', kind: 'ConfigMap', name: 'owner', uid: 'u1' })
      .withFinalizers!('a', 'b')
      .withSpec!(
        WidgetSpec!()
          .withMode!('Fast')
          .withReplicas!(3)
          .withPorts!(Port!().withName!('http').withPort!(80))
          .withPorts!(Port!().withName!('https'))
          .withPortsByName!({ http: { name: 'http' } })
          .withHosts!('a.example.com')
          .withId!('id-1')
          .withTags!('x')
          .withOddName!('odd')
          .withTree!(TreeNode!().withValue!('root').withChildren!(TreeNode!().withValue!('leaf')))
          .withTemplate!({ spec: { containers: [{ name: 'c', image: 'busybox' }] } }),
      )
      .withStatus!(WidgetStatus!().withReadyReplicas!(2).withConditions!({ type: 'Ready', status: 'True' }));
    expect(JSON.parse(JSON.stringify(config))).toEqual({
      apiVersion: 'x.example.com/v1',
      kind: 'Widget',
      metadata: { name: 'w1', namespace: 'default', labels: { app: 'w', tier: 'web' }, ownerReferences: [{ apiVersion: 'v1', kind: 'ConfigMap', name: 'owner', uid: 'u1' }], finalizers: ['a', 'b'] },
      spec: {
        mode: 'Fast',
        replicas: 3,
        ports: [{ name: 'http', port: 80 }, { name: 'https' }],
        portsByName: { http: { name: 'http' } },
        hosts: ['a.example.com'],
        id: 'id-1',
        tags: ['x'],
        'odd-name': 'odd',
        tree: { value: 'root', children: [{ value: 'leaf' }] },
        template: { spec: { containers: [{ name: 'c', image: 'busybox' }] } },
      },
      status: { readyReplicas: 2, conditions: [{ type: 'Ready', status: 'True' }] },
    });
  });

  it('leave unset fields absent (an apply states only what it owns)', () => {
    const { WidgetSpec } = generated();
    expect(Object.keys(WidgetSpec!().withPaused!(false))).toEqual(['paused']);
  });
});

describe('generated code type-checks against the types it configures', () => {
  it('compiles with strict settings, and each configuration is an ApplyConfiguration of its type', () => {
    const dir = mkdtempSync(join(tmpdir(), 'kubeforge-applyconfig-'));
    try {
      cpSync(fixtureRoot, dir, { recursive: true });
      const generatedPath = join(dir, 'api/v1/zz_generated.applyconfigurations.ts');
      writeFileSync(generatedPath, text);
      // The agreement check a user never writes: a configuration (builder or plain object) is assignable to
      // the generic deep-partial of the type, and the kind's builder answers with the kind's type.
      const checkPath = join(dir, 'api/v1/check.ts');
      writeFileSync(
        checkPath,
        [
          "import type { ApplyConfiguration } from 'kubeforge/api';",
          "import type { Widget, WidgetSpec, Gadget } from './widget_types.js';",
          "import * as ac from './zz_generated.applyconfigurations.js';",
          'export const widget: ApplyConfiguration<Widget> = ac.Widget("w", "ns").withSpec(ac.WidgetSpec().withMode("Slow"));',
          'export const spec: ApplyConfiguration<WidgetSpec> = { mode: "Fast", ports: [{ name: "p" }], template: { spec: { containers: [{ name: "c" }] } } };',
          'export const gadget: ApplyConfiguration<Gadget> = ac.Gadget("g");',
          'export const plain: ac.WidgetApplyConfiguration = { apiVersion: "x.example.com/v1", kind: "Widget", spec: spec };',
          '// @ts-expect-error a mode the enum lacks',
          'ac.WidgetSpec().withMode("Medium");',
        ].join('\n'),
      );
      expect(strictDiagnostics([generatedPath, checkPath], dir)).toEqual([]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('golden output', () => {
  it('starts with the generated-code header and matches fixtures/sample/api/v1/zz_generated.applyconfigurations.ts.golden (UPDATE_GOLDEN=1 rewrites it)', () => {
    expect(text.startsWith(`${APPLYCONFIG_HEADER}\n`)).toBe(true);
    if (process.env.UPDATE_GOLDEN === '1') writeFileSync(goldenPath, text);
    expect(text).toBe(readFileSync(goldenPath, 'utf8'));
  });
});

describe('the configurations of the client cluster tests', () => {
  it('src/runtime/client/testdata/api/v1/zz_generated.applyconfigurations.ts is what the generator makes now (UPDATE_GOLDEN=1 rewrites it)', async () => {
    const root = join(repoRoot, 'src/runtime/client/testdata');
    const { model: widgets, diagnostics } = await loadApiProject({ root });
    expect(diagnostics).toEqual([]);
    const [file] = planApplyConfigFiles(widgets);
    const path = join(root, file!.path);
    if (process.env.UPDATE_GOLDEN === '1') writeFileSync(path, file!.content);
    expect(file!.content).toBe(readFileSync(path, 'utf8'));
  });
});
