/**
 * Import spellings the reader understands but `tsc` rejects under a made project's NodeNext settings:
 * `kubernetes-types/batch/v1` (the package has no exports map, so ESM resolution needs the file's
 * `.js` name: TS2307), `kubeforge/kubernetes/core/v1.js` (kubeforge's exports map takes the name without it), a relative `./x` without its extension (TS2835), and `kubeforge/api/index.js`
 * (not in kubeforge's exports map: TS2307), and a name kubernetes-types (1.30, no Go named types) does not
 * export, such as `TaintEffect` (TS2305: kubeforge/kubernetes/<group>/<version> declares it). `kubeforge
 * manifests` warns about each, with the spelling that compiles, instead of leaving the failure to `make build`.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Diagnostic } from '../markers/types.js';

/** `import … from '…'`, `export … from '…'` and `import '…'` statements at the start of a line. */
const STATEMENT = /^[ \t]*(?:import\s*(['"])([^'"\n]+)\1|(?:import|export)\b[^;'"]*?\bfrom\s*(['"])([^'"\n]+)\3)/gm;

/** Every import spelling in `text` (the file `rel` under `root`) that tsc will not resolve, as a warning. */
export function importSpellingWarnings(root: string, rel: string, text: string): Diagnostic[] {
  const warnings: Diagnostic[] = [];
  for (const match of text.matchAll(STATEMENT)) {
    const specifier = (match[2] ?? match[4])!;
    const fix = workingSpelling(path.join(root, rel), specifier);
    if (fix === undefined) continue;
    const at = match.index + match[0].lastIndexOf(specifier) - 1;
    const before = text.slice(0, at);
    const line = before.split('\n').length;
    const column = at - before.lastIndexOf('\n');
    warnings.push({
      position: { file: rel, line, column },
      message: `warning: import '${specifier}' is read here, but tsc (module NodeNext) cannot resolve it (${fix.code}); write '${fix.spelling}'`,
    });
  }
  for (const match of text.matchAll(KUBERNETES_TYPES_NAMES)) {
    const groupVersion = match[2]!.replace(/\.(js|d\.ts)$/, '');
    const exported = kubernetesTypesExports(root, groupVersion);
    if (exported === undefined) continue;
    for (const name of match[1]!.split(',').map((n) => n.trim().replace(/^type\s+/, '').split(/\s+as\s+/)[0]!).filter(Boolean)) {
      // a name Kubernetes 1.32 does not have either is the catalogue's error, not a spelling
      if (exported.has(name) || !kubeforgeDeclarations(groupVersion)?.has(name)) continue;
      const clause = match[0].indexOf('{');
      const at = match.index + clause + match[0].slice(clause).search(new RegExp(`\\b${name}\\b`));
      const before = text.slice(0, at);
      warnings.push({
        position: { file: rel, line: before.split('\n').length, column: at - before.lastIndexOf('\n') },
        message: `warning: '${name}' is read here as Kubernetes 1.32's ${groupVersion}.${name}, but kubernetes-types (1.30) does not export it, so tsc fails (TS2305); 'kubeforge/kubernetes/${groupVersion}' declares it, import it there`,
      });
    }
  }
  return warnings;
}

/** `import [type] { A, B as C } from 'kubernetes-types/<group>/<version>[.js]'`: the names and the module. */
const KUBERNETES_TYPES_NAMES = /^[ \t]*import\s+(?:type\s+)?\{([^}]*)\}\s*from\s*['"]kubernetes-types\/([^'"\n]+)['"]/gm;

const exportsCache = new Map<string, Set<string> | undefined>();

/** The names kubeforge's own 1.32 declaration module `kubeforge/kubernetes/<groupVersion>` exports (undefined: none). */
function kubeforgeDeclarations(groupVersion: string): Set<string> | undefined {
  return declaredNames(fileURLToPath(new URL(`../../kubernetes/${groupVersion}.d.ts`, import.meta.url)));
}

/** The names kubernetes-types' declaration of `groupVersion` exports, from the project's install (undefined: not found). */
function kubernetesTypesExports(root: string, groupVersion: string): Set<string> | undefined {
  return declaredNames(path.join(root, 'node_modules/kubernetes-types', `${groupVersion}.d.ts`));
}

/** The exported type names of a declaration file, read once (undefined: no such file). */
function declaredNames(file: string): Set<string> | undefined {
  if (!exportsCache.has(file)) {
    exportsCache.set(file, exists(file) ? new Set([...fs.readFileSync(file, 'utf8').matchAll(/^export (?:interface|type|declare \w+) (\w+)/gm)].map((m) => m[1]!)) : undefined);
  }
  return exportsCache.get(file);
}

/** The spelling that compiles for `specifier` imported in `fromFile`, or undefined when it compiles as is. */
function workingSpelling(fromFile: string, specifier: string): { spelling: string; code: string } | undefined {
  if (specifier === 'kubeforge/api/index.js') return { spelling: 'kubeforge/api', code: 'TS2307' };
  const kubeforgeKubernetes = /^(kubeforge\/kubernetes\/.+?)\.(js|d\.ts)$/.exec(specifier);
  if (kubeforgeKubernetes) return { spelling: kubeforgeKubernetes[1]!, code: 'TS2307' };
  const k8s = /^kubernetes-types\/(.+)$/.exec(specifier);
  if (k8s) return /\.(js|d\.ts)$/.test(k8s[1]!) ? undefined : { spelling: `kubernetes-types/${k8s[1]!.replace(/\/$/, '')}.js`, code: 'TS2307' };
  if (!specifier.startsWith('./') && !specifier.startsWith('../') && specifier !== '.' && specifier !== '..') return undefined;
  if (/\.(js|mjs|cjs|json|ts|mts|d\.ts)$/.test(specifier)) return undefined;
  const base = path.resolve(path.dirname(fromFile), specifier);
  if (exists(`${base}.ts`)) return { spelling: `${specifier}.js`, code: 'TS2835' };
  if (exists(`${base}.mts`)) return { spelling: `${specifier}.mjs`, code: 'TS2835' };
  if (exists(path.join(base, 'index.ts'))) return { spelling: `${specifier.replace(/\/$/, '')}/index.js`, code: 'TS2834' };
  return undefined;
}

function exists(file: string): boolean {
  return fs.existsSync(file) && fs.statSync(file).isFile();
}

/** The warnings of every .ts file under the API folders (tests and generated deep copies left out). */
export function apiImportSpellingWarnings(root: string, apiPaths: string[]): Diagnostic[] {
  const warnings: Diagnostic[] = [];
  const visit = (abs: string): void => {
    if (!fs.existsSync(abs)) return;
    if (fs.statSync(abs).isDirectory()) {
      for (const entry of fs.readdirSync(abs).sort()) if (entry !== 'node_modules') visit(path.join(abs, entry));
    } else if (/\.m?ts$/.test(abs) && !/\.(test|spec)\.ts$|\.d\.ts$/.test(abs) && !path.basename(abs).startsWith('zz_generated')) {
      const rel = path.relative(root, abs).split(path.sep).join('/');
      warnings.push(...importSpellingWarnings(root, rel, fs.readFileSync(abs, 'utf8')));
    }
  };
  for (const p of apiPaths) visit(path.resolve(root, p));
  return warnings;
}
