/**
 * The one TypeScript compiler the generator uses: the copy ts-morph bundles (the very file ts-morph exports
 * as `ts`), loaded with `require` rather than an ESM import. Loading it alone — not the rest of ts-morph, and
 * not through the ESM loader, which scans the 9 MB CommonJS file for export names and module syntax first —
 * saves most of a second of every `manifests` and `generate` run. Of those 9 MB only the parser's first 2 MB are
 * compiled (parser-only-compiler.ts; the rest is loaded if an export from it is used), and V8's code for them is
 * kept in `node_modules/.cache/kubeforge` (see compiler-code-cache.ts). Under jest, whose tests run in a VM
 * context of their own, the whole compiler is required as usual.
 * Types come from `import type { ts } from 'ts-morph'` (the same declarations). In a host that hands over its
 * own compiler before this module is evaluated (the editor plugin in tsserver, see host-typescript.ts), that one.
 */
import { createRequire } from 'node:module';
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { ts as TypeScript } from 'ts-morph';
import { codeCacheWanted, requirePartWithCodeCache, requireWithCodeCache } from './compiler-code-cache.js';
import { hostTypeScript } from './host-typescript.js';
import { compilerFromPart, parserOnlySource } from './parser-only-compiler.js';

/** The parser-only part of `compiler`, its other exports taken from the whole one; the whole one when that fails. */
function parserFirst(compiler: string, requireWhole: () => typeof TypeScript): typeof TypeScript {
  let part: unknown;
  try {
    part = requirePartWithCodeCache(compiler, 'parser', parserOnlySource, codeCacheWanted());
  } catch {
    part = undefined;
  }
  return (typeof part === 'object' && part !== null ? compilerFromPart(part, requireWhole) : undefined) ?? requireWhole();
}

function loadBundledTypeScript(): typeof TypeScript {
  const requireHere = createRequire(import.meta.url);
  const tsMorphMain = requireHere.resolve('ts-morph');
  // ts-morph's `ts` is `require('@ts-morph/common').ts`, which is `require('./typescript')` next to common's main.
  const requireFromTsMorph = createRequire(tsMorphMain);
  try {
    const compiler = join(dirname(requireFromTsMorph.resolve('@ts-morph/common')), 'typescript.js');
    if (existsSync(compiler)) {
      const requireWhole = () => (codeCacheWanted() ? requireWithCodeCache(compiler) : requireFromTsMorph(compiler)) as typeof TypeScript;
      return process.env.JEST_WORKER_ID === undefined ? parserFirst(compiler, requireWhole) : requireWhole();
    }
  } catch {
    // A different ts-morph layout: fall back to its public export below.
  }
  return (requireHere('ts-morph') as { ts: typeof TypeScript }).ts;
}

export const ts: typeof TypeScript = hostTypeScript() ?? loadBundledTypeScript();
