/**
 * A made project's dist/ as `tsc -p tsconfig.build.json` writes it, without tsc's type-check: every file of
 * the build's file list transpiled on its own (ts.transpileModule with the project's compiler options, as an
 * ES module: the projects are `"type": "module"`). The JavaScript and source maps are tsc's own, byte for
 * byte (expectEmitEqualsTsc below: run on the dist/ make run-local built with tsc for examples/cronjob in
 * e2e/examples/run-local.test.ts, or by project-emit.test.ts when that file is skipped); the type-check is
 * done elsewhere — npm test's tsconfig.json checks examples/, and make run-local (e2e/examples) builds each
 * example with tsc — so the deploy proofs, which only need the manager's dist/, skip a second one (seconds
 * of CPU per example).
 */
import { mkdirSync, readdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import ts from 'typescript';

/** Writes `<root>/dist` from `<root>/tsconfig.build.json`; returns the .js files written (relative to root). */
export function emitProject(root: string): string[] {
  const configPath = join(root, 'tsconfig.build.json');
  const packageType = (JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { type?: string }).type;
  if (packageType !== 'module') throw new Error(`${join(root, 'package.json')}: "type" is ${JSON.stringify(packageType)}, not "module": emitProject writes ES modules only`);
  const parsed = ts.getParsedCommandLineOfConfigFile(configPath, {}, {
    ...ts.sys,
    onUnRecoverableConfigFileDiagnostic: (diagnostic) => {
      throw new Error(`${configPath}: ${ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n')}`);
    },
  });
  if (!parsed) throw new Error(`${configPath}: not readable`);
  if (parsed.errors.length > 0) throw new Error(`${configPath}: ${parsed.errors.map((d) => ts.flattenDiagnosticMessageText(d.messageText, '\n')).join('; ')}`);
  const { outDir, rootDir } = parsed.options;
  if (!outDir || !rootDir) throw new Error(`${configPath}: outDir and rootDir must be set (the scaffold's tsconfig.json sets both)`);
  // NodeNext decides each file's format from package.json; transpileModule cannot look, so it is told: ESM.
  const compilerOptions: ts.CompilerOptions = { ...parsed.options, module: ts.ModuleKind.ESNext, moduleResolution: ts.ModuleResolutionKind.Bundler };
  const written: string[] = [];
  for (const file of parsed.fileNames) {
    if (file.endsWith('.d.ts')) continue;
    const output = ts.transpileModule(readFileSync(file, 'utf8'), { fileName: file, compilerOptions });
    const target = join(outDir, relative(rootDir, file)).replace(/\.ts$/, '.js');
    mkdirSync(dirname(target), { recursive: true });
    writeFileSync(target, output.outputText);
    if (output.sourceMapText !== undefined) writeFileSync(`${target}.map`, output.sourceMapText);
    written.push(relative(root, target));
  }
  return written;
}

/** Every .js and .js.map under `dir` (relative path → content). */
function emittedFiles(dir: string): Map<string, string> {
  const files = new Map<string, string>();
  const visit = (at: string): void => {
    for (const entry of readdirSync(at, { withFileTypes: true })) {
      const path = join(at, entry.name);
      if (entry.isDirectory()) visit(path);
      else if (/\.js(\.map)?$/.test(entry.name)) files.set(relative(dir, path), readFileSync(path, 'utf8'));
    }
  };
  visit(dir);
  return files;
}

/**
 * Moves the dist/ that tsc built in `root` to dist-tsc/, writes dist/ again with emitProject, and expects the
 * two to hold the same .js and .js.map files, byte for byte (a test's assertions: called inside a test).
 */
export function expectEmitEqualsTsc(root: string): void {
  renameSync(join(root, 'dist'), join(root, 'dist-tsc'));
  const byTsc = emittedFiles(join(root, 'dist-tsc'));
  const written = emitProject(root);
  const byEmit = emittedFiles(join(root, 'dist'));
  expect(byTsc.has('cmd/main.js')).toBe(true);
  expect(written.length).toBeGreaterThan(10);
  expect(written.sort()).toEqual([...byTsc.keys()].filter((f) => f.endsWith('.js')).map((f) => `dist/${f}`).sort());
  expect([...byEmit.keys()].sort()).toEqual([...byTsc.keys()].sort());
  const differing = [...byTsc].filter(([file, text]) => byEmit.get(file) !== text).map(([file]) => file);
  expect(differing).toEqual([]);
}
