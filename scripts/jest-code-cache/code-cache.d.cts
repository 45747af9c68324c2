// Types of code-cache.cjs, for its test (e2e/jest-code-cache.test.ts).
import type { compileFunction, Script, SourceTextModule } from 'node:vm';

export interface CodeCacheStats {
  hits: number;
  misses: number;
  rejected: number;
  bytes: number;
  sharedFunctions: number;
  plainFunctions: number;
}

/** node:vm's compilers the cache builds on. */
export interface VmCompilers {
  SourceTextModule: typeof SourceTextModule;
  compileFunction: typeof compileFunction;
  Script: typeof Script;
}

export declare function createCodeCache(base: VmCompilers): Pick<VmCompilers, 'SourceTextModule' | 'compileFunction'> & { stats: CodeCacheStats };
export declare function mayImportDynamically(text: string): boolean;
