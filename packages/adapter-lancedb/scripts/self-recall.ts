/**
 * Self-recall of LanceDB's IVF_HNSW_SQ index, without the adapter (README "Self queries missed
 * by the HNSW graph"): the golden memories in one table (the adapter's codec), then `builds` times
 * an IVF_HNSW_SQ cosine index as the lancedb@0.37 target builds it (m 16, efConstruction 64,
 * 1 partition, `replace: true`), and per build:
 * - the self query `query` (default q-0240: k 1, the vector of mem-02817) under the options the
 *   adapter sends for k 1 (`distanceType cosine`, `limit` k + 16, `ef` max(200, limit)) and under
 *   variants: limit 1, k 10's limit 26, ef 500 / 2000, `refineFactor` 10, `nprobes` 20, and the
 *   flat path (`bypassVectorIndex`); a variant misses when the self memory is not its first row;
 * - with `all`: every memory's own vector at the adapter's k 1 options, counting the memories the
 *   index does not return first (the graph's unreachable / unfound nodes); of those not found
 *   even at ef 5111, how many come first under a filter on their namespace, on their kind.
 * Then a line per variant: misses / builds. `sq=pq` builds IVF_HNSW_PQ instead (the same graph
 * over another quantizer). Run:
 * `pnpm --filter @memory-matrix/adapter-lancedb exec tsx scripts/self-recall.ts [builds] [query] [all] [sq=pq]`.
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
type Variant = { name: string; vq: (t: lancedb.Table, v: Float32Array) => lancedb.VectorQuery };

/** The adapter's recall of k rows (collection.ts `vectorQuery`): limit k + 16 (TIE_MARGIN), ef max(efSearch 200, limit). */
const adapterQuery = (t: lancedb.Table, v: Float32Array, k: number): lancedb.VectorQuery => {
  const limit = k + 16;
  return t.vectorSearch(v).column('embedding').distanceType('cosine').limit(limit).ef(Math.max(200, limit));
};

const VARIANTS: Variant[] = [
  { name: 'adapter k 1 (limit 17, ef 200)', vq: (t, v) => adapterQuery(t, v, 1) },
  { name: 'limit 1, ef 200', vq: (t, v) => t.vectorSearch(v).column('embedding').distanceType('cosine').limit(1).ef(200) },
  { name: 'adapter k 10 (limit 26, ef 200)', vq: (t, v) => adapterQuery(t, v, 10) },
  { name: 'limit 17, ef 500', vq: (t, v) => adapterQuery(t, v, 1).ef(500) },
  { name: 'limit 17, ef 2000', vq: (t, v) => adapterQuery(t, v, 1).ef(2000) },
  { name: 'limit 17, ef 5111 (every row)', vq: (t, v) => adapterQuery(t, v, 1).ef(5111) },
  { name: 'limit 17, ef 200, refineFactor 10', vq: (t, v) => adapterQuery(t, v, 1).refineFactor(10) },
  { name: 'limit 17, ef 200, nprobes 20', vq: (t, v) => adapterQuery(t, v, 1).nprobes(20) },
  { name: 'flat (bypassVectorIndex)', vq: (t, v) => t.vectorSearch(v).column('embedding').distanceType('cosine').limit(17).bypassVectorIndex() },
];

async function main(): Promise<void> {
  const builds = Number(process.argv[2] ?? 10);
  const qid = process.argv[3] ?? 'q-0240';
  const all = process.argv.includes('all');
  const pq = process.argv.includes('sq=pq');
  const ds = loadGoldenDataset(path.resolve(__dirname, '..', '..', '..', 'golden-data', 'agent-memories'));
  const q = ds.queries.find((x) => x.id === qid);
  if (!q) throw new Error(`self-recall.ts: no query ${qid} in golden-data/agent-memories`);
  const self = ds.memories.find((m) => m.embedding.every((x, i) => x === q.vector[i]));
  if (!self) throw new Error(`self-recall.ts: ${qid}'s vector is no memory's embedding (not a self query)`);
  const dir = mkdtempSync(path.join(tmpdir(), 'mm-lancedb-self-'));
  try {
    const db = await lancedb.connect(dir);
    const t = await db.createEmptyTable('golden', tableSchema(ds.manifest.dim));
    await t.add(toArrowTable(ds.memories, ds.manifest.dim));
    const misses = new Map<string, number>(VARIANTS.map((v) => [v.name, 0]));
    const unfound: number[] = [];
    const everMissed = new Map<string, number>();
    console.log(`${qid} k ${q.k}, self memory ${self.id}; ${ds.memories.length} memories, ${builds} builds of IVF_HNSW_${pq ? 'PQ' : 'SQ'}`);
    for (let b = 0; b < builds; b++) {
      const opts = { distanceType: 'cosine' as const, m: 16, efConstruction: 64, numPartitions: 1 };
      await t.createIndex('embedding', { config: pq ? lancedb.Index.hnswPq(opts) : lancedb.Index.hnswSq(opts), replace: true });
      const line: string[] = [];
      for (const v of VARIANTS) {
        const rows = (await v.vq(t, q.vector).select(['id', '_distance']).toArray()) as Row[];
        rows.sort((a, c) => a._distance - c._distance);
        const pos = rows.findIndex((r) => r.id === self.id);
        if (pos !== 0) misses.set(v.name, misses.get(v.name)! + 1);
        if (v === VARIANTS[0]) line.push(`first ${rows[0]?.id} ${rows[0]?._distance.toFixed(4)}, ${self.id} at ${pos < 0 ? 'absent' : pos}`);
      }
      if (all) {
        const missed: string[] = [];
        let wide = 0;
        let byNamespace = 0;
        let byKind = 0;
        for (const m of ds.memories) {
          const first = async (vq: lancedb.VectorQuery): Promise<Row | undefined> => ((await vq.select(['id', '_distance']).toArray()) as Row[]).sort((a, c) => a._distance - c._distance)[0];
          const r = await first(adapterQuery(t, m.embedding, 1));
          if (r?.id === m.id || r?._distance === 0) continue;
          missed.push(m.id);
          const w = await first(adapterQuery(t, m.embedding, 1).ef(5111));
          if (w?.id !== m.id && w?._distance !== 0) {
            wide++;
            // A stranded memory under a filter that holds it: its namespace (~85 rows), its kind (~1/4 of the rows).
            if ((await first(adapterQuery(t, m.embedding, 1).where(filterPredicate({ namespaces: [m.namespace] })!)))?.id === m.id) byNamespace++;
            if ((await first(adapterQuery(t, m.embedding, 1).where(filterPredicate({ kinds: [m.kind] })!)))?.id === m.id) byKind++;
          }
          everMissed.set(m.id, (everMissed.get(m.id) ?? 0) + 1);
        }
        unfound.push(missed.length);
        line.push(
          `memories not first on their own vector ${missed.length} (of them still not at ef 5111: ${wide}; of those found first under their namespace filter ${byNamespace}, under their kind filter ${byKind})`,
        );
      }
      console.log(`build ${b + 1}: ${line.join('; ')}`);
    }
    for (const v of VARIANTS) console.log(`${v.name}: ${qid} missed in ${misses.get(v.name)}/${builds} builds`);
    if (all) {
      console.log(`memories not first on their own vector, per build: ${unfound.join(' ')} (of ${ds.memories.length})`);
      const often = [...everMissed].sort((a, c) => c[1] - a[1]);
      console.log(
        `memories missed in any build: ${often.length}; most often: ${often
          .slice(0, 12)
          .map(([id, n]) => `${id} ${n}/${builds}`)
          .join(', ')}; ${self.id} ${everMissed.get(self.id) ?? 0}/${builds}`,
      );
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

main().catch((e: unknown) => {
  console.error(e);
  process.exit(1);
});
