// Lint of every TypeScript file: ESLint's and typescript-eslint's recommended rules, type-checked,
// all as errors. A rule is turned off only where the code cannot reasonably meet it, with why.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

/** What Node gives every script (the plain JavaScript files are not type-checked). */
const nodeGlobals = Object.fromEntries(
  ['module', 'require', 'process', 'console', 'Buffer', 'URL', 'URLSearchParams', 'setTimeout', 'clearTimeout', 'fetch', 'performance'].map((name) => [name, 'readonly']),
);

export default tseslint.config(
  { ignores: ['dist/**', 'node_modules/**', 'bench/results/**', 'test-artifacts/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    linterOptions: { reportUnusedDisableDirectives: 'error' },
    rules: {
      // The store's contract and Fastify's plugins are async; the SQLite store and many plugins do
      // their work synchronously inside, and an async function keeps their throws as rejections.
      '@typescript-eslint/require-await': 'off',
      // Graph parameters and stored fields are `unknown` JSON, and String() of them is the coercion
      // the Graph API applies (a client's number or boolean becomes its text).
      '@typescript-eslint/no-base-to-string': 'off',
      // Interfaces spell their function-valued fields in method syntax; the values passed around are
      // closures that never use `this`.
      '@typescript-eslint/unbound-method': 'off',
      // Control characters are exactly what the input checks that use them look for.
      'no-control-regex': 'off',
      // A leading underscore names what a destructuring leaves out on purpose.
      // What a promise rejects with is what was caught, passed on as it came.
      '@typescript-eslint/prefer-promise-reject-errors': ['error', { allowThrowingUnknown: true }],
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', ignoreRestSiblings: true }],
    },
  },
  {
    files: ['test/**/*.ts'],
    rules: {
      // node:test's describe/it return promises that the runner itself awaits.
      '@typescript-eslint/no-floating-promises': [
        'error',
        { allowForKnownSafeCalls: [{ from: 'package', package: 'node:test', name: ['describe', 'it', 'test', 'suite'] }] },
      ],
      // A test reads JSON answers whose shape is the very thing it asserts, so a reply's body is
      // `any` (test/helpers/server.ts); typing every answer would restate each assertion.
      '@typescript-eslint/no-explicit-any': 'off',
      '@typescript-eslint/no-unsafe-member-access': 'off',
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-argument': 'off',
      '@typescript-eslint/no-unsafe-call': 'off',
      '@typescript-eslint/no-unsafe-return': 'off',
    },
  },
  {
    files: ['**/*.js', '**/*.mjs', '**/*.cjs'],
    ...tseslint.configs.disableTypeChecked,
    languageOptions: { ...tseslint.configs.disableTypeChecked.languageOptions, globals: nodeGlobals },
  },
);
