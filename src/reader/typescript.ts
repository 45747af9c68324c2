/**
 * The one TypeScript compiler the generator uses: the copy ts-morph bundles (the very object ts-morph exports
 * as `ts`), loaded with `require` rather than an ESM import. Loading it alone — not the rest of ts-morph, and
 * not through the ESM loader, which scans the 9 MB CommonJS file for export names and module syntax first —
 * saves most of a second of every `manifests` and `generate` run. Compiling those 9 MB is most of what is
 * left, so V8's code for it is kept in `node_modules/.cache/kubeforge` (see compiler-code-cache.ts).
 * Types come from `import type { ts } from 'ts-morph'` (the same declarations).
 */
import { createRequire } from 'node:module';
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { ts as TypeScript } from 'ts-morph';
import { codeCacheWanted, requireWithCodeCache } from './compiler-code-cache.js';

function loadBundledTypeScript(): typeof TypeScript {
  const requireHere = createRequire(import.meta.url);
  const tsMorphMain = requireHere.resolve('ts-morph');
  // ts-morph's `ts` is `require('@ts-morph/common').ts`, which is `require('./typescript')` next to common's main.
  const requireFromTsMorph = createRequire(tsMorphMain);
  try {
    const compiler = join(dirname(requireFromTsMorph.resolve('@ts-morph/common')), 'typescript.js');
    if (existsSync(compiler)) return (codeCacheWanted() ? requireWithCodeCache(compiler) : requireFromTsMorph(compiler)) as typeof TypeScript;
  } catch {
    // A different ts-morph layout: fall back to its public export below.
  }
  return (requireHere('ts-morph') as { ts: typeof TypeScript }).ts;
}

export const ts: typeof TypeScript = loadBundledTypeScript();
