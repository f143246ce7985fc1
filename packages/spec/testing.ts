// `@memory-matrix/spec/testing` in the workspace (source-only, as the package's main); a packed
// copy maps the subpath to dist/testing/ (package.json publishConfig.exports).
export * from './src/testing';
