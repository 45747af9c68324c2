// Types of source-texts.cjs, for its test (e2e/jest-code-cache.test.ts).
export interface SourceTextStats {
  reused: number;
  read: number;
}

export declare function createSourceTexts(): { forTestFile: (cacheFS: Map<string, string>) => Map<string, string>; stats: SourceTextStats };
