import { existsSync } from 'node:fs';
import { writeFileAtomic } from './report/atomic';
import { createHash } from 'node:crypto';
import path from 'node:path';
import { ExactOracle, MemoryMatrixError, makeDirs, parseExpectation, readGoldenFile, serializeExpectation, type Expectation, type GoldenDataset } from '@memory-matrix/spec';

/** Where a dataset's oracle expectation lives: `<dataset>/expected/oracle.jsonl`. */
export function expectationFile(dataset: GoldenDataset): string {
  return path.join(dataset.dir, 'expected', 'oracle.jsonl');
}

/**
 * Compute the exact oracle expectation for every query of `dataset` (float64 brute force,
 * top-k plus the boundary tie group within `tieEpsilon`). Deterministic: same bytes every run.
 */
export function computeOracleExpectation(dataset: GoldenDataset, tieEpsilon: number): string {
  const m = dataset.manifest;
  const oracle = new ExactOracle({
    ids: dataset.memories.map((r) => r.id),
    namespaces: dataset.memories.map((r) => r.namespace),
    kinds: dataset.memories.map((r) => r.kind),
    metadata: dataset.memories.map((r) => r.metadata),
    vectors: dataset.vectors,
    dim: m.dim,
    metric: m.metric,
  });
  const entries = dataset.queries.map((q) => {
    const r = oracle.topK({ vector: q.vector, k: q.k, filter: q.filter, minScore: q.minScore }, tieEpsilon);
    return { query: q.id, k: q.k, matching: r.matching, hits: r.hits };
  });
  return serializeExpectation({ dataset: m.name, datasetSha256: dataset.datasetSha256, source: 'oracle', metric: m.metric, tieEpsilon }, entries);
}

/**
 * Read the recorded oracle expectation. Missing → GOLDEN_MISSING (unless `update`, which
 * re-records it atomically first); recorded for another dataset version, or for another dataset
 * name or metric than manifest.json declares → GOLDEN_INVALID naming the file and both values.
 */
export function loadExpectation(dataset: GoldenDataset, opts: { update: boolean; tieEpsilon: number }): { expectation: Expectation; file: string; sha256: string } {
  const file = expectationFile(dataset);
  if (opts.update) {
    const text = computeOracleExpectation(dataset, opts.tieEpsilon);
    makeDirs(path.dirname(file)); // not mkdirSync recursive: it never returns under /proc (spec fs-dirs.ts)
    writeFileAtomic(file, text); // no temp file left when the write fails
  } else if (!existsSync(file)) {
    throw new MemoryMatrixError('GOLDEN_MISSING', `expectation ${file} is missing; record it from the exact oracle with --update-golden`);
  }
  const text = readGoldenFile(file).toString('utf8'); // unreadable → GOLDEN_MISSING naming the file
  const expectation = parseExpectation(text, file);
  // The fingerprint covers the data files, not manifest.json: a manifest edited to another name or
  // metric (e.g. after re-embedding) must not reuse an expectation recorded under the old one.
  const m = dataset.manifest;
  for (const [field, recorded, now] of [
    ['dataset', expectation.header.dataset, m.name],
    ['metric', expectation.header.metric, m.metric],
  ] as const) {
    if (recorded !== now) {
      throw new MemoryMatrixError('GOLDEN_INVALID', `${file}:1: recorded for ${field} "${recorded}" but ${path.join(dataset.dir, 'manifest.json')} says "${now}"; re-record with --update-golden`);
    }
  }
  if (expectation.header.datasetSha256 !== dataset.datasetSha256) {
    throw new MemoryMatrixError(
      'GOLDEN_INVALID',
      `${file}:1: datasetSha256 ${expectation.header.datasetSha256} was recorded for another version of ${dataset.manifest.name} (now ${dataset.datasetSha256}); re-record with --update-golden`,
    );
  }
  // Every query needs its line: a missing one is bad golden data (exit 2 now), not a check failure later.
  const have = new Set(expectation.entries.map((e) => e.query));
  const missing = dataset.queries.filter((q) => !have.has(q.id)).map((q) => q.id);
  if (missing.length) {
    throw new MemoryMatrixError(
      'GOLDEN_INVALID',
      `${file}: no expectation line for query ${missing.slice(0, 5).join(', ')}${missing.length > 5 ? ` and ${missing.length - 5} more` : ''} of ${dataset.manifest.name}; re-record with --update-golden`,
    );
  }
  return { expectation, file, sha256: createHash('sha256').update(text).digest('hex') };
}
