/**
 * Shared jest config: CommonJS through ts-jest, source-only workspace packages
 * (each package's `main` is its src/index.ts), JUnit written per package when
 * JEST_JUNIT is set. Tests that touch a real backend live in *.test.ts like the rest;
 * they are never cached by turbo (see turbo.json).
 */
module.exports = {
  testEnvironment: 'node',
  transform: { '^.+\\.ts$': ['ts-jest', {}] },
  testMatch: ['<rootDir>/test/**/*.test.ts'],
  moduleFileExtensions: ['ts', 'js', 'json'],
  testTimeout: 120000,
  // One temp root per jest run, removed at its end (packages/spec/jest-tmp-root.js).
  globalSetup: require('node:path').join(__dirname, 'packages/spec/jest-global-setup.js'),
  globalTeardown: require('node:path').join(__dirname, 'packages/spec/jest-global-teardown.js'),
};
