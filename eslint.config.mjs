// ESLint flat config: @eslint/js recommended for every file, typescript-eslint recommended for
// TypeScript, and each kind of JavaScript file with the globals of where it runs. Formatting is
// Prettier's (prettier.config.mjs), so no stylistic rule is enabled here. `pnpm lint` runs both.
import js from '@eslint/js';
import { defineConfig } from 'eslint/config';
import globals from 'globals';
import tseslint from 'typescript-eslint';

export default defineConfig(
  {
    ignores: [
      '**/node_modules/',
      '**/dist/',
      '**/coverage/',
      '**/.turbo/',
      '**/matrix-report/',
      '**/matrix-baselines/',
      '**/.memory-matrix/',
      'golden-data/agent-memories/',
      'golden-data/email-sample/',
      'golden-data/legacy/',
      'packages/spec/test/fixtures/golden-tiny/',
    ],
  },
  { linterOptions: { reportUnusedDisableDirectives: 'error' } },
  js.configs.recommended,
  // TypeScript: source and tests of every package (CommonJS through tsc / ts-jest, Node globals).
  {
    files: ['**/*.ts'],
    extends: [tseslint.configs.recommended],
    languageOptions: { globals: globals.node },
    rules: {
      // `_`-prefixed names are deliberately unused (positional parameters, destructured leftovers).
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrorsIgnorePattern: '^_', destructuredArrayIgnorePattern: '^_', ignoreRestSiblings: true },
      ],
    },
  },
  { files: ['packages/*/test/**/*.ts'], languageOptions: { globals: globals.jest } },
  // CommonJS JavaScript run by Node: jest configs, the CLI's bin, the Chroma launcher.
  { files: ['**/*.js', '**/*.cjs'], languageOptions: { sourceType: 'commonjs', globals: globals.node } },
  // ES modules run by Node: the golden-data builder, these config files.
  { files: ['**/*.mjs'], languageOptions: { sourceType: 'module', globals: globals.node } },
  // report.html's browser scripts: classic scripts inlined in load order (format.js defines the
  // shared `MM` namespace, the page inlines Chart.js's UMD build, which defines `Chart`).
  {
    files: ['packages/runner/src/report/html/client/*.js'],
    languageOptions: { sourceType: 'script', globals: { ...globals.browser, MM: 'readonly', Chart: 'readonly' } },
  },
  { files: ['packages/runner/src/report/html/client/format.js'], languageOptions: { globals: { MM: 'off' } } },
);
