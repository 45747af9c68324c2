/**
 * Type-checks generated files as a strict made project would (strict, noUncheckedIndexedAccess,
 * exactOptionalPropertyTypes, noUnusedLocals), with `kubeforge/api`, `kubeforge/kubernetes/*` and
 * `kubernetes-types/*` resolved to this checkout: one `<file>: <message>` per diagnostic (file relative to
 * `baseUrl`), so a test expects `[]`.
 */
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

const repoRoot = fileURLToPath(new URL('../../..', import.meta.url));

export function strictDiagnostics(files: string[], baseUrl: string): string[] {
  const program = ts.createProgram(files, {
    strict: true,
    noUncheckedIndexedAccess: true,
    exactOptionalPropertyTypes: true,
    noUnusedLocals: true,
    noEmit: true,
    skipLibCheck: true,
    target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.ESNext,
    moduleResolution: ts.ModuleResolutionKind.Bundler,
    lib: ['lib.es2023.d.ts'],
    types: [],
    baseUrl,
    paths: {
      'kubeforge/api': [join(repoRoot, 'src/api/index.ts')],
      'kubeforge/kubernetes/*': [join(repoRoot, 'kubernetes/*.d.ts')],
      'kubernetes-types/*': [join(repoRoot, 'node_modules/kubernetes-types/*')],
    },
  });
  return ts.getPreEmitDiagnostics(program).map((d) => `${d.file ? relative(baseUrl, d.file.fileName) : ''}: ${ts.flattenDiagnosticMessageText(d.messageText, '\n')}`);
}
