import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import importX from 'eslint-plugin-import-x';
import { createTypeScriptImportResolver } from 'eslint-import-resolver-typescript';

/** The top layer of the server: what assembles the app and what runs it. */
const TOP = ['plugins', 'cli', 'demo', 'app', 'routes', 'main'];

/** One block per layer: files of `folders` may not import from `above` (folder names, or top-level files). */
function serverLayers(layers) {
  return layers.map(([folders, above]) => ({
    files: folders.map((f) => `apps/server/src/${f}/**/*.ts`),
    ignores: ['**/*.test.ts', '**/test-*.ts'],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: above.map((a) => (['app', 'routes', 'main'].includes(a) ? `**/${a}.js` : `**/${a}/**`)),
              message: `${folders.join('/ and ')}/ may not import a higher layer (${above.join(', ')}; docs/ARCHITECTURE.md "Layers").`,
            },
          ],
        },
      ],
    },
  }));
}

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
  // Layers of the server (docs/ARCHITECTURE.md "Layers"), lowest first: db/ and lib/, integrations/, modules/,
  // realtime/ (the terminal link, which calls module services), then plugins/, app.ts, routes.ts, main.ts,
  // cli/, demo/. A file imports only from its own layer and those below. Tests may reach any layer.
  // The rule is typescript-eslint's copy of no-restricted-imports (type imports count too), so that it adds
  // to the services' and routes' no-restricted-imports above instead of replacing them.
  ...serverLayers([
    [
      ['db', 'lib'],
      ['integrations', 'modules', 'realtime', ...TOP],
    ],
    [['integrations'], ['modules', 'realtime', ...TOP]],
    [['modules'], ['realtime', ...TOP]],
    [['realtime'], TOP],
  ]),
  {
    // No import cycle (docs/ARCHITECTURE.md "Layers"): the `.js` specifiers of TypeScript sources
    // resolve to their `.ts` files; packages outside the repository are not followed.
    files: ['apps/server/src/**/*.ts', 'packages/domain/src/**/*.ts', 'apps/web/src/**/*.{ts,tsx}'],
    plugins: { 'import-x': importX },
    settings: {
      'import-x/extensions': ['.ts', '.tsx', '.js'],
      'import-x/parsers': { '@typescript-eslint/parser': ['.ts', '.tsx'] },
      'import-x/resolver-next': [
        createTypeScriptImportResolver({
          project: ['apps/server/tsconfig.json', 'packages/domain/tsconfig.json', 'apps/web/tsconfig.json'],
          noWarnOnMultipleProjects: true,
        }),
      ],
    },
    rules: { 'import-x/no-cycle': ['error', { ignoreExternal: true }] },
  },
);
