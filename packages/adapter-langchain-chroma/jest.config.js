const base = require('../../jest.config.base.js');

/**
 * @langchain/community's CommonJS build requires `uuid` 14, which ships ES modules only: Node runs
 * that (require of ESM), jest's module registry does not. So uuid's own files (and only those) go
 * through ts-jest too, as JavaScript, and come out CommonJS; everything else in node_modules is
 * left alone as usual. The package's test script runs jest WITHOUT --experimental-vm-modules: with
 * it, jest treats uuid's files ("type": "module") as ES modules and refuses the require before any
 * transform ("Must use import to load ES Module", measured in a fresh clone).
 */
module.exports = {
  ...base,
  transform: { ...base.transform, '^.+/node_modules/uuid/.+\\.js$': ['ts-jest', { tsconfig: { allowJs: true, module: 'commonjs' } }] },
  transformIgnorePatterns: ['/node_modules/(?!\\.pnpm/uuid@|uuid/)'],
};
