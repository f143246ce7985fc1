#!/usr/bin/env node
'use strict';
// The memory-matrix command: the CLI of @memory-matrix/runner. An installed runner is built
// JavaScript (dist/); in the repository it is TypeScript source, loaded through tsx.
const entry = require.resolve('@memory-matrix/runner');
if (entry.endsWith('.ts')) require('tsx/cjs');
require(entry).main();
