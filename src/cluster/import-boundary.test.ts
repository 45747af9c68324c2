// The local cluster stands on its own: no module it loads (its own, or the shared ones it imports, followed
// through) comes from the controller runtime in src/runtime. The Clock they share lives in src/clock.
import { readdirSync, readFileSync, existsSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

const clusterDir = dirname(fileURLToPath(import.meta.url));
const srcDir = resolve(clusterDir, '..');
const runtimeDir = join(srcDir, 'runtime');

function tsFilesUnder(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return tsFilesUnder(path);
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.d.ts') ? [path] : [];
  });
}

/** Every module specifier a file imports, re-exports or loads with `import()`. */
function specifiersOf(file: string): string[] {
  return ts.preProcessFile(readFileSync(file, 'utf8'), true, true).importedFiles.map((imported) => imported.fileName);
}

/** The source file a relative specifier names (`./x.js` → `x.ts`), or undefined for packages. */
function resolveRelative(from: string, specifier: string): string | undefined {
  if (!specifier.startsWith('.')) return undefined;
  const target = resolve(dirname(from), specifier);
  for (const candidate of [target.replace(/\.js$/, '.ts'), `${target}.ts`, join(target, 'index.ts')]) {
    if (existsSync(candidate)) return candidate;
  }
  return undefined;
}

/** Import chains from src/cluster's modules into src/runtime (or the `kubeforge/runtime` package). */
function runtimeImports(roots: string[]): string[] {
  const found: string[] = [];
  const seen = new Set<string>();
  const queue = roots.map((file) => ({ file, chain: [relative(srcDir, file)] }));
  while (queue.length > 0) {
    const { file, chain } = queue.shift()!;
    if (seen.has(file)) continue;
    seen.add(file);
    for (const specifier of specifiersOf(file)) {
      if (specifier === 'kubeforge/runtime' || specifier.startsWith('kubeforge/runtime/')) {
        found.push([...chain, specifier].join(' → '));
        continue;
      }
      const target = resolveRelative(file, specifier);
      if (target === undefined) continue;
      if (target.startsWith(runtimeDir + '/')) found.push([...chain, relative(srcDir, target)].join(' → '));
      else queue.push({ file: target, chain: [...chain, relative(srcDir, target)] });
    }
  }
  return found;
}

describe('src/cluster imports nothing from src/runtime', () => {
  const clusterFiles = tsFilesUnder(clusterDir);

  it('finds the cluster modules and follows their imports', () => {
    expect(clusterFiles.length).toBeGreaterThan(100);
    expect(clusterFiles.map((file) => relative(srcDir, file))).toContain('cluster/local-cluster.ts');
    // the scan sees the imports it must judge: the shared clock is one of them
    expect(specifiersOf(join(clusterDir, 'clock', 'virtual-clock.ts'))).toContain('../../clock/clock.js');
  });

  it('reports an import of the runtime when there is one', () => {
    expect(runtimeImports([join(srcDir, 'testing', 'manual-clock.ts')])).toEqual([]);
    // kubeforge/testing starts a manager, so it does load the runtime, through its test env
    expect(runtimeImports([join(srcDir, 'testing', 'index.ts')])).toContainEqual(expect.stringMatching(/^testing\/index\.ts → testing\/test-env\.ts → runtime\//));
  });

  it('no cluster module, nor anything it imports, loads src/runtime', () => {
    expect(runtimeImports(clusterFiles)).toEqual([]);
  });
});
