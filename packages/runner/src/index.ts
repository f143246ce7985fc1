/**
 * @memory-matrix/runner — the memory-matrix CLI (run, record, diff, migrate, sample, selftest,
 * merge, images, init, bench) and its report writers. The `memory-matrix` package's bin calls
 * `main()`, then `exitWhenDone()`; everything else is internal (the tests import modules directly).
 */
export { buildProgram, main } from './cli';
export { exitWhenDone } from './cli-exit';
export { runMatrix, type RunOptions } from './run';
export { TOOL_VERSION } from './version';
