/**
 * The plugin's own guarantees, with a stand-in for tsserver: TypeScript's answers pass through unchanged outside
 * kubeforge projects, the API folder is read once per version of its files, and an error inside the plugin is
 * logged through tsserver's logger while TypeScript's answer is returned — tsserver never sees it.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import ts from 'typescript';
import { kubeforgeTsPlugin, KUBEFORGE_DIAGNOSTIC_CODE } from './plugin.js';

const GROUP_VERSION = "// +groupName=example.com\nexport const groupVersion = { group: 'example.com', version: 'v1' };\n";
const TYPES = 'export interface ThingSpec {\n  // +kubebuilder:validation:Minimun=1\n  size?: number;\n}\n';

/** A plugin over a stand-in language service whose own answers are recognisable, with the texts and versions it serves. */
interface Stand {
  plugin: ts.LanguageService;
  log: string[];
  versions: Map<string, number>;
  texts: Map<string, string>;
  failSnapshots: boolean;
}

function standIn(): Stand {
  const own: Partial<ts.LanguageService> = {
    getSemanticDiagnostics: () => [{ file: undefined, start: 0, length: 1, messageText: 'own', category: ts.DiagnosticCategory.Error, code: 1 }],
    getQuickInfoAtPosition: () => ({ kind: ts.ScriptElementKind.unknown, kindModifiers: '', textSpan: { start: 0, length: 1 }, displayParts: [{ text: 'own', kind: 'text' }] }),
    getCompletionsAtPosition: () => undefined,
    getProgram: () => undefined,
  };
  const stand = { log: [] as string[], versions: new Map<string, number>(), texts: new Map<string, string>(), failSnapshots: false };
  const host = {
    getScriptVersion: (f: string) => String(stand.versions.get(f) ?? 0),
    getScriptSnapshot: (f: string) => {
      if (stand.failSnapshots) throw new Error('snapshot exploded');
      const text = stand.texts.get(f);
      return text === undefined ? undefined : ts.ScriptSnapshot.fromString(text);
    },
  } as unknown as ts.LanguageServiceHost;
  const info = {
    languageService: own as ts.LanguageService,
    languageServiceHost: host,
    project: { getProjectName: () => 'test', projectService: { logger: { info: (m: string) => stand.log.push(m) } } },
    config: {},
  } as unknown as ts.server.PluginCreateInfo;
  return Object.assign(stand, { plugin: kubeforgeTsPlugin({ typescript: ts }).create(info) });
}

describe('kubeforgeTsPlugin', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'kubeforge-ts-plugin-'));
    mkdirSync(join(dir, 'project/api/v1'), { recursive: true });
    writeFileSync(join(dir, 'project/PROJECT'), 'domain: example.com\n');
    writeFileSync(join(dir, 'project/api/v1/groupversion_info.ts'), GROUP_VERSION);
    writeFileSync(join(dir, 'project/api/v1/thing_types.ts'), TYPES);
    mkdirSync(join(dir, 'elsewhere/api'), { recursive: true });
    writeFileSync(join(dir, 'elsewhere/api/types.ts'), TYPES);
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('adds manifests diagnostics in a kubeforge project, reading the API folder once per version of its files', () => {
    const stand = standIn();
    const file = join(dir, 'project/api/v1/thing_types.ts');
    stand.texts.set(file, TYPES);
    const first = stand.plugin.getSemanticDiagnostics(file);
    expect(first.map((d) => d.messageText)).toEqual(['own', 'unknown marker "+kubebuilder:validation:Minimun" (did you mean "+kubebuilder:validation:Minimum"?)']);
    expect(first[1]).toMatchObject({ code: KUBEFORGE_DIAGNOSTIC_CODE, source: 'kubeforge', start: TYPES.indexOf('+'), length: '+kubebuilder:validation:Minimun=1'.length });
    stand.plugin.getSemanticDiagnostics(file);
    const reads = () => stand.log.filter((m) => m.includes('read 2 API files')).length;
    expect(reads()).toBe(1);
    stand.texts.set(file, TYPES.replace('Minimun', 'Minimum'));
    stand.versions.set(file, 1);
    expect(stand.plugin.getSemanticDiagnostics(file).map((d) => d.messageText)).toEqual(['own']);
    expect(reads()).toBe(2);
  });

  it('leaves files outside a kubeforge project (no PROJECT file) alone', () => {
    const stand = standIn();
    const file = join(dir, 'elsewhere/api/types.ts');
    stand.texts.set(file, TYPES);
    expect(stand.plugin.getSemanticDiagnostics(file).map((d) => d.messageText)).toEqual(['own']);
    expect(stand.plugin.getQuickInfoAtPosition(file, TYPES.indexOf('+') + 3)?.displayParts?.[0]?.text).toBe('own');
  });

  it("logs an error of its own and gives TypeScript's answer", () => {
    const stand = standIn();
    const file = join(dir, 'project/api/v1/thing_types.ts');
    stand.failSnapshots = true;
    expect(stand.plugin.getSemanticDiagnostics(file).map((d) => d.messageText)).toEqual(['own']);
    expect(stand.plugin.getQuickInfoAtPosition(file, TYPES.indexOf('+') + 3)?.displayParts?.[0]?.text).toBe('own');
    expect(stand.plugin.getCompletionsAtPosition(file, TYPES.indexOf('+') + 3, undefined)).toBeUndefined();
    const failures = stand.log.filter((m) => m.startsWith('[kubeforge]') && m.includes('failed: Error: snapshot exploded'));
    expect(failures.map((m) => m.split(' failed')[0])).toEqual(['[kubeforge] diagnostics', '[kubeforge] hover', '[kubeforge] completion']);
  });
});
