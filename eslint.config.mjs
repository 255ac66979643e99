// The rules the tools keep, not memory: type-aware TypeScript rules, Lit's template rules, and the
// import boundaries (the protocol imports nothing; the proxy and the server only the protocol).
import tseslint from 'typescript-eslint';
import lit from 'eslint-plugin-lit';

/** What the server half may not import: anything of the browser half. */
const BROWSER_HALF = ['**/client/**', '**/internal/**', '**/elements/**', '**/i18n/**', '**/react/**', '**/vue/**', '**/types/**', 'lit', 'lit/**'];

export default tseslint.config(
  // test/types is compiled by `npm run typecheck` against the built package, each file by its own tsconfig
  { ignores: ['dist/**', '**/dist/**', 'node_modules/**', 'examples/**', 'bin/**', 'sandbox/bin/**', 'test/types/**'] },
  {
    files: ['src/**/*.ts', 'sandbox/src/**/*.ts', 'scripts/**/*.ts', 'test/**/*.ts', 'bench/**/*.ts', 'demo/**/*.ts'],
    linterOptions: { reportUnusedDisableDirectives: 'error' },
    languageOptions: { parser: tseslint.parser, parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
    plugins: { '@typescript-eslint': tseslint.plugin, lit },
    rules: {
      ...lit.configs['flat/recommended'].rules,
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': ['error', { checksVoidReturn: { arguments: false, attributes: false } }],
      '@typescript-eslint/await-thenable': 'error',
      '@typescript-eslint/no-unnecessary-type-assertion': 'error',
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      // (an import() type stays where a module is loaded on demand: a static import would bundle it)
      '@typescript-eslint/consistent-type-imports': ['error', { fixStyle: 'inline-type-imports', disallowTypeAnnotations: false }],
      // parsed JSON (any) and other untyped values are checked before use, never used as they come
      '@typescript-eslint/no-unsafe-assignment': 'error',
      '@typescript-eslint/no-unsafe-member-access': 'error',
      '@typescript-eslint/no-unsafe-call': 'error',
      '@typescript-eslint/no-unsafe-return': 'error',
      '@typescript-eslint/no-unsafe-argument': 'error',
      // a cast that narrows says why, in its disable comment (an unused one is an error), or is a check instead
      '@typescript-eslint/no-unsafe-type-assertion': 'error',
      '@typescript-eslint/only-throw-error': 'error',
      '@typescript-eslint/prefer-promise-reject-errors': 'error',
    },
  },
  {
    // the sandbox is a package of its own: its files are typed by its own tsconfig
    files: ['sandbox/src/**/*.ts'],
    languageOptions: { parserOptions: { projectService: false, project: './sandbox/tsconfig.json', tsconfigRootDir: import.meta.dirname } },
  },
  {
    // what ships: an assumption that a value is there is a check that says what was missing
    files: ['src/**/*.ts'],
    rules: { '@typescript-eslint/no-non-null-assertion': 'error' },
  },
  {
    // what test code must relax, and why, rule by rule
    files: ['test/**/*.ts'],
    rules: {
      // node:test's describe() and it() return promises the runner itself awaits
      '@typescript-eslint/no-floating-promises': [
        'error',
        {
          allowForKnownSafeCalls: [
            { from: 'package', package: 'node:test', name: ['describe', 'it', 'test', 'suite', 'before', 'after', 'beforeEach', 'afterEach'] },
          ],
        },
      ],
      // a test narrows what it reads (an element of the page it drew, an answer it asserts on): a
      // wrong cast fails at the assertion that follows it
      '@typescript-eslint/no-unsafe-type-assertion': 'off',
      // answers are read as parsed JSON (`any`) and asserted on field by field
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-member-access': 'off',
      '@typescript-eslint/no-unsafe-argument': 'off',
      '@typescript-eslint/no-unsafe-return': 'off',
      '@typescript-eslint/no-unsafe-call': 'off',
      '@typescript-eslint/no-explicit-any': 'off',
    },
  },
  {
    files: ['test/browser/**/*.ts'],
    rules: {
      // chai's Assertion is typed thenable once chai-a11y-axe is loaded, so every expect() would read as
      // a floating promise; the one assertion that is a promise, the axe check, must be awaited:
      '@typescript-eslint/no-floating-promises': 'off',
      'no-restricted-syntax': [
        'error',
        { selector: "ExpressionStatement > CallExpression[callee.property.name='accessible']", message: 'await the axe check: unawaited, it checks nothing' },
      ],
    },
  },
  {
    // the benchmarks' and the demo's pages read the elements they drew themselves
    files: ['bench/**/*.ts', 'demo/**/*.ts'],
    rules: {
      '@typescript-eslint/no-unsafe-type-assertion': 'off',
      '@typescript-eslint/no-unsafe-member-access': 'off',
      '@typescript-eslint/no-unsafe-assignment': 'off',
    },
  },
  {
    files: ['src/protocol/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        { patterns: [{ group: ['../**', 'node:*', 'lit', 'lit/**'], message: 'src/protocol is shared by both halves: it imports nothing outside itself' }] },
      ],
    },
  },
  {
    // the session's controller comes after the form (one chunk, loaded on demand): a static import would bundle it into the form
    files: ['src/**/*.ts'],
    ignores: ['src/protocol/**', 'src/proxy/**', 'src/server/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['**/session-controller.js'],
              allowTypeImports: true,
              message: 'the session controller is loaded on demand: import() it, or import its types only',
            },
          ],
        },
      ],
    },
  },
  {
    // a session element draws from its state alone: what changes with time is the controllers' to tick (the connection's "back", a rate limit's wait)
    files: [
      'src/internal/session/session-element.ts',
      'src/internal/session/session-handle.ts',
      'src/internal/session/session-words.ts',
      'src/internal/session/session-end-actions.ts',
      'src/internal/session/session-channels.ts',
    ],
    rules: {
      'no-restricted-properties': [
        'error',
        { object: 'Date', property: 'now', message: 'no clock while drawing: the state says what time changed' },
        { object: 'performance', property: 'now', message: 'no clock while drawing: the state says what time changed' },
      ],
      'no-restricted-syntax': [
        'error',
        { selector: "NewExpression[callee.name='Date'][arguments.length=0]", message: 'no clock while drawing: the state says what time changed' },
      ],
    },
  },
  {
    files: ['src/proxy/**/*.ts', 'src/server/**/*.ts'],
    rules: {
      'no-restricted-imports': ['error', { patterns: [{ group: BROWSER_HALF, message: 'the server half imports only src/protocol of the browser half' }] }],
    },
  },
);
