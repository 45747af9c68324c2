// The parser-only part of the TypeScript compiler parses every file the reader reads exactly as the whole compiler
// does (same nodes, positions, identifier texts, node methods), loads the whole compiler only for an export it
// leaves out, and a bundle of another layout gives no part (the whole one is used). The spawned CLI, which uses
// the part (jest's in-process runs use the whole compiler), writes the same files as an in-process run.
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { ts as TypeScript } from 'ts-morph';
import { planManifests } from '../cli/manifests.js';
import { forgetLoadedModule, requirePartWithCodeCache } from './compiler-code-cache.js';
import { compilerFromPart, parserOnlySource } from './parser-only-compiler.js';

const checkout = join(dirname(fileURLToPath(import.meta.url)), '../..');
const fromTsMorph = createRequire(createRequire(import.meta.url).resolve('ts-morph'));
const bundle = join(dirname(fromTsMorph.resolve('@ts-morph/common')), 'typescript.js');
const whole = fromTsMorph(bundle) as typeof TypeScript;

/** Every .ts file under `dir`, absolute. */
function sources(dir: string): string[] {
  return readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .filter((f) => f.endsWith('.ts'))
    .map((f) => join(dir, f))
    .sort();
}

/** Every node of a parse as text: kind, full and trimmed span, identifier text, in visiting order. */
function dump(ts: typeof TypeScript, file: string): string[] {
  const text = readFileSync(file, 'utf8');
  const source = ts.createSourceFile(file, text, { languageVersion: ts.ScriptTarget.Latest, jsDocParsingMode: ts.JSDocParsingMode.ParseNone }, false, ts.ScriptKind.TS);
  const out: string[] = [`diagnostics ${((source as unknown as { parseDiagnostics: unknown[] }).parseDiagnostics ?? []).length}`];
  const visit = (node: TypeScript.Node): void => {
    const name = ts.isIdentifier(node) ? ` ${node.text}` : '';
    const { line, character } = source.getLineAndCharacterOfPosition(node.getStart(source));
    out.push(`${ts.SyntaxKind[node.kind]} ${node.pos}-${node.end} ${line}:${character} ${JSON.stringify(node.getText(source).slice(0, 40))}${name}`);
    ts.forEachChild(node, visit);
  };
  visit(source);
  return out;
}

describe('the parser-only compiler', () => {
  let wholeLoads = 0;
  let part: typeof TypeScript;
  beforeAll(() => {
    forgetLoadedModule(`${bundle}#parser`);
    const exports = requirePartWithCodeCache(bundle, 'parser', parserOnlySource, false) as object;
    part = compilerFromPart(exports, () => (wholeLoads++, whole))!;
  });

  it('is a quarter of the bundle and passes its own check', () => {
    const text = readFileSync(bundle, 'latin1');
    const source = parserOnlySource(text)!;
    expect(source.length).toBeLessThan(text.length / 3);
    expect(source).toContain('\n// src/compiler/parser.ts\n');
    expect(source).not.toContain('\n// src/compiler/checker.ts\n');
    expect(part).toBeDefined();
  });

  it('parses every reader fixture as the whole compiler does, without loading it', () => {
    const files = [join(checkout, 'src/generate/crd/fixtures'), join(checkout, 'e2e/generator/fixtures'), join(checkout, 'examples/cronjob/api')].flatMap(sources);
    expect(files.length).toBeGreaterThan(20);
    for (const file of files) expect([file, ...dump(part, file)]).toEqual([file, ...dump(whole, file)]);
    expect(wholeLoads).toBe(0);
  });

  it('takes an export it leaves out from the whole compiler, loaded then', () => {
    const broken = part.createSourceFile('x.ts', 'interface {', { languageVersion: part.ScriptTarget.Latest }, false, part.ScriptKind.TS);
    const messages = (broken as unknown as { parseDiagnostics: TypeScript.DiagnosticWithLocation[] }).parseDiagnostics.map((d) => part.flattenDiagnosticMessageText(d.messageText, ' '));
    expect(messages).toEqual(['Interface must be given a name.', "'}' expected."]);
    expect(wholeLoads).toBe(1);
    // a node method the part does not write itself calls the whole compiler's
    const text = 'export interface A { b: string }';
    const kinds = (ts: typeof TypeScript) => {
      const source = ts.createSourceFile('a.ts', text, { languageVersion: ts.ScriptTarget.Latest }, false, ts.ScriptKind.TS);
      return source.statements[0]!.getChildren(source).map((c) => ts.SyntaxKind[c.kind]);
    };
    expect(kinds(part)).toEqual(kinds(whole));
    expect(kinds(part).length).toBeGreaterThan(3);
    expect(wholeLoads).toBe(1);
  });

  it('gives no part for a bundle of another layout', () => {
    expect(parserOnlySource('var ts = {}; ((module) => {\n})({ get exports() { return ts; } });')).toBeUndefined();
    expect(compilerFromPart({}, () => whole)).toBeUndefined();
  });

  it('in a spawned CLI (which uses it) writes the same manifests as an in-process run (the whole compiler)', async () => {
    const cli = join(checkout, 'bin/kubeforge.js');
    expect(existsSync(join(checkout, 'dist/cli/main.js'))).toBe(true);
    const project = mkdtempSync(join(tmpdir(), 'kubeforge-parser-only-'));
    try {
      cpSync(join(checkout, 'e2e/generator/fixtures/good'), project, { recursive: true });
      const planned = await planManifests({ root: project });
      expect(planned.diagnostics).toEqual([]);
      const env = Object.fromEntries(Object.entries(process.env).filter(([name]) => name !== 'JEST_WORKER_ID'));
      const run = spawnSync(process.execPath, [cli, 'manifests', '--root', project], { encoding: 'utf8', env });
      expect(run.stderr).toBe('');
      expect(planned.files.length).toBeGreaterThanOrEqual(2);
      for (const file of planned.files) expect(readFileSync(join(project, file.path), 'utf8')).toBe(file.content);
    } finally {
      rmSync(project, { recursive: true, force: true });
    }
  }, 60_000);
});
