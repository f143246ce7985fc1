/**
 * Per-query misses of LanceDB's IVF_HNSW_SQ index over the golden queries, without the adapter
 * (README "Memories the HNSW graph cannot reach"): the golden memories in one table (the adapter's
 * codec), then `builds` times the lancedb@0.37 index (m 16, efConstruction 64, 1 partition,
 * `replace: true`), and per build every golden query without `minScore` or `now` (those are
 * judged apart) on both paths with the adapter's options (collection.ts `vectorQuery`: cosine,
 * `limit` k + 16, the query's filter as `where`; index: `ef` max(200, limit); flat:
 * `bypassVectorIndex`). recall@k = |index top k ∩ flat rows within 1e-6 of the flat k-th
 * distance| / min(k, flat rows); a query whose filter matches nothing, or whose flat first group of equal distances is ≥ max(2, k) wide is left
 * out (C05 does not hold such duplicate clusters to the per-query floor). Prints per build the
 * queries below the per-query floor 0.5, then how many builds had 0, 1, 2, … such queries.
 * Run: `pnpm --filter @memory-matrix/adapter-lancedb exec tsx scripts/query-misses.ts [builds]`.
 * The temp dir is removed at the end (also on error).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import * as lancedb from '@lancedb/lancedb';
import { loadGoldenDataset } from '@memory-matrix/spec';
import { tableSchema, toArrowTable } from '../src/codec';
import { filterPredicate } from '../src/sql';

type Row = { id: string; _distance: number };
const FLOOR = 0.5;
const EPS = 1e-6;

async function main(): Promise<void> {
  const builds = Number(process.argv[2] ?? 10);
  const ds = loadGoldenDataset(path.resolve(__dirname, '..', '..', '..', 'golden-data', 'agent-memories'));
  const queries = ds.queries.filter((q) => q.minScore === undefined && q.now === undefined);
  const dir = mkdtempSync(path.join(tmpdir(), 'mm-lancedb-misses-'));
  try {
    const db = await lancedb.connect(dir);
    const t = await db.createEmptyTable('golden', tableSchema(ds.manifest.dim));
    await t.add(toArrowTable(ds.memories, ds.manifest.dim));
    const rows = async (vq: lancedb.VectorQuery): Promise<Row[]> => ((await vq.select(['id', '_distance']).toArray()) as Row[]).sort((a, b) => a._distance - b._distance);
    // The flat path does not depend on the index: once.
    const truth = new Map<string, { ids: Set<string>; cluster: boolean; want: number }>();
    for (const q of queries) {
      const where = filterPredicate(q.filter);
      let vq = t
        .vectorSearch(q.vector)
        .column('embedding')
        .distanceType('cosine')
        .limit(q.k + 16);
      if (where !== undefined) vq = vq.where(where);
      const flat = await rows(vq.bypassVectorIndex());
      const kth = flat[Math.min(q.k, flat.length) - 1]?._distance ?? Infinity;
      const first = flat.filter((r) => r._distance <= flat[0]!._distance + EPS).length;
      const want = Math.min(q.k, flat.length); // a filter matching fewer than k rows (or none)
      truth.set(q.id, { ids: new Set(flat.filter((r) => r._distance <= kth + EPS).map((r) => r.id)), cluster: first >= Math.max(2, q.k), want });
    }
    const perBuild: number[] = [];
    const clusters = [...truth.values()].filter((x) => x.cluster).length;
    console.log(`${queries.length} queries without minScore / now (${clusters} duplicate clusters left out), ${builds} builds of IVF_HNSW_SQ`);
    for (let b = 0; b < builds; b++) {
      await t.createIndex('embedding', { config: lancedb.Index.hnswSq({ distanceType: 'cosine', m: 16, efConstruction: 64, numPartitions: 1 }), replace: true });
      const below: string[] = [];
      for (const q of queries) {
        const exp = truth.get(q.id)!;
        if (exp.cluster || exp.want === 0) continue;
        const where = filterPredicate(q.filter);
        const limit = q.k + 16;
        let vq = t.vectorSearch(q.vector).column('embedding').distanceType('cosine').limit(limit).ef(Math.max(200, limit));
        if (where !== undefined) vq = vq.where(where);
        const got = (await rows(vq)).slice(0, q.k);
        const recall = Math.min(exp.want, got.filter((r) => exp.ids.has(r.id)).length) / exp.want;
        if (recall < FLOOR) below.push(`${q.id} (k ${q.k}${q.filter ? ', filtered' : ''}) ${recall.toFixed(2)}`);
      }
      perBuild.push(below.length);
      console.log(`build ${b + 1}: ${below.length} below ${FLOOR}${below.length ? `: ${below.join(', ')}` : ''}`);
    }
    const hist = new Map<number, number>();
    for (const n of perBuild) hist.set(n, (hist.get(n) ?? 0) + 1);
    console.log(
      `builds by number of queries below the floor: ${[...hist]
        .sort((a, b) => a[0] - b[0])
        .map(([n, c]) => `${n}: ${c}`)
        .join(', ')} (of ${builds})`,
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

main().catch((e: unknown) => {
  console.error(e);
  process.exit(1);
});
