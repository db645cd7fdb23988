// ESLint (flat config) for the project's JavaScript: the page and the JS API run in browsers and
// Workers, scripts and tests in Node. Formatting is Prettier's job (npm run format); these rules
// catch mistakes: undefined or unused names, unreachable code, accidental globals.
import js from '@eslint/js';
import globals from 'globals';

export default [
  {
    ignores: [
      'web/lib/wasm/**',
      'web/lib/vendor/**',
      'build/**',
      'dist/**',
      'dist-single/**',
      'dist.new/**',
      'dist.old/**',
      '**/node_modules/**',
      'bench-results/**',
      'tests/e2e/screenshots/**',
    ],
  },
  js.configs.recommended,
  {
    languageOptions: { ecmaVersion: 'latest', sourceType: 'module' },
    rules: {
      'no-unused-vars': [
        'error',
        { args: 'after-used', argsIgnorePattern: '^_', caughtErrors: 'none', ignoreRestSiblings: true },
      ],
      'no-constant-condition': ['error', { checkLoops: false }],
      eqeqeq: ['error', 'smart'],
      'no-var': 'error',
      'prefer-const': ['error', { destructuring: 'all' }],
    },
  },
  { files: ['web/**/*.js'], languageOptions: { globals: { ...globals.browser, ...globals.worker } } },
  // The JS API also runs in Node (it asks for `process` and node: modules only when it is there).
  {
    files: ['web/lib/**/*.js'],
    languageOptions: {
      globals: { ...globals.browser, ...globals.worker, process: 'readonly', setImmediate: 'readonly' },
    },
  },
  {
    files: ['scripts/**/*.{js,mjs}', 'tests/**/*.{js,mjs}', '*.js', '*.mjs'],
    languageOptions: { globals: { ...globals.node } },
  },
  // Tests and benchmarks hand functions to page.evaluate, which run in the browser.
  {
    files: ['tests/e2e/**/*.mjs', 'tests/e2e-firefox/**/*.mjs', 'scripts/bench/**/*.mjs', 'tests/js/**/*.mjs'],
    languageOptions: { globals: { ...globals.node, ...globals.browser } },
  },
];
