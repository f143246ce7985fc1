/**
 * jest globalSetup / globalTeardown of every package (jest.config.base.js): one temp root per jest
 * run, `<OS temp>/mm-jest-<pid>-XXXXXX`, as the CLI has one per process (runner/src/tmp-root.ts).
 * TMPDIR points there before any test worker starts, so every temp dir the tests, the CLIs they
 * spawn and the client libraries make (LanceDB's `.tmpXXXXXX` dirs, which it never removes) lands
 * in it, and the teardown removes it. Measured before: one `pnpm test` left about 45 `mm-*` dirs
 * and hundreds of LanceDB dirs in /tmp. `MM_SHARED_TMPDIR` keeps the OS temp dir for the caches that
 * outlive a run (the PGlite initdb cache). A jest stopped by a signal skips the teardown and leaves
 * the root, as it left the dirs before.
 */
const { mkdtempSync, rmSync } = require('node:fs');
const os = require('node:os');
const path = require('node:path');

module.exports = {
  setup() {
    process.env.MM_SHARED_TMPDIR ??= os.tmpdir();
    const root = mkdtempSync(path.join(os.tmpdir(), `mm-jest-${process.pid}-`));
    process.env.TMPDIR = root;
    process.env.MM_JEST_TMP_ROOT = root;
  },
  teardown() {
    const root = process.env.MM_JEST_TMP_ROOT;
    if (root) rmSync(root, { recursive: true, force: true, maxRetries: 3 });
  },
};
