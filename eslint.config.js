// House rules: typescript-eslint's type-checked recommendations, with the checks that catch
// what has bitten this code base (promises nobody awaits or catches, code nobody uses).
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['node_modules/', 'data/', 'coverage/', 'dist/', 'test/fixtures/', 'src/surfaces/api/generated/'] },
  js.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': ['error', { checksVoidReturn: { arguments: false, attributes: false } }],
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', destructuredArrayIgnorePattern: '^_', ignoreRestSiblings: true },
      ],
      '@typescript-eslint/consistent-type-imports': ['error', { fixStyle: 'inline-type-imports' }],
      // Values from JSON the bridge did not write (CLI lines, Bot API bodies) are typed as they are read.
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-member-access': 'off',
      '@typescript-eslint/no-unsafe-argument': 'off',
      '@typescript-eslint/no-unsafe-return': 'off',
      '@typescript-eslint/no-unsafe-call': 'off',
      // Template literals of numbers and unions are how messages are written here.
      '@typescript-eslint/restrict-template-expressions': 'off',
      // An async method may implement a promise-returning interface without awaiting anything.
      '@typescript-eslint/require-await': 'off',
      // escape() is URL encoding, not a regular expression's: named by mistake, it made a path rule match nothing.
      'no-restricted-globals': ['error', { name: 'escape', message: 'Use escapeRegExp (kernel/policy/approval-rules.ts).' }, 'unescape'],
      // The one forward reference in app.ts is declared before the closure that reads it.
      'prefer-const': ['error', { ignoreReadBeforeAssign: true }],
    },
  },
  {
    // Plain JavaScript (the fake CLI, this file): no type information to lint with.
    files: ['**/*.mjs', '**/*.js', '**/*.cjs'],
    ...tseslint.configs.disableTypeChecked,
    languageOptions: {
      ...tseslint.configs.disableTypeChecked.languageOptions,
      globals: {
        module: 'writable',
        process: 'readonly',
        console: 'readonly',
        setTimeout: 'readonly',
        Buffer: 'readonly',
        URL: 'readonly',
        setInterval: 'readonly',
        clearInterval: 'readonly',
        clearTimeout: 'readonly',
      },
    },
  },
);
