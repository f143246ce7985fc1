#!/usr/bin/env node
/**
 * Builds the user-data fixtures golden-data/user-data/<name>/ deterministically (same bytes on
 * every run) from the committed golden-data/agent-memories: real sentences and real word-vector
 * geometry, transformed by the seeded, documented steps of lib/user/fixtures.mjs (each manifest's
 * provenance.vectors.note says which). Every random choice comes from a mulberry32 stream seeded
 * with SEED and labelled `<fixture>:<purpose>` (lib/prng.mjs); Math.random is never used.
 *
 *   node golden-data/build/user-fixtures.mjs [--out <dir>] [name…]
 *
 * Writes manifest.json, memories.jsonl/.f32 and queries.jsonl/.f32 of each fixture into
 * <dir>/<name> (default golden-data/user-data), leaving expected/ alone; record the oracle
 * expectation with `pnpm matrix --dataset <dir>/<name> --update-golden …`. Needs no npm install.
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { stream } from './lib/prng.mjs';
import { writeDataset } from './lib/write.mjs';
import { readSource } from './lib/user/source.mjs';
import { FIXTURES } from './lib/user/fixtures.mjs';

export const SEED = 20261205;
const here = path.dirname(fileURLToPath(import.meta.url));

function main(argv) {
  const o = argv.indexOf('--out');
  const out = o >= 0 ? argv[o + 1] : path.join(here, '..', 'user-data');
  const names = argv.filter((a, i) => a !== '--out' && (o < 0 || i !== o + 1));
  for (const n of names) {
    if (!FIXTURES[n]) {
      process.stderr.write(`user-fixtures: unknown fixture ${JSON.stringify(n)}; the fixtures are ${Object.keys(FIXTURES).join(', ')}\n`);
      process.exit(2);
    }
  }
  const src = readSource(path.join(here, '..', 'agent-memories'));
  for (const name of names.length ? names : Object.keys(FIXTURES)) {
    const { manifest, memories, queries } = FIXTURES[name](src, (label) => stream(SEED, `${name}:${label}`), SEED);
    writeDataset(path.join(out, name), manifest, memories, queries);
    process.stdout.write(`${name}: ${memories.length} memories, ${queries.length} queries, dim ${manifest.dim}, ${manifest.metric}\n`);
  }
}

main(process.argv.slice(2));
