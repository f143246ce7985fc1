/**
 * The shared config, plus: @mastra/core 0.24.9's CommonJS build require()s ESM-only packages
 * (@sindresorhus/slugify and its dependencies), which Node 20.19+ loads natively (require(esm)) but
 * jest's module runtime does not; ts-jest compiles those few to CommonJS for the tests.
 */
const base = require('../../jest.config.base.js');
const esm = ['@sindresorhus', 'escape-string-regexp', 'slugify', 'transliterate'];
module.exports = {
  ...base,
  transform: { ...base.transform, '^.+\\.m?js$': ['ts-jest', { tsconfig: { allowJs: true, module: 'commonjs', esModuleInterop: true, isolatedModules: true } }] },
  transformIgnorePatterns: [`/node_modules/(?!(\\.pnpm/[^/]+/node_modules/)?(${esm.join('|')}))`],
};
