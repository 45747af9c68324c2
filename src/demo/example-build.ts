/**
 * Makes the reference operators in examples/ runnable by Node: transpiles each example's TypeScript
 * (api/, internal/, without tests) into dist/examples/<name>/, where `kubeforge/<part>` resolves through
 * this package's own `exports` (Node's package self-reference) to the dist/ the demo itself runs from.
 */
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';

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
  const ts = (await import('typescript')).default;
  rmSync(outDir, { recursive: true, force: true });
  const files = [...RUNTIME_FOLDERS, ...extraFolders].flatMap((folder) => sourceFiles(join(exampleDir, folder)));
  if (files.length === 0) throw new Error(`${exampleDir}: no TypeScript sources under ${RUNTIME_FOLDERS.join('/, ')}/`);
  for (const file of files) {
    const result = ts.transpileModule(readFileSync(file, 'utf8'), {
      fileName: file,
      reportDiagnostics: true,
      compilerOptions: {
        target: ts.ScriptTarget.ES2022,
        module: ts.ModuleKind.ESNext,
        inlineSourceMap: true,
        inlineSources: true,
      },
    });
    const problem = result.diagnostics?.find((d) => d.category === ts.DiagnosticCategory.Error);
    if (problem) {
      const where = problem.file && problem.start !== undefined ? problem.file.getLineAndCharacterOfPosition(problem.start) : undefined;
      const position = where ? `:${where.line + 1}:${where.character + 1}` : '';
      throw new Error(`${file}${position}: ${ts.flattenDiagnosticMessageText(problem.messageText, '\n')}`);
    }
    const target = join(outDir, relative(exampleDir, file)).replace(/\.ts$/, '.js');
    mkdirSync(dirname(target), { recursive: true });
    writeFileSync(target, result.outputText);
  }
  return files.length;
}
