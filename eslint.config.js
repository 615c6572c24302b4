import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';

export default tseslint.config(
  {
    ignores: [
      '**/node_modules/**',
      '**/dist/**',
      'data/**',
      'apps/server/drizzle/**',
      'test-results/**',
      'playwright-report/**',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node } },
    rules: {
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
    },
  },
  {
    // Services know no HTTP (STYLE point 3): they take an Actor, never a request.
    files: [
      'apps/server/src/**/*.service.ts',
      'apps/server/src/modules/gate/**/*.ts',
      'apps/server/src/modules/purchases/{purchase-*,ledger}.ts',
      'apps/server/src/modules/**/*.{bulk,import}.ts',
    ],
    ignores: ['**/*.test.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        { paths: [{ name: 'fastify', message: 'Services take an Actor (lib/actor.ts), not the HTTP request.' }] },
      ],
    },
  },
  {
    // Thin routes (STYLE point 3): the database stays in services; a route calls a service.
    files: ['apps/server/src/**/*.routes.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [{ name: 'drizzle-orm', message: 'Queries belong in the area service, not in a route.' }],
          patterns: [
            {
              group: ['**/db', '**/db/index.js', '**/db/schema.js', '**/db/*', 'drizzle-orm/*'],
              message: 'Routes call a service; the database handle and schema stay there.',
            },
          ],
        },
      ],
    },
  },
  {
    // No god functions: a production function does one job in at most 120 lines (docs/ARCHITECTURE.md).
    files: ['apps/*/src/**/*.{ts,tsx}', 'packages/*/src/**/*.ts'],
    ignores: ['**/*.test.{ts,tsx}', '**/test-*.ts'],
    rules: { 'max-lines-per-function': ['error', { max: 120, skipBlankLines: true, skipComments: true }] },
  },
  {
    files: ['apps/web/**/*.{ts,tsx}'],
    languageOptions: { globals: { ...globals.browser } },
    plugins: { 'react-hooks': reactHooks },
    rules: { 'react-hooks/rules-of-hooks': 'error', 'react-hooks/exhaustive-deps': 'warn' },
  },
);
