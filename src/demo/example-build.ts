/**
 * Makes the reference operators in examples/ runnable by Node: transpiles each example's TypeScript
 * (api/, internal/, without tests) into dist/examples/<name>/, where `kubeforge/<part>` resolves through
 * this package's own `exports` (Node's package self-reference) to the dist/ the demo itself runs from.
 * swc transpiles (a development dependency, as the demo is one: dist/demo is not packed): 0.1 s of CPU for
 * the examples' 115 files, where TypeScript's transpileModule took 2 s. A file swc cannot parse is given
 * to TypeScript for its diagnostic, which names file:line:col.
 */
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { transformSync, type Options } from '@swc/core';

/** What transpileModule did with target ES2022 and module ESNext: types and type-only imports gone, an inline source map with the sources. */
const SWC_OPTIONS: Options = {
  swcrc: false,
  configFile: false,
  isModule: true,
  sourceMaps: 'inline',
  inlineSourcesContent: true,
  jsc: { target: 'es2022', parser: { syntax: 'typescript' }, transform: { useDefineForClassFields: true } },
  module: { type: 'es6' },
};

/** The folders of an example that hold the code its controllers need at run time. */
const RUNTIME_FOLDERS = ['api', 'internal'];

function sourceFiles(folder: string): string[] {
  let entries;
  try {
    entries = readdirSync(folder, { withFileTypes: true });
  } catch {
    return [];
  }
  return entries.flatMap((entry) => {
    const path = join(folder, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts') && !entry.name.endsWith('.d.ts') ? [path] : [];
  });
}

/**
 * Transpiles `exampleDir` (api/, internal/ and the `extraFolders` given, e.g. jobconfig's `cmd/furiko`)
 * into `outDir` (emptied first) and returns the number of files written.
 * Type-only: no type check here (each example's tsconfig.repo.json does that in CI), so a type error
 * elsewhere never stops the demo; a syntax error does, naming file:line:col.
 */
export async function buildExample(exampleDir: string, outDir: string, extraFolders: string[] = []): Promise<number> {
  rmSync(outDir, { recursive: true, force: true });
  const files = [...RUNTIME_FOLDERS, ...extraFolders].flatMap((folder) => sourceFiles(join(exampleDir, folder)));
  if (files.length === 0) throw new Error(`${exampleDir}: no TypeScript sources under ${RUNTIME_FOLDERS.join('/, ')}/`);
  for (const file of files) {
    const text = readFileSync(file, 'utf8');
    let code: string;
    try {
      code = transformSync(text, { ...SWC_OPTIONS, filename: file }).code;
    } catch (err) {
      throw new Error((await syntaxError(file, text)) ?? `${file}: ${err instanceof Error ? err.message : String(err)}`, { cause: err });
    }
    const target = join(outDir, relative(exampleDir, file)).replace(/\.ts$/, '.js');
    mkdirSync(dirname(target), { recursive: true });
    writeFileSync(target, code);
  }
  return files.length;
}

/** TypeScript's first syntax error in `text` as `file:line:col: message`; undefined when it finds none. */
async function syntaxError(file: string, text: string): Promise<string | undefined> {
  const ts = (await import('typescript')).default;
  const result = ts.transpileModule(text, { fileName: file, reportDiagnostics: true, compilerOptions: { target: ts.ScriptTarget.ES2022, module: ts.ModuleKind.ESNext } });
  const problem = result.diagnostics?.find((d) => d.category === ts.DiagnosticCategory.Error);
  if (!problem) return undefined;
  const where = problem.file && problem.start !== undefined ? problem.file.getLineAndCharacterOfPosition(problem.start) : undefined;
  const position = where ? `:${where.line + 1}:${where.character + 1}` : '';
  return `${file}${position}: ${ts.flattenDiagnosticMessageText(problem.messageText, '\n')}`;
}
