// ESLint (flat config): typescript-eslint's recommended rules, plus the type-checked rules that
// catch real bugs in this code base: a promise nobody awaits or handles, a promise where a
// callback's result is ignored, and awaiting a non-promise. Checked by `npm test` (`npm run lint`).
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import { rulesInsideLibs } from './eslint.rules-inside-libs.js';

export default tseslint.config(
  { ignores: ['dist/**', 'node_modules/**', 'data/**', 'coverage/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ['**/*.ts'],
    languageOptions: {
      // The one tsconfig, which holds every .ts file (a file outside it is a parse error, not
      // skipped): about an eighth less CPU than projectService here (ADR 0097).
      parserOptions: { project: ['./tsconfig.json'], tsconfigRootDir: import.meta.dirname },
    },
    rules: {
      '@typescript-eslint/no-floating-promises': [
        'error',
        // node:test's describe/it return promises the runner itself tracks.
        {
          allowForKnownSafeCalls: [
            {
              from: 'package',
              package: 'node:test',
              name: ['describe', 'it', 'test', 'suite', 'before', 'after', 'beforeEach', 'afterEach'],
            },
          ],
        },
      ],
      '@typescript-eslint/no-misused-promises': 'error',
      '@typescript-eslint/await-thenable': 'error',
      // A getter or a hoisted function needs the store itself: that alias is the one allowed.
      '@typescript-eslint/no-this-alias': ['error', { allowedNames: ['store'] }],
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' },
      ],
    },
  },
  ...rulesInsideLibs,
  {
    // Tests poke at untyped answers (JSON bodies, stubs); production code keeps `any` out.
    files: ['**/*.spec.ts', 'test/**/*.ts', '**/testing/**/*.ts'],
    rules: { '@typescript-eslint/no-explicit-any': 'off' },
  },
  {
    files: ['**/*.mjs', '**/*.js', '**/*.cjs'],
    languageOptions: {
      globals: {
        process: 'readonly',
        console: 'readonly',
        URL: 'readonly',
        Buffer: 'readonly',
        setTimeout: 'readonly',
        clearTimeout: 'readonly',
        performance: 'readonly',
        module: 'writable',
        require: 'readonly',
        __dirname: 'readonly',
      },
    },
  },
  {
    // Run by the mongo image's shell (mongosh) at its first start: `db` is that shell's global.
    files: ['deploy/mongo/**/*.js'],
    languageOptions: { globals: { db: 'readonly' } },
  },
);
