// Types of code-cache.cjs, for its test (e2e/jest-code-cache.test.ts).
import type { compileFunction, SourceTextModule } from 'node:vm';

export interface CodeCacheStats {
  hits: number;
  misses: number;
  rejected: number;
  bytes: number;
}

export interface VmCompilers {
  SourceTextModule: typeof SourceTextModule;
  compileFunction: typeof compileFunction;
}

export declare function createCodeCache(base: VmCompilers): VmCompilers & { stats: CodeCacheStats };
export declare function mayImportDynamically(text: string): boolean;
