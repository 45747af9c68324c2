/**
 * The TypeScript compiler a host process hands the reader instead of the one it would load itself: the editor
 * plugin runs inside tsserver, which gives its plugins its own compiler (`modules.typescript`), so the reader need
 * not load a second one (ts-morph's bundled compiler: ~0.4 CPU-s at every tsserver start, and its memory). It must
 * be handed over before src/reader/typescript.ts is first evaluated (ts-plugin/index.js loads this module first).
 */
import type { ts as TypeScript } from 'ts-morph';

/** The oldest TypeScript whose parser API the reader uses throughout (`JSDocParsingMode` came in 5.3). */
export const OLDEST_HOST_TYPESCRIPT = [5, 3] as const;

let hosted: typeof TypeScript | undefined;

/** Why `compiler` cannot serve the reader, or undefined when it can. */
export function unusableHostTypeScript(compiler: unknown): string | undefined {
  const candidate = compiler as Partial<typeof TypeScript> | undefined;
  const version = typeof candidate?.version === 'string' ? candidate.version : undefined;
  if (version === undefined || typeof candidate?.createSourceFile !== 'function') return 'not a TypeScript compiler module';
  const [major = 0, minor = 0] = version.split('.').map(Number);
  const [oldestMajor, oldestMinor] = OLDEST_HOST_TYPESCRIPT;
  if (major < oldestMajor || (major === oldestMajor && minor < oldestMinor)) return `TypeScript ${version} is older than ${oldestMajor}.${oldestMinor}`;
  if (candidate.JSDocParsingMode === undefined) return `TypeScript ${version} has no JSDocParsingMode`;
  return undefined;
}

/**
 * Hands the reader `compiler` (the host's TypeScript). Returns why it was not taken (too old, not a compiler), or
 * undefined when the reader will use it; the reader then loads its own compiler as without a host.
 */
export function useHostTypeScript(compiler: unknown): string | undefined {
  const problem = unusableHostTypeScript(compiler);
  if (problem === undefined) hosted = compiler as typeof TypeScript;
  return problem;
}

/** The compiler a host handed over, if any. */
export function hostTypeScript(): typeof TypeScript | undefined {
  return hosted;
}
