import { exactSearch, MetricKind, type BatchMatches } from 'usearch';
import { ExactOracle, type GoldenDataset } from '@memory-matrix/spec';
import { interleavedMedians, ratioRow, type RatioRow } from './measure';

/** k of the oracle comparison: every query asks the same k so one library call answers them all. */
export const ORACLE_BENCH_K = 10;

/** Result of `oracleRatio`: the ratio row and how many of the queries' top-k id lists agree. */
export interface OracleRatioResult {
  row: RatioRow;
  /** Queries whose top-k id SETS are equal (oracle vs library). */
  sameIds: number;
  queries: number;
  /** Queries whose sets differ only inside a tie or near-tie at the k-th score (|Δ| ≤ 1e-6): float32 vs float64 scoring. */
  nearTieOnly: number;
}

/**
 * The exact oracle's brute force against a well-kept exact kNN library, usearch's `exactSearch`
 * (Unum USearch: a SIMD brute-force scan, prebuilt binary in the npm package), on the same rows
 * (the golden memories), the same queries (every golden query's vector, no filters) and the same
 * k (`ORACLE_BENCH_K`), cosine, one thread for both (the oracle is single-threaded). Oracle time =
 * one `ExactOracle.topK` per query (construction not timed); library time = one batched
 * `exactSearch` call. Interleaved, `rounds` times, medians; printed as "oracle time ÷ library
 * time" (the limit of a JS float64 scan: reported, no goal). The id sets are checked per query;
 * a set that differs beyond a near-tie at the k-th score is a finding (counted and printed).
 */
export async function oracleRatio(ds: GoldenDataset, rounds = 3): Promise<OracleRatioResult> {
  const { dim, metric } = ds.manifest;
  const m = ds.memories;
  const oracle = new ExactOracle({ ids: m.map((r) => r.id), namespaces: m.map((r) => r.namespace), kinds: m.map((r) => r.kind), metadata: m.map((r) => r.metadata), vectors: ds.vectors, dim, metric });
  const k = ORACLE_BENCH_K;
  const libMetric = metric === 'cosine' ? MetricKind.Cos : metric === 'ip' ? MetricKind.IP : MetricKind.L2sq;
  let oracleIds: string[][] = [];
  let libIds: string[][] = [];
  const { medians } = await interleavedMedians(
    [
      {
        name: 'oracle',
        run: () => {
          const t0 = performance.now();
          oracleIds = ds.queries.map((q) =>
            oracle
              .topK({ vector: q.vector, k }, 0)
              .hits.slice(0, k)
              .map((h) => h.id),
          );
          return Promise.resolve(performance.now() - t0);
        },
      },
      {
        name: 'library',
        run: () => {
          const t0 = performance.now();
          const res = exactSearch(ds.vectors, ds.queryVectors, dim, k, libMetric, 1) as BatchMatches;
          const t = performance.now() - t0;
          libIds = ds.queries.map((_, qi) => Array.from(res.get(qi).keys, (key) => m[Number(key)]!.id));
          return Promise.resolve(t);
        },
      },
    ],
    rounds,
  );
  let sameIds = 0;
  let nearTieOnly = 0;
  ds.queries.forEach((q, qi) => {
    const a = new Set(oracleIds[qi]);
    const b = libIds[qi]!;
    if (b.length === a.size && b.every((id) => a.has(id))) {
      sameIds++;
      return;
    }
    const kth = oracle.score(oracleIds[qi]![k - 1]!, q.vector)!;
    if (b.filter((id) => !a.has(id)).every((id) => Math.abs(oracle.score(id, q.vector)! - kth) <= 1e-6)) nearTieOnly++;
  });
  const row = ratioRow(
    `oracle brute force, ${ds.queries.length} queries × ${m.length} × ${dim}, k ${k}`,
    'oracle time ÷ usearch exactSearch time (1 thread)',
    medians.get('oracle')!,
    medians.get('library')!,
  );
  return { row, sameIds, queries: ds.queries.length, nearTieOnly };
}
