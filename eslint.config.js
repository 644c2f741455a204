// ESLint flat config for the whole workspace. `pnpm run lint` runs it with `--max-warnings 0`, so
// every rule here is effectively an error. Formatting is Prettier's job: no stylistic rules here.
//
// The import boundaries below are the architecture (STYLE.md "boundaries held by lint"): each
// message says what to use instead. Change a boundary here, not with a disable comment.
import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';
import js from '@eslint/js';
import { defineConfig, globalIgnores } from 'eslint/config';
import tseslint from 'typescript-eslint';
import importX, { createNodeResolver } from 'eslint-plugin-import-x';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';

const root = import.meta.dirname;

/** Files type-checked through their package's tsconfig.json (found by the project service). */
const TYPED = ['protocol/src/**/*.ts', 'server/src/**/*.ts', 'client/src/**/*.{ts,tsx}', 'tests/**/*.ts'];
/** Tool configs and scripts need not belong to a tsconfig: they are linted without type info. */
const UNTYPED = ['**/*.config.*', '**/*.{js,mjs,cjs}'];

// ── Import boundaries ────────────────────────────────────────────────────────────────────────
// Package specifiers are caught by `no-restricted-imports` (a package that isn't a dependency
// doesn't resolve, so path zones alone would miss it); relative paths by import-x zones.

const USE_PROTOCOL = 'Share it through @alma/protocol (schemas, event names, constants) instead.';

const restrict = {
  serverPackage: {
    group: ['@alma/server', '@alma/server/*'],
    message: `The client never imports server code. ${USE_PROTOCOL}`,
  },
  clientPackage: {
    group: ['@alma/client', '@alma/client/*'],
    message: `The server never imports client code. ${USE_PROTOCOL}`,
  },
  testsPackage: {
    group: ['@alma/tests', '@alma/tests/*'],
    message: 'Product code never imports tests/; shared fixtures live in tests/fixtures for tests only.',
  },
  protocolRelative: {
    regex: '(^|/)protocol/src(/|$)',
    message: "Import from '@alma/protocol', not from the protocol package's files.",
  },
  protocolDeep: {
    group: ['@alma/protocol/*'],
    message: "Import from '@alma/protocol'; protocol/src/index.ts exports everything public.",
  },
  protocolWorkspace: {
    group: ['@alma/*'],
    message:
      'protocol is the contract everyone imports; it imports no workspace package. Move shared code into protocol.',
  },
  protocolNode: {
    group: ['node:*'],
    message: 'protocol also runs in the browser: keep it to zod and plain TypeScript.',
  },
  dbDrivers: {
    group: ['libsql', 'mongodb', 'mongodb/*'],
    message:
      'Database drivers belong in server/src/storage and *.repository.ts; take a repository interface instead.',
  },
  transports: {
    group: ['fastify', '@fastify/*', 'socket.io'],
    message:
      "Services are plain: take repositories and engines, throw AppError(code); routes and socket handlers own Fastify and socket.io. For a logger type use `import type { Logger } from 'pino'`.",
  },
};

/** `no-restricted-imports` replaces its options per file, so each scope lists all of its patterns. */
const restrictedImports = (...patterns) => ['error', { patterns }];

const featuresDir = path.join(root, 'client/src/features');
// ARCHITECTURE §1's features, plus any folder that exists, so a new feature is fenced at once.
const features = [
  ...new Set([
    'auth',
    'chat',
    'avatar',
    'voice',
    'dashboard',
    'landing',
    'onboarding',
    ...(existsSync(featuresDir)
      ? readdirSync(featuresDir, { withFileTypes: true })
          .filter((entry) => entry.isDirectory())
          .map((entry) => entry.name)
      : []),
  ]),
];

const zones = [
  {
    target: 'protocol',
    from: ['server', 'client', 'tests'],
    message: 'protocol is the contract and depends on nothing in the workspace; move what you need into it.',
  },
  {
    target: 'client',
    from: 'server',
    message: `The client never imports server code. ${USE_PROTOCOL}`,
  },
  {
    target: 'server',
    from: 'client',
    message: `The server never imports client code. ${USE_PROTOCOL}`,
  },
  {
    target: ['server', 'client'],
    from: 'tests',
    message: 'Product code never imports tests/.',
  },
  ...features.map((feature) => ({
    target: `client/src/features/${feature}`,
    from: 'client/src/features',
    except: [`./${feature}`],
    message:
      'Features never import each other: compose them in client/src/app/, or move shared code to client/src/lib or client/src/components/ui.',
  })),
  {
    target: 'client/src/features',
    from: 'client/src/app',
    message: 'app/ composes features, not the other way round: pass what the feature needs as props.',
  },
  {
    target: ['client/src/lib', 'client/src/components'],
    from: ['client/src/features', 'client/src/app'],
    message: 'Shared code (lib/, components/) is below features and app/: it must not import them.',
  },
];

// ── Restricted syntax ────────────────────────────────────────────────────────────────────────

const SOCKET_METHODS = '/^(emit|emitWithAck|on|once|off|addListener|removeListener|prependListener)$/';
const EVENT_NAME = '/^[a-z]+:[a-z]/';
const noEventLiterals = [
  {
    selector: `CallExpression[callee.property.name=${SOCKET_METHODS}][arguments.0.type='Literal'][arguments.0.value=${EVENT_NAME}]`,
    message: 'import the event name from @alma/protocol (ClientEvent/ServerEvent)',
  },
  {
    selector: `CallExpression[callee.property.name=${SOCKET_METHODS}][arguments.0.type='TemplateLiteral'][arguments.0.quasis.0.value.raw=${EVENT_NAME}]`,
    message: 'import the event name from @alma/protocol (ClientEvent/ServerEvent)',
  },
];
const noEnums = [
  {
    selector: 'TSEnumDeclaration',
    message: 'No TypeScript enum: a const object plus a type of the same name (STYLE.md Naming).',
  },
];

export default defineConfig(
  globalIgnores([
    '**/node_modules/**',
    '**/dist/**',
    '**/coverage/**',
    'data/**',
    '**/test-results/**',
    '**/playwright-report/**',
    'tests/e2e/artifacts/**',
  ]),
  { linterOptions: { reportUnusedDisableDirectives: 'error' } },

  js.configs.recommended,
  {
    // Every TypeScript file: the parser and the rules that need no type information.
    files: ['**/*.{ts,tsx,mts,cts}'],
    extends: [tseslint.configs.recommended],
    rules: {
      '@typescript-eslint/consistent-type-imports': 'error',
      // With verbatimModuleSyntax, `import { type A }` still emits `import 'x'`.
      '@typescript-eslint/no-import-type-side-effects': 'error',
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrorsIgnorePattern: '^_' },
      ],
      eqeqeq: ['error', 'smart'],
    },
  },

  // ── Type-aware TypeScript: the packages' sources ────────────────────────────────────────────
  {
    files: TYPED,
    extends: [tseslint.configs.recommendedTypeChecked],
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: root },
    },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': 'error',
      // A `default` is a deliberate fallback; a switch without one must name every member, so a
      // new event, error code or emotion shows up as a lint error wherever it is not handled.
      '@typescript-eslint/switch-exhaustiveness-check': [
        'error',
        { considerDefaultExhaustiveForUnions: true, requireDefaultForNonUnion: true },
      ],
      // Fastify plugins and hooks are `async (app) => { … }` by contract even when nothing inside
      // awaits (the promise is how Fastify knows registration finished).
      '@typescript-eslint/require-await': 'off',
    },
  },
  {
    files: ['**/*.test.ts', '**/*.test.tsx', 'tests/**/*.ts'],
    rules: {
      // `expect(repo.save).toHaveBeenCalled()` passes a method unbound on purpose.
      '@typescript-eslint/unbound-method': 'off',
    },
  },

  // ── Scripts and tool configs: no type info ─────────────────────────────────────────────────
  {
    files: UNTYPED,
    extends: [tseslint.configs.disableTypeChecked],
    languageOptions: { globals: { ...globals.node } },
  },
  {
    files: ['**/*.{js,mjs,cjs}'],
    rules: {
      'no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrorsIgnorePattern: '^_' },
      ],
    },
  },

  // ── Imports ────────────────────────────────────────────────────────────────────────────────
  {
    files: ['**/*.{ts,tsx,mts,cts,js,mjs,cjs}'],
    plugins: { 'import-x': importX },
    settings: {
      // Without these import-x reads only .js files when it follows imports (no-cycle saw nothing).
      'import-x/extensions': ['.ts', '.tsx', '.mts', '.cts', '.js', '.mjs', '.cjs'],
      'import-x/parsers': { '@typescript-eslint/parser': ['.ts', '.tsx', '.mts', '.cts'] },
      'import-x/external-module-folders': ['node_modules'],
      'import-x/resolver-next': [
        createNodeResolver({ extensions: ['.ts', '.tsx', '.mts', '.js', '.mjs', '.json'] }),
      ],
    },
    rules: {
      'import-x/no-cycle': ['error', { ignoreExternal: true }],
      'import-x/no-restricted-paths': ['error', { basePath: root, zones }],
      'no-restricted-syntax': ['error', ...noEnums, ...noEventLiterals],
    },
  },
  {
    files: ['protocol/**'],
    rules: {
      'no-restricted-imports': restrictedImports(restrict.protocolWorkspace, restrict.protocolNode),
      // protocol is where event names are declared.
      'no-restricted-syntax': ['error', ...noEnums],
    },
  },
  {
    files: ['server/**'],
    rules: {
      'no-restricted-imports': restrictedImports(
        restrict.clientPackage,
        restrict.testsPackage,
        restrict.protocolRelative,
        restrict.protocolDeep,
        restrict.dbDrivers,
      ),
    },
  },
  {
    files: ['server/src/storage/**', 'server/**/*.repository.ts'],
    rules: {
      'no-restricted-imports': restrictedImports(
        restrict.clientPackage,
        restrict.testsPackage,
        restrict.protocolRelative,
        restrict.protocolDeep,
      ),
    },
  },
  {
    files: ['server/**/*.service.ts'],
    rules: {
      'no-restricted-imports': restrictedImports(
        restrict.clientPackage,
        restrict.testsPackage,
        restrict.protocolRelative,
        restrict.protocolDeep,
        restrict.dbDrivers,
        restrict.transports,
      ),
    },
  },
  {
    files: ['client/**'],
    rules: {
      'no-restricted-imports': restrictedImports(
        restrict.serverPackage,
        restrict.testsPackage,
        restrict.protocolRelative,
        restrict.protocolDeep,
      ),
    },
  },
  {
    files: ['tests/**'],
    rules: {
      'no-restricted-imports': restrictedImports(restrict.protocolRelative, restrict.protocolDeep),
    },
  },

  // ── Environments ───────────────────────────────────────────────────────────────────────────
  {
    files: ['client/src/**/*.{ts,tsx}'],
    extends: [reactHooks.configs.flat['recommended-latest']],
    languageOptions: { globals: { ...globals.browser } },
  },
  {
    files: ['server/**', 'tests/**', 'scripts/**'],
    languageOptions: { globals: { ...globals.node } },
  },
);
