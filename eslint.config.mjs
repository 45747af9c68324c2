// ESLint flat config for kubeforge's own sources (`npm run lint`): eslint's and typescript-eslint's recommended
// rules, as made projects get (templates/init/eslint.config.mjs.hbs); formatting is prettier's business.
// @ts-check
import eslint from '@eslint/js';
import { defineConfig } from 'eslint/config';
import tseslint from 'typescript-eslint';

export default defineConfig(
  {
    // Build output, dependencies, and inputs that are data: generator fixtures and goldens, made-project
    // snapshots, generated modules and generated files of the examples.
    ignores: ['dist/', '**/node_modules/', '**/dist/', '**/fixtures/', '**/testdata/', '**/*.generated.ts', '**/zz_generated.*.ts'],
  },
  {
    files: ['**/*.ts'],
    extends: [eslint.configs.recommended, tseslint.configs.recommended],
    languageOptions: { parserOptions: { tsconfigRootDir: import.meta.dirname } },
    rules: {
      // Unused arguments are fine when prefixed with _ (handler signatures).
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      // A `let` assigned once after closures that read it were made stays a `let` (a const would be in its TDZ).
      'prefer-const': ['error', { ignoreReadBeforeAssign: true }],
    },
  },
  {
    // Tests read API answers as plain JSON and poke at objects the way a user's test would, and match printed
    // YAML and tables whose runs of spaces are the point.
    files: ['**/*.test.ts', 'e2e/**/*.ts'],
    rules: { '@typescript-eslint/no-explicit-any': 'off', 'no-regex-spaces': 'off' },
  },
);
