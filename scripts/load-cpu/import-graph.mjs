// The modules a test file loads before its first test runs: its static value imports (type-only imports and
// dynamic `import()` are left out — swc drops the first, the second loads at first use), followed through
// this repository's sources, stopping at packages. Answers "which test files load package X, and through
// which of our modules" for scripts/load-cpu/measure.mjs.
import { existsSync, readFileSync } from 'node:fs';
import { builtinModules } from 'node:module';
import path from 'node:path';

const builtins = new Set(builtinModules);
const staticImport = /^[ \t]*(?:import|export)\s+(?!type\s)([^;'"]*?)\s*from\s*['"]([^'"]+)['"]|^[ \t]*import\s*['"]([^'"]+)['"]/gm;

/** The specifiers a source file imports for their values. */
export function valueSpecifiers(text) {
  const found = [];
  for (const m of text.matchAll(staticImport)) {
    const clause = m[1];
    const specifier = m[2] ?? m[3];
    // `import { type A, type B } from` and `export { type A } from` bring no values
    if (clause !== undefined && /^\{[^}]*\}$/.test(clause.trim())) {
      const names = clause.trim().slice(1, -1).split(',').map((s) => s.trim()).filter(Boolean);
      if (names.length > 0 && names.every((n) => n.startsWith('type '))) continue;
    }
    found.push(specifier);
  }
  return found;
}

/** `@scope/name` or `name` of a bare specifier. */
export function packageOf(specifier) {
  const parts = specifier.split('/');
  return specifier.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0];
}

function resolveLocal(fromFile, specifier, checkout) {
  const mapped = /^kubeforge\/(api|runtime|cluster|testing)$/.exec(specifier);
  const base = mapped ? path.join(checkout, 'src', mapped[1], 'index') : path.resolve(path.dirname(fromFile), specifier.replace(/\.js$/, ''));
  for (const candidate of [`${base}.ts`, path.join(base, 'index.ts'), base, `${base}.js`]) if (existsSync(candidate) && !candidate.endsWith('/')) return candidate;
  return undefined;
}

/** Every local file and package a test file reaches through static value imports; each package maps to the local files that import it. */
export function staticGraph(testFile, checkout, memo = new Map()) {
  const files = new Set();
  const packages = new Map();
  const stack = [testFile];
  while (stack.length > 0) {
    const file = stack.pop();
    if (files.has(file)) continue;
    files.add(file);
    if (!/\.(ts|mts|mjs|js)$/.test(file)) continue;
    let specifiers = memo.get(file);
    if (!specifiers) memo.set(file, (specifiers = valueSpecifiers(readFileSync(file, 'utf8'))));
    for (const specifier of specifiers) {
      if (specifier.startsWith('node:') || builtins.has(specifier)) continue;
      if (specifier.startsWith('.') || specifier.startsWith('kubeforge/')) {
        const resolved = resolveLocal(file, specifier, checkout);
        if (resolved) stack.push(resolved);
        continue;
      }
      const name = packageOf(specifier);
      if (!packages.has(name)) packages.set(name, new Set());
      packages.get(name).add(path.relative(checkout, file));
    }
  }
  return { files, packages };
}
