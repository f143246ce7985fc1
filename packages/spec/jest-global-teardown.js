/** jest globalTeardown of every package: see jest-tmp-root.js. */
module.exports = require('./jest-tmp-root').teardown;
