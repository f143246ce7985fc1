/**
 * Shared jest config: CommonJS, source-only workspace packages (each package's `main` is its
 * src/index.ts), JUnit written per package when JEST_JUNIT is set. Tests that touch a real
 * backend live in *.test.ts like the rest; they are never cached by turbo (see turbo.json).
 *
 * TypeScript is transpiled file by file with SWC (@swc/jest), without type checking: `pnpm test`
 * runs `turbo run typecheck` (tsc over src and test of every package) before any test, and
 * tsconfig.base.json sets `isolatedModules`, so tsc rejects what a per-file transpiler would get
 * wrong (const enums, re-exported types). Options mirror tsconfig.base.json: ES2022 with define
 * semantics for class fields (TypeScript's default for that target), CommonJS with ES-module
 * interop (`esModuleInterop`). Measured on this 2-core machine, cold cache (as in CI, whose fresh
 * clone gets new cache keys), two runner test files (diff-math, report-model) took 60.9 s and
 * 98.2 s through ts-jest (already transpile-only: isolatedModules) against 27.1 s and 38.6 s
 * through SWC, run back to back: 2.2–2.5x less.
 */
module.exports = {
  testEnvironment: 'node',
  transform: {
    '^.+\\.ts$': [
      '@swc/jest',
      {
        jsc: {
          parser: { syntax: 'typescript' },
          target: 'es2022',
          keepClassNames: true,
          transform: { useDefineForClassFields: true },
        },
        module: { type: 'commonjs', noInterop: false },
        sourceMaps: 'inline',
      },
    ],
  },
  testMatch: ['<rootDir>/test/**/*.test.ts'],
  moduleFileExtensions: ['ts', 'js', 'json'],
  testTimeout: 120000,
};
