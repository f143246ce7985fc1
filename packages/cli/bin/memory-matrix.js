#!/usr/bin/env node
'use strict';
// The memory-matrix command: the CLI of @memory-matrix/runner. An installed runner is built
// JavaScript (dist/); in the repository it is TypeScript source, loaded through tsx. A driver
// module in TypeScript named by MM_DRIVERS loads through tsx too. Otherwise tsx stays out: its
// hook would transform every module the CLI loads (≈1 s more CPU per start, measured here).
const path = require('node:path');
const entry = require.resolve('@memory-matrix/runner');
const tsDriver = (process.env.MM_DRIVERS || '').split(',').some((m) => /\.[cm]?tsx?$/.test(m.trim()));
if (entry.endsWith('.ts') || tsDriver) require(require.resolve('tsx/cjs', { paths: [path.dirname(entry)] }));
// exitWhenDone (cli-exit.ts): exit with the command's status once it finished, as `pnpm matrix` does.
const runner = require(entry);
runner.main().then(runner.exitWhenDone);
