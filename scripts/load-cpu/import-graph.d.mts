// Types of import-graph.mjs, for the tests that check what a kubeforge entry point loads.
export declare function valueSpecifiers(text: string): string[];
export declare function packageOf(specifier: string): string;
export declare function staticGraph(testFile: string, checkout: string, memo?: Map<string, string[]>): { files: Set<string>; packages: Map<string, Set<string>> };
