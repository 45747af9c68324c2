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
        sourceMaps: 'inline',
      },
    ],
  },
  moduleNameMapper: { '^(\\.{1,2}/.*)\\.js$': '$1' },
  testMatch: ['<rootDir>/src/**/*.test.ts', '<rootDir>/e2e/**/*.test.ts', '<rootDir>/examples/*/test/**/*.test.ts'],
  testPathIgnorePatterns: ['/node_modules/', '/dist/', '/fixtures/'],
  testTimeout: 60000,
};
