// Jest runs the TypeScript sources directly (ESM, transformed by swc): tests always see the current code.
export default {
  testEnvironment: 'node',
  extensionsToTreatAsEsm: ['.ts'],
  transform: {
    '^.+\\.ts$': [
      '@swc/jest',
      {
        jsc: { target: 'es2022', parser: { syntax: 'typescript' } },
        module: { type: 'es6' },
        // a separate map (jest writes it beside its cached code and maps stack traces through it): the inline
        // one tripled the cached code every test file reads, hashes and compiles, and jest cut it out again
        sourceMaps: true,
      },
    ],
  },
  // Examples import `kubeforge/<part>`: served from this checkout's sources, no install inside examples/.
  moduleNameMapper: { '^(\\.{1,2}/.*)\\.js$': '$1', '^kubeforge/(api|runtime|cluster|testing)$': '<rootDir>/src/$1/index.ts' },
  testMatch: ['<rootDir>/src/**/*.test.ts', '<rootDir>/e2e/**/*.test.ts', '<rootDir>/examples/*/test/**/*.test.ts', '<rootDir>/examples/*/internal/**/*.test.ts', '<rootDir>/examples/*/api/**/*.test.ts'],
  testPathIgnorePatterns: ['/node_modules/', '/dist/', '/fixtures/'],
  testTimeout: 60000,
  // jest-runtime sharing compiled code between a worker's test files: a module compiled once in a worker starts
  // from compiled code in its later files (fresh instances still; scripts/jest-code-cache/code-cache.cjs)
  runtime: '<rootDir>/scripts/jest-code-cache/runtime.cjs',
  // one temporary folder per run for results test files share within it (KUBEFORGE_TEST_RUN_DIR), removed at the end
  globalSetup: '<rootDir>/scripts/jest-run-folder/setup.mjs',
  globalTeardown: '<rootDir>/scripts/jest-run-folder/teardown.mjs',
  // slowest first, also on a clean clone without jest's timing cache (scripts/jest-sequencer.mjs)
  testSequencer: '<rootDir>/scripts/jest-sequencer.mjs',
};
