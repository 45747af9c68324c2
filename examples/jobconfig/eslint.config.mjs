// ESLint flat config (make lint, make lint-fix): eslint's and typescript-eslint's recommended rules for
// the TypeScript sources; formatting is prettier's business (make fmt), so no style rules here.
// @ts-check
import eslint from '@eslint/js';
import { defineConfig } from 'eslint/config';
import tseslint from 'typescript-eslint';

export default defineConfig(
  {
    // Build output, dependencies, the local cluster's state and files `make generate` writes.
    ignores: ['dist/', 'node_modules/', '.kubeforge/', 'api/**/zz_generated.*.ts'],
  },
  {
    files: ['**/*.ts'],
    extends: [eslint.configs.recommended, tseslint.configs.recommended],
    // The project's own tsconfig.json, also when the project sits inside another one (a monorepo, an examples folder).
    languageOptions: { parserOptions: { tsconfigRootDir: import.meta.dirname } },
    rules: {
      // Unused arguments are fine when prefixed with _ (handler signatures).
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
    },
  },
);
