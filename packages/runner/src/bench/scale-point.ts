import type { GoldenDataset, IndexConfig, MemoryStore, RecallHit } from '@memory-matrix/spec';
import { deriveChunk, derivedId } from './derive';
import { StreamingTopK } from './stream-topk';

/** Rows generated, loaded and scanned per step: 10,000 × 384 float32 = 15.4 MB of vectors per chunk. */
export const SCALE_CHUNK = 10_000;
/** Queries of a scale point: the first SCALE_QUERIES golden queries without a filter or threshold, each with k = SCALE_K. */
export const SCALE_QUERIES = 20;
export const SCALE_K = 10;

/**
 * The index the scale curve builds at N rows: IVFFlat with lists = round(√N) (pgvector's README
 * suggests rows/1000 up to 1 M rows and √rows beyond; √N keeps the k-means cost moderate at every
 * point) and probes = ceil(√lists). HNSW is not used for the curve: on this 2-core machine its
 * build at 100 k × 384 already takes minutes and grows faster than linearly (see docs/bench.md).
 */
export function scaleIndex(n: number): IndexConfig {
  const lists = Math.max(1, Math.round(Math.sqrt(n)));
  return { type: 'ivfflat', lists, probes: Math.ceil(Math.sqrt(lists)) };
}

/** Figures of one scale point. Times in ms; RSS in kB (`process.resourceUsage().maxRSS`, which includes the Node baseline). */
export interface ScalePoint {
  n: number;
  dim: number;
  index: IndexConfig;
  loadMs: number;
  indexMs: number;
  exactQueriesMs: number;
  indexQueriesMs: number;
  oracleMs: number;
  compareMs: number;
  queries: number;
  k: number;
  /** Queries whose exact-scan top-k ids equal the streaming oracle's (as sets). */
  exactAgree: number;
  /** Largest |score − oracle score| over the exact-scan hits whose id the oracle also returned. */
  maxAbsDelta: number;
  /** Mean recall@k of the index scan against the oracle. */
  indexRecall: number;
  /** maxRSS before the point started (modules and golden set loaded), kB. */
  baselineRssKb: number;
  /** maxRSS at the end of the point, kB. */
  peakRssKb: number;
  /** N × dim × 4: the raw float32 vector bytes of the point. */
  rawVectorBytes: number;
}

/**
 * One point of the scale curve on an adapter store: derive N × dim memories from the golden set
 * in chunks of SCALE_CHUNK (derive.ts) and upsert each chunk (load); build `index`; run the
 * queries in exact and in index scan; compute the oracle's top-k with ONE streaming pass over
 * freshly derived chunks (StreamingTopK: a bounded heap per query, nothing of the N rows is kept);
 * compare. The collection `name` is dropped at the end. Peak RSS is this process's maxRSS,
 * so run one point per process for a clean figure (scale.ts does). Errors passed on.
 */
export async function runScalePoint(
  store: MemoryStore,
  ds: GoldenDataset,
  n: number,
  name: string,
  index: IndexConfig = scaleIndex(n),
  log: (l: string) => void = () => undefined,
): Promise<ScalePoint> {
  const baselineRssKb = process.resourceUsage().maxRSS;
  const { dim, metric } = ds.manifest;
  const queries = ds.queries.filter((q) => !q.filter && q.minScore === undefined).slice(0, SCALE_QUERIES);
  const collection = await store.createCollection({ name, dim, metric, index, embeddingModel: ds.manifest.embeddingModel.id });
  try {
    const t0 = performance.now();
    for (let s = 0; s < n; s += SCALE_CHUNK) {
      await collection.upsert(deriveChunk(ds, s, Math.min(n, s + SCALE_CHUNK)).records);
      if ((s / SCALE_CHUNK) % 10 === 9) log(`scale ${n}: loaded ${s + SCALE_CHUNK}`);
    }
    const t1 = performance.now();
    await collection.buildIndex();
    const t2 = performance.now();
    log(`scale ${n}: index built in ${(t2 - t1).toFixed(0)} ms`);
    const exact: RecallHit[][] = [];
    for (const q of queries) exact.push(await collection.recall({ vector: q.vector, k: SCALE_K, scan: 'exact' }));
    const t3 = performance.now();
    const viaIndex: RecallHit[][] = [];
    for (const q of queries) viaIndex.push(await collection.recall({ vector: q.vector, k: SCALE_K, scan: 'index' }));
    const t4 = performance.now();
    const topk = new StreamingTopK(
      queries.map((q) => q.vector),
      SCALE_K,
      dim,
    );
    for (let s = 0; s < n; s += SCALE_CHUNK) {
      const { vectors } = deriveChunk(ds, s, Math.min(n, s + SCALE_CHUNK), false);
      topk.add(vectors, (r) => derivedId(s + r));
    }
    const oracle = topk.results();
    const t5 = performance.now();
    let exactAgree = 0;
    let maxAbsDelta = 0;
    let recallSum = 0;
    queries.forEach((_, qi) => {
      const want = new Map(oracle[qi]!.map((h) => [h.id, h.score]));
      const got = exact[qi]!;
      if (got.length === want.size && got.every((h) => want.has(h.id))) exactAgree++;
      for (const h of got) if (want.has(h.id)) maxAbsDelta = Math.max(maxAbsDelta, Math.abs(h.score - want.get(h.id)!));
      recallSum += viaIndex[qi]!.filter((h) => want.has(h.id)).length / Math.max(1, want.size);
    });
    const t6 = performance.now();
    return {
      n,
      dim,
      index,
      loadMs: t1 - t0,
      indexMs: t2 - t1,
      exactQueriesMs: t3 - t2,
      indexQueriesMs: t4 - t3,
      oracleMs: t5 - t4,
      compareMs: t6 - t5,
      queries: queries.length,
      k: SCALE_K,
      exactAgree,
      maxAbsDelta,
      indexRecall: recallSum / Math.max(1, queries.length),
      baselineRssKb,
      peakRssKb: process.resourceUsage().maxRSS,
      rawVectorBytes: n * dim * 4,
    };
  } finally {
    await store.dropCollection(name);
  }
}
