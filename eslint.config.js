// @ts-check
/**
 * ESLint over src/, __tests__/ and scripts/ (`npm run lint`, a step of .ci/run): typescript-eslint's
 * strictTypeChecked with type information from tsconfig.eslint.json (tsconfig.json plus the scripts),
 * and eslint-config-prettier last, so no rule argues with the formatter.
 */
import { fileURLToPath } from 'node:url';
import js from '@eslint/js';
import { defineConfig } from 'eslint/config';
import prettier from 'eslint-config-prettier/flat';
import globals from 'globals';
import tseslint from 'typescript-eslint';

export default defineConfig(
  {
    // Digest-covered or byte-shipped trees (see .prettierignore): linted code would invite edits.
    ignores: [
      'dist/**',
      'fixtures/**',
      'witness-packs/**',
      'integrations/**',
      'coverage/**',
      '.tmp/**',
      'bench-out/**',
      '__tests__/**/data/**/*',
      '!__tests__/*/data/*.ts',
      '!__tests__/adapters/data/cargo/record.ts'
    ]
  },
  js.configs.recommended,
  tseslint.configs.strictTypeChecked,
  {
    languageOptions: {
      parserOptions: { project: './tsconfig.eslint.json', tsconfigRootDir: fileURLToPath(new URL('.', import.meta.url)) }
    }
  },
  {
    rules: {
      // Messages interpolate counts and flags on purpose; numbers and booleans print as expected.
      '@typescript-eslint/restrict-template-expressions': ['error', { allowNumber: true, allowBoolean: true }],
      // noUncheckedIndexedAccess makes every indexed read `T | undefined`; `!` after a bounds-checked index or a just-set Map key is the idiom.
      '@typescript-eslint/no-non-null-assertion': 'off',
      // `(x) => void f(x)` and `() => set.add(x)` shorthands are deliberate; statements elsewhere still may not use a void value.
      '@typescript-eslint/no-confusing-void-expression': ['error', { ignoreArrowShorthand: true }],
      // An unused binding named `_x` is deliberate (a destructured field dropped, a callback's unused parameter).
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', destructuredArrayIgnorePattern: '^_', caughtErrors: 'none' }]
    }
  },
  {
    files: ['**/*.js', '**/*.mjs', '**/*.cjs'],
    languageOptions: { globals: globals.node },
    rules: {
      // Plain JS has no annotations: every parsed JSON value and untyped parameter is `any`, so these rules only restate that.
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-member-access': 'off',
      '@typescript-eslint/no-unsafe-argument': 'off',
      '@typescript-eslint/no-unsafe-call': 'off',
      '@typescript-eslint/no-unsafe-return': 'off',
      '@typescript-eslint/restrict-plus-operands': 'off',
      '@typescript-eslint/restrict-template-expressions': 'off'
    }
  },
  {
    // translate.ts and js-integrity.ts walk @babel/parser's AST through a loose `Node` whose fields are `any` (one walker for
    // every node type); typing it with @babel/types is follow-up work, so only the no-unsafe-* rules are off, for these files only.
    files: ['src/formal/translate.ts', 'src/formal/js-integrity.ts'],
    rules: {
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-member-access': 'off',
      '@typescript-eslint/no-unsafe-argument': 'off',
      '@typescript-eslint/no-unsafe-call': 'off',
      '@typescript-eslint/no-unsafe-return': 'off'
    }
  },
  {
    // TypeScript reads this module's types from its .d.mts twin, so it is not in any program: lint it without types.
    files: ['scripts/test-image-setup.mjs'],
    extends: [tseslint.configs.disableTypeChecked]
  },
  {
    // The runner's GITHUB_* and RUNNER_* variables are read in one place, src/inputs/runner-context.ts:
    // a mode names the ones it needs there, and passes the values to the adapters it calls.
    files: ['src/**/*.ts'],
    // pack-cache.ts steers @actions/tool-cache, which reads RUNNER_TOOL_CACHE itself, by setting and restoring that variable.
    ignores: ['src/inputs/**', 'src/fetch/witness/pack-cache.ts'],
    rules: {
      'no-restricted-syntax': [
        'error',
        {
          selector: 'MemberExpression[computed=true] > Literal.property[value=/^(GITHUB|RUNNER)_/]',
          message: 'Read runner variables through readRunnerContext (src/inputs/runner-context.ts), the one place that reads them.'
        },
        {
          selector: 'MemberExpression[computed=false] > Identifier.property[name=/^(GITHUB|RUNNER)_/]',
          message: 'Read runner variables through readRunnerContext (src/inputs/runner-context.ts), the one place that reads them.'
        }
      ]
    }
  },
  {
    files: ['**/*.cjs'],
    languageOptions: { sourceType: 'commonjs' }
  },
  prettier
);
