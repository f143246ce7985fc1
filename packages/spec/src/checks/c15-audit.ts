import type { MemoryCollection } from '../adapter';
import { compareHits, type Failure } from '../comparator';
import type { LiveCell } from '../conformance/cell';
import { toRecallQuery } from '../conformance/cell';
import type { GoldenQuery } from '../golden/types';
import { ExactOracle } from '../oracle';
import { hasCode } from '../errors';
import type { MemoryRecord, RecallHit, RecallQuery } from '../types';
import { failure } from './check';
import { mapBounded, RECALLS_IN_FLIGHT } from './helpers/bounded';
import { probeKs } from './helpers/placement';
import { withinThresholdBand } from './helpers/threshold-band';
import { describeDifference } from './helpers/sampling';

/** Where and when one memory's write was acknowledged. */
export interface AckInfo {
  cycle: number;
  writer: number;
  batch: number;
  /** ms between the acknowledgement and the moment the kill had landed. */
  msBeforeKill: number;
}

/** Where one memory was sent in a batch that was never acknowledged (in flight at the kill of `cycle`). */
export interface InFlightInfo {
  cycle: number;
  writer: number;
  batch: number;
}

/** What the audit knows about the writes so far (cumulative over cycles). */
export interface WriteLedger {
  /** Acknowledged memories by id. */
  acked: Map<string, AckInfo>;
  /** Memories of batches that were not acknowledged (in flight at a kill), by id. */
  inFlight: Map<string, InFlightInfo>;
}

/** The audit of one restart. Id lists are sorted. */
export interface AuditResult {
  /** Distinct golden ids present. */
  present: number;
  /** `count()` of the collection. */
  count: number;
  lost: string[];
  phantomInFlight: string[];
  phantomUnknown: string[];
  /**
   * In-flight memories whose record `get` does not return but whose vector the store's index still
   * holds (a recall of their own vector returns them): a write that must be all or nothing, partly
   * present after the restart.
   */
  torn: string[];
  /** Rows `count()` has beyond the distinct ids found and the torn rows (unattributable rows or duplicates). */
  unaccountedRows: number;
  duplicated: number;
  changed: string[];
  topkQueries: number;
  topkFailedQueries: number;
  /** Mean recall@k of index scans against the oracle of the present rows; null without an ANN index. */
  indexRecallMean: number | null;
  /** Everything except `lost` (whose verdict depends on the configuration). */
  failures: Failure[];
}

/**
 * Audit a collection after kill -9 and restart: read back every golden id, then classify
 * missing (acknowledged, absent), phantom in flight (present, from an unacknowledged batch),
 * torn (when `count()` exceeds the ids `get` returned: an in-flight memory `get` does not return
 * but the index does, `indexedWithoutRecord`; failure kind `durability-partial`), phantom unknown (present, never sent; or rows beyond the
 * distinct ids and the torn rows), duplicates (an id
 * returned twice by get or recall), changed content (any field, embedding bit for bit), and
 * compare exact top-k of `queries` with an `ExactOracle` over exactly the rows the store holds
 * (the present ones and the torn ones, whose index rows recalls may return; tie groups, `scoreTolerance`; a threshold query's count within `withinThresholdBand`). With `withIndex`, index scans must reach the target's
 * `annRecallFloor` on average against the same oracle. `where` prefixes messages
 * (e.g. `[synchronous_commit=off] cycle 3`).
 */
export async function auditAfterRestart(cell: LiveCell, collection: MemoryCollection, ledger: WriteLedger, queries: GoldenQuery[], where: string, withIndex: boolean): Promise<AuditResult> {
  const golden = cell.dataset.memories;
  const byId = new Map(golden.map((r) => [r.id, r]));
  const back = await collection.get(golden.map((r) => r.id));
  const count = await collection.count();
  const present = new Map<string, MemoryRecord>();
  let duplicated = 0;
  for (const r of back) {
    if (present.has(r.id)) duplicated++;
    else present.set(r.id, r);
  }
  const failures: Failure[] = [];
  const fail = (kind: string, msg: string, extra: Partial<Failure> = {}) => failures.push(failure(cell, kind, `${where}: ${msg}`, extra));
  const lost = [...ledger.acked.keys()].filter((id) => !present.has(id)).sort();
  const phantomInFlight: string[] = [];
  const phantomUnknown: string[] = [];
  const changed: string[] = [];
  for (const [id, stored] of present) {
    if (!ledger.acked.has(id)) (ledger.inFlight.has(id) ? phantomInFlight : phantomUnknown).push(id);
    const diff = describeDifference(byId.get(id)!, stored, cell.config.tolerances.embeddingReadback, cell.config.capabilities.embeddingReadBack);
    if (diff) {
      changed.push(id);
      fail('durability-changed', `memory ${id} came back changed after the restart: ${diff}`, { id });
    }
  }
  if (phantomUnknown.length)
    fail('durability-phantom', `${phantomUnknown.length} memories present that were never written: ${head(phantomUnknown.sort())}`, { actual: phantomUnknown.length, expected: 0 });
  if (duplicated) fail('durability-duplicate', `get returned ${duplicated} id(s) more than once`, { actual: duplicated, expected: 0 });
  // Only when count() holds rows that get() did not return: a probe per in-flight memory costs a recall each.
  const torn =
    count > present.size
      ? await indexedWithoutRecord(
          collection,
          [...ledger.inFlight.keys()].filter((id) => !present.has(id)).map((id) => byId.get(id)!),
          [...present.values()],
          cell.config.tolerances.tieEpsilon,
        )
      : [];
  for (const id of torn) {
    const f = ledger.inFlight.get(id)!;
    fail(
      'durability-partial',
      `memory ${id}, sent in batch ${f.batch} of writer ${f.writer} that was in flight at the kill of cycle ${f.cycle} (never acknowledged), is partly present: a recall of its own vector returns it but get() does not return its record (a write must be present or absent whole)`,
      { id },
    );
  }
  const held = present.size + torn.length;
  const unaccountedRows = Math.max(0, count - held);
  if (count !== held) {
    fail(
      'durability-count',
      `count() is ${count} but ${present.size} distinct written ids are present${torn.length ? ` and ${torn.length} in-flight id(s) are in the index without their record` : ''} (${count > held ? 'rows the audit cannot attribute: duplicates or unknown ids' : 'count misses rows that get returns'})`,
      { expected: held, actual: count },
    );
  }
  const tornSet = new Set(torn);
  const rows = golden.filter((r) => present.has(r.id) || tornSet.has(r.id));
  const topk = rows.length ? await compareTopK(cell, collection, rows, queries, where, withIndex) : { failed: 0, recall: null, failures: [], dupHits: 0 };
  failures.push(...topk.failures);
  return {
    present: present.size,
    count,
    lost,
    phantomInFlight: phantomInFlight.sort(),
    phantomUnknown,
    torn,
    unaccountedRows,
    duplicated: duplicated + topk.dupHits,
    changed: changed.sort(),
    topkQueries: rows.length ? queries.length : 0,
    topkFailedQueries: topk.failed,
    indexRecallMean: topk.recall,
    failures,
  };
}

/**
 * The audit of a restart that came back without the collection (COLLECTION_MISSING: the whole
 * dataset is gone, e.g. Redis without persistence): every acknowledged write is lost, nothing is
 * present, there is nothing else to compare.
 */
export function auditOfMissingCollection(ledger: WriteLedger): AuditResult {
  return {
    present: 0,
    count: 0,
    lost: [...ledger.acked.keys()].sort(),
    phantomInFlight: [],
    phantomUnknown: [],
    torn: [],
    unaccountedRows: 0,
    duplicated: 0,
    changed: [],
    topkQueries: 0,
    topkFailedQueries: 0,
    indexRecallMean: null,
    failures: [],
  };
}

async function compareTopK(cell: LiveCell, collection: MemoryCollection, rows: MemoryRecord[], queries: GoldenQuery[], where: string, withIndex: boolean) {
  const dim = cell.dataset.manifest.dim;
  const vectors = new Float32Array(rows.length * dim);
  rows.forEach((r, i) => vectors.set(r.embedding, i * dim));
  const oracle = new ExactOracle({
    ids: rows.map((r) => r.id),
    namespaces: rows.map((r) => r.namespace),
    kinds: rows.map((r) => r.kind),
    metadata: rows.map((r) => r.metadata),
    vectors,
    dim,
    metric: cell.dataset.manifest.metric,
  });
  const { tieEpsilon, scoreTolerance, annRecallFloor } = cell.config.tolerances;
  const failures: Failure[] = [];
  const failedQueries = new Set<string>();
  const recalls: number[] = [];
  // A target without an exact scan (capability exactScan false: Redis q8, whose TRUTH scan ranks
  // the int8-quantised vectors) is held to recall@k against the floor on that path, not tie groups.
  const exactMode = cell.config.capabilities.exactScan === false ? 'ann' : 'exact';
  const scanRecalls: number[] = [];
  let dupHits = 0;
  // Nothing writes the collection during the audit: its recalls go `RECALLS_IN_FLIGHT` at a time, judged in query order.
  const answers = await mapBounded(queries, RECALLS_IN_FLIGHT, async (q) => ({
    exactHits: await exactOrNone(collection, toRecallQuery(q, 'exact')),
    indexHits: withIndex ? await collection.recall(toRecallQuery(q, 'index')) : [],
  }));
  for (const [i, q] of queries.entries()) {
    const expected = oracle.topK(toRecallQuery(q, 'exact'), tieEpsilon);
    const opts = {
      k: q.k,
      tieEpsilon,
      scoreTolerance,
      tolerances: oracle.tolerancesFor(q.vector, cell.config.tolerances),
      scoreOf: (id: string) => oracle.score(id, q.vector),
      matches: (id: string) => oracle.matches(id, q.filter),
    };
    const ctx = { dataset: cell.datasetName, target: `${cell.target} ${where}`, queryId: q.id };
    const { exactHits, indexHits } = answers[i]!;
    if (exactHits !== null) {
      const exact = compareHits(expected, exactHits, ctx, { ...opts, mode: exactMode });
      exact.failures = exact.failures.filter((f) => f.kind !== 'count' || !withinThresholdBand(oracle, q, exactHits.length, scoreTolerance));
      if (exactMode === 'ann') scanRecalls.push(exact.recallAtK);
      if (exact.failures.length) failedQueries.add(q.id);
      dupHits += exact.failures.filter((f) => f.kind === 'duplicate-id').length;
      failures.push(...exact.failures);
    }
    if (withIndex) {
      const ann = compareHits(expected, indexHits, ctx, { ...opts, mode: 'ann' });
      recalls.push(ann.recallAtK);
      // Without any exact path (Chroma) the index path is the only top-k: its order and scores count too.
      const kinds = exactHits === null ? ['duplicate-id', 'unexpected-id', 'filter', 'order', 'nan-score', 'score'] : ['duplicate-id', 'unexpected-id', 'filter'];
      const structural = ann.failures.filter((f) => kinds.includes(f.kind));
      dupHits += structural.filter((f) => f.kind === 'duplicate-id').length;
      if (structural.length) failedQueries.add(q.id);
      failures.push(...structural);
    }
  }
  const scanRecall = scanRecalls.length ? scanRecalls.reduce((a, b) => a + b, 0) / scanRecalls.length : null;
  if (scanRecall !== null && scanRecall < annRecallFloor) {
    failures.push(
      failure(
        cell,
        'recall',
        `${where}: the "exact" scan (not exact on this target: capability exactScan false) has recall@k ${scanRecall.toFixed(4)} after the restart on average over ${scanRecalls.length} queries, below the floor ${annRecallFloor}`,
        { expected: annRecallFloor, actual: scanRecall },
      ),
    );
  }
  const recall = recalls.length ? recalls.reduce((a, b) => a + b, 0) / recalls.length : null;
  if (recall !== null && recall < annRecallFloor) {
    failures.push(
      failure(cell, 'recall', `${where}: index-scan recall@k after the restart is ${recall.toFixed(4)} on average over ${recalls.length} queries, below the floor ${annRecallFloor}`, {
        expected: annRecallFloor,
        actual: recall,
      }),
    );
  }
  return { failed: failedQueries.size, recall, failures, dupHits };
}

/** Least recall k of the probe in `indexedWithoutRecord` (widened per record by `probeKs`). */
const PROBE_K = 10;

/**
 * The ids of `records` (memories `get` did not return) that the store's index still holds: a recall
 * of each record's own vector (`Float32Array` of length `dim`), no filter, on the exact scan (the
 * index scan where the target has none: CAPABILITY_MISSING), returns its id. A record need not be
 * its own nearest neighbour (inner product, duplicates): k is `probeKs` over `held` (the rows the
 * store holds) and `records`, at least `PROBE_K`. Sorted. `RECALLS_IN_FLIGHT` recalls at a time.
 * Errors of the recall are thrown as they come.
 */
export async function indexedWithoutRecord(collection: MemoryCollection, records: MemoryRecord[], held: readonly MemoryRecord[] = [], tieEpsilon = 0): Promise<string[]> {
  const ks = probeKs(held, records, collection.spec.dim, collection.spec.metric, tieEpsilon, PROBE_K);
  const found = await mapBounded(records, RECALLS_IN_FLIGHT, async (r, i) => {
    let hits = await exactOrNone(collection, { vector: r.embedding, k: ks[i]!, scan: 'exact' });
    hits ??= await collection.recall({ vector: r.embedding, k: ks[i]!, scan: 'index' });
    return hits.some((h) => h.id === r.id) ? r.id : null;
  });
  return found.filter((id): id is string => id !== null).sort();
}

/** The hits of exact-scan query `q`, or null when the adapter has no exact path at all (CAPABILITY_MISSING: Chroma answers only through its HNSW). */
async function exactOrNone(collection: MemoryCollection, q: RecallQuery): Promise<RecallHit[] | null> {
  try {
    return await collection.recall(q);
  } catch (e) {
    if (hasCode(e, 'CAPABILITY_MISSING')) return null;
    throw e;
  }
}

/** The first ids of a list, for messages: `a, b, c … (+n more)`. */
export function head(ids: string[], n = 8): string {
  return ids.length <= n ? ids.join(', ') : `${ids.slice(0, n).join(', ')} … (+${ids.length - n} more)`;
}
