/**
 * Flat vs index `_distance` of LanceDB itself, without the adapter (README "Flat vs index
 * distances"): the golden memories in one table (the adapter's codec), an IVF_HNSW_SQ cosine index
 * as the lancedb@0.37 target builds it (m 16, efConstruction 64, 1 partition), then per golden query
 * the top 10 by the flat path (`bypassVectorIndex`), the index path, and the index path with
 * `refineFactor(1)`; for the ids both return, the ratio index / flat and the differences.
 * Run: `pnpm --filter @memory-matrix/adapter-lancedb exec tsx scripts/distance-paths.ts [queries]`.
 * The temp dir is removed at the end (also on error).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import * as lancedb from '@lancedb/lancedb';
import { loadGoldenDataset } from '@memory-matrix/spec';
import { tableSchema, toArrowTable } from '../src/codec';

async function main(): Promise<void> {
  const n = Number(process.argv[2] ?? 50);
  const ds = loadGoldenDataset(path.resolve(__dirname, '..', '..', '..', 'golden-data', 'agent-memories'));
  const dir = mkdtempSync(path.join(tmpdir(), 'mm-lancedb-paths-'));
  try {
    const db = await lancedb.connect(dir);
    const t = await db.createEmptyTable('golden', tableSchema(ds.manifest.dim));
    await t.add(toArrowTable(ds.memories, ds.manifest.dim));
    await t.createIndex('embedding', { config: lancedb.Index.hnswSq({ distanceType: 'cosine', m: 16, efConstruction: 64, numPartitions: 1 }) });
    const stats = await t.indexStats((await t.listIndices())[0]!.name);
    const ratios: number[] = [];
    let halfErr = 0;
    let refineErr = 0;
    let sameTop = 0;
    const queries = ds.queries.filter((q) => !q.filter).slice(0, n);
    for (const q of queries) {
      const run = async (vq: lancedb.VectorQuery) => (await vq.distanceType('cosine').limit(10).select(['id', '_distance']).toArray()) as Array<{ id: string; _distance: number }>;
      const flat = await run(t.vectorSearch(q.vector).bypassVectorIndex());
      const ann = await run(t.vectorSearch(q.vector).ef(100));
      const refined = await run(t.vectorSearch(q.vector).ef(100).refineFactor(1));
      const exact = new Map(flat.map((r) => [r.id, r._distance]));
      if (ann[0]?.id === flat[0]?.id) sameTop++;
      for (const r of ann) {
        const d = exact.get(r.id);
        if (d === undefined || d === 0) continue;
        ratios.push(r._distance / d);
        halfErr = Math.max(halfErr, Math.abs(r._distance / 2 - d));
      }
      for (const r of refined) if (exact.has(r.id)) refineErr = Math.max(refineErr, Math.abs(r._distance - exact.get(r.id)!));
      if (q === queries[0])
        console.log(
          `${q.id} top 3  flat: ${flat
            .slice(0, 3)
            .map((r) => `${r.id} ${r._distance.toFixed(6)}`)
            .join(', ')}\n${q.id} top 3 index: ${ann
            .slice(0, 3)
            .map((r) => `${r.id} ${r._distance.toFixed(6)}`)
            .join(', ')}\n${q.id} top 3 refine(1): ${refined
            .slice(0, 3)
            .map((r) => `${r.id} ${r._distance.toFixed(6)}`)
            .join(', ')}`,
        );
    }
    ratios.sort((a, b) => a - b);
    console.log(`index ${stats?.indexType} ${stats?.distanceType}, ${ds.memories.length} memories, ${queries.length} unfiltered queries, ${ratios.length} ids on both paths`);
    console.log(`index/flat _distance ratio: min ${ratios[0]!.toFixed(4)} median ${ratios[ratios.length >> 1]!.toFixed(4)} max ${ratios[ratios.length - 1]!.toFixed(4)}`);
    console.log(
      `max |index/2 − flat| ${halfErr.toExponential(2)} (the SQ quantization error once the factor 2 is taken out); max |refine(1) − flat| ${refineErr.toExponential(2)}; same top-1 ${sameTop}/${queries.length}`,
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

main().catch((e: unknown) => {
  console.error(e);
  process.exit(1);
});
