/**
 * `memory-matrix sample`: read a user's table through a driver's sample source, sample
 * reproducibly, redact, and write a golden dataset (manifest, memories, held-out queries,
 * `expected/oracle.jsonl` from the exact oracle, and `sample-provenance.json`). Same store + same
 * seed ⇒ byte-identical files (set SOURCE_DATE_EPOCH to pin the one date written).
 */
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { loadCatalog } from '@memory-matrix/targets';
import { MemoryMatrixError, writeGoldenDataset, type GoldenDatasetInput, type GoldenQuery, type MemoryRecord, type SampleStratify } from '@memory-matrix/spec';
import { loadExpectation } from '../golden';
import { TOOL_VERSION } from '../version';
import { describeMapping, type ColumnMapping } from './columns';
import { resolveMapping } from './layouts';
import { NAME_LIST_SOURCE } from './names';
import { newStats, toMemory } from './records';
import { newTally, redactionTable } from './redact';
import { sampleKey, StratifiedReservoir } from './select';
import { checkSampleOut, writeStaged } from './output';
import { buildProvenance, type SampleProvenance } from './provenance';
import type { SampleOptions } from './options';

export type { SampleOptions };

/** What a run produced: the dataset folder, its provenance and counts, the mapping it read with. */
export interface SampleResult {
  dir: string;
  provenance: SampleProvenance;
  mapping: ColumnMapping;
}

/**
 * Run the sampler. Throws USAGE (mapping / table / stratify), TARGET_UNAVAILABLE (no
 * connection), BACKEND_ERROR (a query failed), INVALID_INPUT (too few rows, duplicate ids, bad
 * metadata), INVALID_VECTOR / DIMENSION_MISMATCH (embeddings), or the golden writer's errors.
 */
export async function runSample(o: SampleOptions): Promise<SampleResult> {
  const label = o.source.safeUrl(o.url);
  const outDir = checkSampleOut(o.out, o.overwrite);
  // The catalog's widest tie epsilon records the expectation; read it before the store.
  const tieEpsilon = Math.max(...[...loadCatalog().targets.values()].map((t) => t.tolerances.tieEpsilon));
  const { mapping: columns, lines } = await resolveMapping(o.source, { url: o.url, label, table: o.table }, o.columns);
  for (const l of lines) o.log?.(l);
  checkStratify(o.stratify, columns);
  const snapshot = await o.source.open({ url: o.url, label, table: o.table, columns });
  const want = o.n + o.queries;
  const reservoir = new StratifiedReservoir(o.seed, want);
  const tally = newTally();
  const stats = newStats();
  let rows;
  let strata;
  try {
    await snapshot.scan(o.stratify, (id, s) => reservoir.add(id, s));
    if (snapshot.info.eligibleRows < want) {
      throw new MemoryMatrixError('INVALID_INPUT', `${label} ${o.table}: ${snapshot.info.eligibleRows} rows with text and embedding, fewer than --n ${o.n} + --queries ${o.queries}`);
    }
    strata = reservoir.choose(want);
    const ids = strata.flatMap((s) => s.chosen);
    rows = await snapshot.fetch(ids);
  } finally {
    await snapshot.close();
  }
  const records = rows.map((r) => toMemory(r, { table: o.table, seed: o.seed, redact: o.redact, tally, stats, parseEmbedding: (text, where) => o.source.parseEmbedding(text, where) }));
  const dims = new Set(records.map((r) => r.embedding.length));
  if (dims.size !== 1) throw new MemoryMatrixError('DIMENSION_MISMATCH', `${o.table}.${columns.embedding}: sampled embeddings have ${[...dims].join(', ')} dimensions; a dataset has one`);
  const dim = records[0]!.embedding.length;

  // Held-out queries: the `queries` sampled rows with the smallest query key; the rest are memories.
  const bySource = new Map(rows.map((r, i) => [r.id, records[i]!]));
  const order = [...bySource.keys()].sort((a, b) => sampleKey(o.seed, 'query', a) - sampleKey(o.seed, 'query', b) || (a < b ? -1 : 1));
  const held = new Set(order.slice(0, o.queries));
  const memories = [...bySource.entries()]
    .filter(([id]) => !held.has(id))
    .map(([, m]) => m)
    .sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  const namespaces = new Set(memories.map((m) => m.namespace));
  const k = Math.min(o.k, memories.length);
  const queries: GoldenQuery[] = order.slice(0, o.queries).map((srcId, i) => {
    const m = bySource.get(srcId)!;
    const q: GoldenQuery = { id: `q-${String(i + 1).padStart(4, '0')}`, k, purpose: 'held-out', note: `held-out memory ${m.id} (${m.namespace}), not stored`, vector: m.embedding };
    if (i % 2 === 1 && namespaces.has(m.namespace)) {
      q.purpose = 'filter';
      q.filter = { namespaces: [m.namespace] };
    }
    return q;
  });

  const norms = memories.map((m) => Math.hypot(...m.embedding));
  const unit = [...norms, ...queries.map((q) => Math.hypot(...q.vector))].every((x) => Math.abs(x - 1) <= 1e-3);
  const table = o.redact ? redactionTable(tally) : null;
  const provenance = buildProvenance({
    o,
    label,
    info: snapshot.info,
    mapping: describeMapping(columns),
    strata,
    memories: memories.length,
    queries: queries.length,
    dim,
    table,
    tally,
    stats,
    nameList: NAME_LIST_SOURCE,
    toolVersion: TOOL_VERSION,
  });
  const manifest: GoldenDatasetInput['manifest'] = {
    format: 1,
    name: o.name,
    version: `sample-${o.seed}`,
    dim,
    metric: o.metric,
    normalization: unit ? 'unit' : 'none',
    embeddingModel: {
      id: o.embeddingModel ?? `${o.table}.${columns.embedding}`,
      description: `Embeddings copied unchanged from ${o.table}.${columns.embedding} (${snapshot.info.columnTypes[columns.embedding]}), ${o.source.embeddingNote}.`,
      source: `${label} ${o.table}.${columns.embedding}`,
    },
    provenance: {
      text: [{ source: `${label} table ${o.table}`, licence: o.licence, note: provenanceNote(provenance) }],
      vectors: { source: `${label} table ${o.table} column ${columns.embedding}`, licence: o.licence, note: 'stored embeddings, not recomputed; computed by the source from the unredacted text' },
      builder: `memory-matrix sample ${TOOL_VERSION} (packages/runner/src/sample)`,
      seed: o.seed,
    },
  };
  await writeStaged(outDir, (staging) => {
    const ds = writeGoldenDataset(staging, { manifest, memories: memories as MemoryRecord[], queries });
    loadExpectation(ds, { update: true, tieEpsilon });
    writeFileSync(path.join(ds.dir, 'sample-provenance.json'), JSON.stringify({ ...provenance, datasetSha256: ds.datasetSha256 }, null, 2) + '\n');
  });
  return { dir: outDir, provenance, mapping: columns };
}

/** `--stratify` needs its field mapped: USAGE naming the flag and the `--columns` entry to give. */
function checkStratify(by: SampleStratify | undefined, m: ColumnMapping): void {
  if (!by) return;
  const field = by === 'age' ? 'created_at' : by;
  if (!m[field]) throw new MemoryMatrixError('USAGE', `--stratify ${by}: no ${field} column is mapped (give --columns ${field}=<column>)`);
}

function provenanceNote(p: SampleProvenance): string {
  const all = p.redaction?.table.find((r) => r.category === 'all');
  const red = all
    ? `; redacted: ${all.detected} personal details detected, ${all.remaining} remain by the same detectors, ${all.looseRemaining} of ${all.looseBefore} by a looser pass`
    : '; not redacted';
  return `${p.sample.memories} memories + ${p.sample.queries} held-out queries sampled from ${p.source.eligibleRows} eligible of ${p.source.rows} rows, seed ${p.sample.seed}${p.sample.stratify ? `, stratified by ${p.sample.stratify}` : ''}${red}; details in sample-provenance.json`;
}
