#!/usr/bin/env node
// Runs the TypeScript CLI through tsx (packages are source-only; no build step).
require('tsx/cjs');
require('../src/cli.ts').main();
