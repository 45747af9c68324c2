/**
 * Markers in the editor (issue 14): a made project's tsconfig.json enables kubeforge/ts-plugin, and its own
 * tsserver — spoken to over the protocol, as an editor does — reports the diagnostics `kubeforge manifests` gives
 * for markers (same message, same line and column, spanning the marker, with "did you mean"), updates them as the
 * text changes, completes marker names and arguments inside `// +` comments, and shows the catalogue's help on
 * hover; it reads the markers with tsserver's own TypeScript (no second compiler loaded into tsserver), also when
 * imported asynchronously. Dependencies are linked from this checkout; dist/ must be built (the plugin loads
 * dist/ts-plugin).
 */
import { existsSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { findMarker } from '../../src/markers/catalogue.js';
import { planManifests } from '../../src/cli/manifests.js';
import { CHECKOUT, createApi, init, linkDependencies, tempProject } from '../scaffold/scaffold-harness.js';
import { TsServer, type ProtocolDiagnostic } from './tsserver-client.js';

const project = tempProject('editor');
let server: TsServer;
let typesFile: string;
let controllerFile: string;
let logFile: string;

const MISSPELLED = '// +kubebuilder:validation:Minimun=0';
const BAD_ARGUMENT = '// +kubebuilder:validation:MaxLength=ten';
const WRONG_FIELD_TYPE = '// +kubebuilder:validation:Minimum=1';
const BAD_RBAC = '// +kubebuilder:rbac:groups=apps,resources=deployments,verbs=get,namspace=default';

/** 1-based line and offset of `index` in `text`, as tsserver counts them. */
function lineOffset(text: string, index: number): { line: number; offset: number } {
  const before = text.slice(0, index).split('\n');
  return { line: before.length, offset: before[before.length - 1]!.length + 1 };
}

function kubeforgeOnly(diagnostics: ProtocolDiagnostic[]): ProtocolDiagnostic[] {
  return diagnostics.filter((d) => d.source === 'kubeforge');
}

/** What `kubeforge manifests` reports for `rel`, as `line:column: message`. */
async function manifestsDiagnostics(rel: string): Promise<string[]> {
  const planned = await planManifests({ root: project.root });
  return planned.diagnostics.filter((d) => d.position.file === rel).map((d) => `${d.position.line}:${d.position.column}: ${d.message}`);
}

beforeAll(async () => {
  if (!existsSync(join(CHECKOUT, 'dist/ts-plugin/index.js'))) throw new Error(`${CHECKOUT}/dist is not built: run \`npx tsc -p tsconfig.build.json\` first`);
  const root = project.root;
  expect(init(root).code).toBe(0);
  expect((await createApi(root, { group: 'batch', version: 'v1', kind: 'CronJob', resource: true, controller: true, manifests: false })).code).toBe(0);
  linkDependencies(root);
  typesFile = join(root, 'api/v1/cronjob_types.ts');
  controllerFile = join(root, 'internal/controller/cronjob_controller.ts');
  const types = readFileSync(typesFile, 'utf8');
  const field = '  foo?: string;\n';
  expect(types).toContain(field);
  writeFileSync(typesFile, types.replace(field, `${field}\n  ${MISSPELLED}\n  schedule?: string;\n\n  ${BAD_ARGUMENT}\n  suffix?: string;\n\n  ${WRONG_FIELD_TYPE}\n  name?: string;\n`));
  const controller = readFileSync(controllerFile, 'utf8');
  const rbac = /^\/\/ \+kubebuilder:rbac:.*\n/m.exec(controller)!;
  writeFileSync(controllerFile, controller.replace(rbac[0], `${rbac[0]}${BAD_RBAC}\n`));
  logFile = join(root, '..', 'tsserver.log');
  server = new TsServer(root, logFile);
  for (const file of [typesFile, controllerFile]) server.notify('open', { file, projectRootPath: root });
}, 120_000);

afterAll(async () => {
  await server?.stop();
  project.remove();
});

describe('kubeforge/ts-plugin in tsserver', () => {
  it("is enabled in the scaffolded tsconfig.json and loaded by the project's tsserver", async () => {
    const tsconfig = JSON.parse(readFileSync(join(project.root, 'tsconfig.json'), 'utf8')) as { compilerOptions: { plugins?: { name: string }[] } };
    expect(tsconfig.compilerOptions.plugins).toEqual([{ name: 'kubeforge/ts-plugin' }]);
    // Node resolves the name through the package's "exports"; tsserver by path (ts-plugin/index.js).
    expect(createRequire(join(project.root, 'package.json')).resolve('kubeforge/ts-plugin')).toBe(join(CHECKOUT, 'ts-plugin/index.js'));
    const info = await server.request<{ configFileName: string }>('projectInfo', { file: typesFile, needFileNameList: false });
    expect(info.configFileName).toBe(join(project.root, 'tsconfig.json'));
    expect(readFileSync(logFile, 'utf8')).toContain(`[kubeforge] plugin enabled for ${join(project.root, 'tsconfig.json')}; `);
  });

  it("reads the markers with tsserver's own TypeScript, not a second compiler of its own", () => {
    // "own": the reader's compiler is the very module tsserver handed the plugin (an identity check in the plugin);
    // the version is the project's TypeScript, which tsserver runs.
    const served = (JSON.parse(readFileSync(join(project.root, 'node_modules/typescript/package.json'), 'utf8')) as { version: string }).version;
    expect(readFileSync(logFile, 'utf8')).toContain(`; markers read with tsserver's own TypeScript ${served}`);
  });

  it('reports the misspelled, the bad and the misplaced marker in api/ as manifests does, on the marker', async () => {
    const { semantic, suggestion } = await server.geterr(typesFile);
    const ours = kubeforgeOnly(semantic);
    const text = readFileSync(typesFile, 'utf8');
    const expected = await manifestsDiagnostics('api/v1/cronjob_types.ts');
    expect(expected.length).toBe(3);
    expect(ours.map((d) => `${d.start.line}:${d.start.offset}: ${d.text}`)).toEqual(expected);

    const misspelled = ours.find((d) => d.text.includes('Minimun'))!;
    expect(misspelled.text).toBe('unknown marker "+kubebuilder:validation:Minimun" (did you mean "+kubebuilder:validation:Minimum"?)');
    const plus = text.indexOf(MISSPELLED) + 3;
    expect(misspelled.start).toEqual(lineOffset(text, plus));
    expect(misspelled.end).toEqual(lineOffset(text, plus + MISSPELLED.length - 3));
    expect(misspelled.category).toBe('error');

    const bad = ours.find((d) => d.text.includes('MaxLength'))!;
    expect(bad.text).toMatch(/^marker "\+kubebuilder:validation:MaxLength=ten": /);
    // An argument error starts at the argument (as `manifests` reports its column), not at the marker's `+`.
    expect(bad.start).toEqual(lineOffset(text, text.indexOf(BAD_ARGUMENT) + BAD_ARGUMENT.indexOf('ten')));

    // Found by the CRD stage, which needs the field's schema: Minimum on a string.
    const misplaced = ours.find((d) => d.text.includes('must apply minimum to a numeric value'))!;
    expect(misplaced.text).toContain(`(${WRONG_FIELD_TYPE.slice(3)})`);
    expect(misplaced.start).toEqual(lineOffset(text, text.indexOf(WRONG_FIELD_TYPE) + 3));
    expect(kubeforgeOnly(suggestion)).toEqual([]);
  });

  it("reports a controller's bad rbac marker as manifests does, with the argument it meant", async () => {
    const ours = kubeforgeOnly((await server.geterr(controllerFile)).semantic);
    const expected = await manifestsDiagnostics('internal/controller/cronjob_controller.ts');
    expect(expected.length).toBeGreaterThan(0);
    expect(ours.map((d) => `${d.start.line}:${d.start.offset}: ${d.text}`)).toEqual(expected);
    expect(ours.some((d) => d.text.includes('unknown argument "namspace"') && d.text.includes('(did you mean "namespace"?)'))).toBe(true);
  });

  it('follows the text as it is typed: a corrected name is no longer reported, and what follows from it is', async () => {
    const text = readFileSync(typesFile, 'utf8');
    const typo = text.indexOf('Minimun') + 'Minimu'.length;
    const start = lineOffset(text, typo);
    server.notify('change', { file: typesFile, ...start, endLine: start.line, endOffset: start.offset + 1, insertString: 'm' });
    const messages = kubeforgeOnly((await server.geterr(typesFile)).semantic).map((d) => d.text);
    expect(messages.filter((m) => m.includes('Minimun'))).toEqual([]);
    // The corrected marker is now read, and the CRD stage finds that it does not fit the string field.
    expect(messages).toContain('field "schedule" of CronJobSpec: must apply minimum to a numeric value, found string (+kubebuilder:validation:Minimum=0)');
    server.notify('change', { file: typesFile, ...start, endLine: start.line, endOffset: start.offset + 1, insertString: 'n' });
    const again = kubeforgeOnly((await server.geterr(typesFile)).semantic).map((d) => d.text);
    expect(again.filter((m) => m.includes('Minimun'))).toHaveLength(1);
    expect(again.filter((m) => m.includes('"schedule"'))).toEqual([]);
  });

  it('completes marker names after `// +kubebuilder:validation:` on a field, from the catalogue', async () => {
    const text = readFileSync(typesFile, 'utf8');
    const at = text.indexOf('  schedule?: string;');
    const insert = '  // +kubebuilder:validation:\n';
    const where = lineOffset(text, at);
    server.notify('change', { file: typesFile, ...where, endLine: where.line, endOffset: where.offset, insertString: insert });
    const cursor = { line: where.line, offset: insert.length }; // just after the last `:`
    const info = await server.request<{ entries: { name: string; replacementSpan?: { start: { line: number; offset: number } } }[] }>('completionInfo', {
      file: typesFile,
      ...cursor,
    });
    const names = info.entries.map((e) => e.name);
    expect(names).toEqual(expect.arrayContaining(['kubebuilder:validation:Minimum', 'kubebuilder:validation:MaxLength', 'kubebuilder:validation:Pattern']));
    expect(names).not.toContain('kubebuilder:object:root'); // a type marker
    expect(names).not.toContain('groupName'); // a package marker
    expect(info.entries[0]!.replacementSpan!.start).toEqual({ line: where.line, offset: '  // +'.length + 1 });
    server.notify('change', { file: typesFile, ...where, endLine: where.line + 1, endOffset: 1, insertString: '' });
  });

  it('completes the arguments an rbac marker has not been given yet', async () => {
    const text = readFileSync(controllerFile, 'utf8');
    const line = '// +kubebuilder:rbac:groups=apps,';
    const where = lineOffset(text, text.indexOf(BAD_RBAC));
    server.notify('change', { file: controllerFile, ...where, endLine: where.line, endOffset: where.offset, insertString: `${line}\n` });
    const info = await server.request<{ entries: { name: string; insertText?: string }[] }>('completionInfo', {
      file: controllerFile,
      line: where.line,
      offset: line.length + 1,
    });
    const names = info.entries.map((e) => e.name);
    expect(names).toEqual(expect.arrayContaining(['resources', 'verbs', 'namespace']));
    expect(names).not.toContain('groups');
    expect(info.entries.find((e) => e.name === 'verbs')!.insertText).toBe('verbs=');
    server.notify('change', { file: controllerFile, ...where, endLine: where.line + 1, endOffset: 1, insertString: '' });
  });

  it('offers the "did you mean" correction as a code fix and as a quick-fix refactoring', async () => {
    const text = readFileSync(typesFile, 'utf8');
    const plus = text.indexOf(MISSPELLED) + 3;
    const start = lineOffset(text, plus);
    const end = lineOffset(text, plus + MISSPELLED.length - 3);
    type Edit = { fileName: string; textChanges: { start: { line: number; offset: number }; end: { line: number; offset: number }; newText: string }[] };
    const expectedEdit: Edit[] = [
      { fileName: typesFile, textChanges: [{ start, end: lineOffset(text, plus + '+kubebuilder:validation:Minimun'.length), newText: '+kubebuilder:validation:Minimum' }] },
    ];

    const supported = await server.request<string[]>('getSupportedCodeFixes', { file: typesFile });
    expect(supported).toContain('91400');
    const fixes = await server.request<{ description: string; changes: Edit[] }[]>('getCodeFixes', {
      file: typesFile,
      startLine: start.line,
      startOffset: start.offset,
      endLine: end.line,
      endOffset: end.offset,
      errorCodes: [91400],
    });
    expect(fixes.map((f) => [f.description, f.changes])).toEqual([['Change to "+kubebuilder:validation:Minimum"', expectedEdit]]);

    const refactors = await server.request<{ name: string; actions: { name: string; kind?: string }[] }[]>('getApplicableRefactors', { file: typesFile, ...start });
    const ours = refactors.find((r) => r.name === 'kubeforgeMarkerSpelling')!;
    expect(ours.actions.map((a) => [a.name, a.kind])).toEqual([['correct', 'quickfix']]);
    const edits = await server.request<{ edits: Edit[] }>('getEditsForRefactor', { file: typesFile, ...start, refactor: ours.name, action: 'correct' });
    expect(edits.edits).toEqual(expectedEdit);
  });

  it("shows a marker's catalogue help on hover", async () => {
    const text = readFileSync(typesFile, 'utf8');
    const marker = text.indexOf('+kubebuilder:validation:MinLength=1');
    const info = await server.request<{ displayString: string; documentation: string; start: { line: number; offset: number }; end: { line: number; offset: number } }>(
      'quickinfo',
      { file: typesFile, ...lineOffset(text, marker + 10) },
    );
    expect(info.displayString).toBe('+kubebuilder:validation:MinLength=<int>');
    expect(info.documentation).toContain(findMarker('kubebuilder:validation:MinLength', 'field')!.summary);
    expect(info.start).toEqual(lineOffset(text, marker));
    expect(info.end).toEqual(lineOffset(text, marker + '+kubebuilder:validation:MinLength'.length));
  });

  it('leaves TypeScript answers alone outside markers', async () => {
    const text = readFileSync(typesFile, 'utf8');
    const info = await server.request<{ displayString: string }>('quickinfo', { file: typesFile, ...lineOffset(text, text.indexOf('CronJobSpec {') + 2) });
    expect(info.displayString).toBe('interface CronJobSpec');
  });
});

describe('kubeforge/ts-plugin in a tsserver on a Node without require(esm)', () => {
  // A minimal kubeforge project (PROJECT, tsconfig.json with the plugin, API types importing nothing), so that
  // this second tsserver loads a small program.
  const small = tempProject('small');
  let older: TsServer;
  afterAll(async () => {
    await older?.stop();
    small.remove();
  });

  it('is imported asynchronously, then takes over and has the editor refresh its diagnostics', async () => {
    const root = small.root;
    mkdirSync(join(root, 'api/v1'), { recursive: true });
    mkdirSync(join(root, 'node_modules'));
    symlinkSync(join(CHECKOUT, 'node_modules/typescript'), join(root, 'node_modules/typescript'));
    symlinkSync(CHECKOUT, join(root, 'node_modules/kubeforge'));
    writeFileSync(join(root, 'PROJECT'), 'domain: example.com\n');
    const compilerOptions = { strict: true, target: 'ES2022', lib: ['ES2022'], module: 'NodeNext', types: [], plugins: [{ name: 'kubeforge/ts-plugin' }] };
    writeFileSync(join(root, 'tsconfig.json'), JSON.stringify({ compilerOptions, include: ['api/**/*.ts'] }));
    writeFileSync(join(root, 'api/v1/groupversion_info.ts'), '// +groupName=example.com\nexport const group = \'example.com\';\n');
    const types = join(root, 'api/v1/thing_types.ts');
    writeFileSync(types, `export interface ThingSpec {\n  ${MISSPELLED}\n  size?: string;\n}\n`);

    older = new TsServer(root, join(root, '..', 'tsserver.log'), ['--no-experimental-require-module']);
    const refreshed = older.event('projectsUpdatedInBackground');
    older.notify('open', { file: types, projectRootPath: root });
    await refreshed;
    const ours = kubeforgeOnly((await older.geterr(types)).semantic);
    const planned = await planManifests({ root });
    const expected = planned.diagnostics.map((d) => `${d.position.line}:${d.position.column}: ${d.message}`);
    expect(expected).toEqual(['2:6: unknown marker "+kubebuilder:validation:Minimun" (did you mean "+kubebuilder:validation:Minimum"?)']);
    expect(ours.map((d) => `${d.start.line}:${d.start.offset}: ${d.text}`)).toEqual(expected);
    expect(readFileSync(join(root, '..', 'tsserver.log'), 'utf8')).toContain("; markers read with tsserver's own TypeScript ");
  });
});
