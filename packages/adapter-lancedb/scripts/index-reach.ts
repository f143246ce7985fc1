/**
 * Rows and scores of LanceDB's IVF_HNSW_SQ index path against its flat path, without the adapter
 * (README "Inner product: rows the index never returns" and "Index-path scores come from the
 * 8-bit SQ codes"): a golden dataset's memories in one table (the adapter's codec), one
 * IVF_HNSW_SQ index as the lancedb@0.37 target builds it (the dataset's metric as `distanceType`:
 * cosine / dot / l2, m 16, efConstruction 64, 1 partition), then per golden query (the first
 * `queries`, default all) ask the index for every row (limit = the row count, ef max(1000, rows))
 * and the flat path (`bypassVectorIndex`) for the same. Prints per query the rows each path
 * returns; then the rows the index never returned to any query (with their norms), and the largest
 * canonical score error of the index path against the flat path (scores.ts `lancedbToCanonical`),
 * absolute and relative to |flat score| (the relative figure means little for inner products near 0).
 * Run: `pnpm --filter @memory-matrix/adapter-lancedb exec tsx scripts/index-reach.ts [dataset] [queries]`,
 * dataset a directory under golden-data (default user-data/ip-nonunit). Exit 1 when some row was
 * never returned. The temp dir is removed at the end (also on error).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import * as lancedb from '@lancedb/lancedb';
import { loadGoldenDataset } from '@memory-matrix/spec';
import { tableSchema, toArrowTable } from '../src/codec';
import { LANCE_DISTANCE, lancedbToCanonical } from '../src/scores';

type Row = { id: string; _distance: number };

async function main(): Promise<void> {
  const name = process.argv[2] ?? 'user-data/ip-nonunit';
  const ds = loadGoldenDataset(path.resolve(__dirname, '..', '..', '..', 'golden-data', name));
  const queries = ds.queries.slice(0, Number(process.argv[3] ?? ds.queries.length));
  const { metric, dim } = ds.manifest;
  const distanceType = LANCE_DISTANCE[metric];
  const n = ds.memories.length;
  const dir = mkdtempSync(path.join(tmpdir(), 'mm-lancedb-reach-'));
  try {
    const db = await lancedb.connect(dir);
    const t = await db.createEmptyTable('golden', tableSchema(dim));
    await t.add(toArrowTable(ds.memories, dim));
    await t.createIndex('embedding', { config: lancedb.Index.hnswSq({ distanceType, m: 16, efConstruction: 64, numPartitions: 1 }) });
    const search = (v: Float32Array): lancedb.VectorQuery => t.vectorSearch(v).column('embedding').distanceType(distanceType).limit(n);
    console.log(`${name}: ${n} memories, metric ${metric} (distanceType ${distanceType}), IVF_HNSW_SQ m 16 efc 64; ${queries.length} queries, limit ${n}, ef ${Math.max(1000, n)}`);
    const seen = new Set<string>();
    let maxAbs = 0;
    let maxRel = 0;
    let worst = '';
    for (const q of queries) {
      const byDistance = (rows: Row[]): Row[] => rows.sort((a, c) => a._distance - c._distance);
      const ann = byDistance((await search(q.vector).ef(Math.max(1000, n)).select(['id', '_distance']).toArray()) as Row[]);
      const flat = byDistance((await search(q.vector).bypassVectorIndex().select(['id', '_distance']).toArray()) as Row[]);
      const exact = new Map(flat.map((r) => [r.id, lancedbToCanonical(metric, r._distance)]));
      for (const r of ann) {
        seen.add(r.id);
        const want = exact.get(r.id)!;
        const abs = Math.abs(lancedbToCanonical(metric, r._distance) - want);
        const rel = want === 0 ? 0 : abs / Math.abs(want);
        if (abs > maxAbs) [maxAbs, worst] = [abs, `${q.id} ${r.id}`];
        maxRel = Math.max(maxRel, rel);
      }
      console.log(`${q.id}: index ${ann.length} of ${n} rows, flat ${flat.length}`);
    }
    const norm = (v: Float32Array): number => Math.sqrt(v.reduce((s, x) => s + x * x, 0));
    const never = ds.memories.filter((m) => !seen.has(m.id));
    for (const m of never) console.log(`never returned by the index: ${m.id} (norm ${norm(m.embedding).toPrecision(3)})`);
    console.log(`${never.length} of ${n} rows never returned by the index to any of ${queries.length} queries`);
    console.log(`index-path score vs flat: max |Δ| ${maxAbs.toExponential(2)} (${worst}), max |Δ| / |flat score| ${maxRel.toExponential(2)}`);
    process.exitCode = never.length ? 1 : 0;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

main().catch((e: unknown) => {
  console.error(e);
  process.exit(2);
});
