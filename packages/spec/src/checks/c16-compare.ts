import type { MemoryCollection, MemoryStore } from '../adapter';
import { hasCode } from '../errors';
import { compareHits, type Failure } from '../comparator';
import type { LiveCell } from '../conformance/cell';
import { toRecallQuery } from '../conformance/cell';
import type { Figure } from '../conformance/result';
import type { GoldenQuery } from '../golden/types';
import type { RecallHit } from '../types';
import { failure } from './check';
import { mapBounded, RECALLS_IN_FLIGHT } from './helpers/bounded';
import { thresholdBand } from './helpers/threshold-band';
import { describeDifference } from './helpers/sampling';

/** The older version's answers: exact top-k per query id, and its count. */
export interface BaselineAnswers {
  count: number;
  hits: Map<string, RecallHit[]>;
}

/**
 * Compare a store that holds data written by the older version (restored or opened in place) with
 * the golden data and the older version's answers: the collection opens (COLLECTION_MISSING or an
 * empty store is a failure: data silently gone), same count, every golden id present with text,
 * metadata and embedding bit for bit, exact top-k of `queries` equal to the older version's tie
 * group by tie group with scores within `scoreTolerance`, and equal to the recorded oracle
 * expectation. `path` names the upgrade path in messages and figure keys (`restore`, `direct`).
 */
export async function compareUpgraded(
  cell: LiveCell,
  store: MemoryStore,
  collection: string,
  baseline: BaselineAnswers,
  queries: GoldenQuery[],
  path: string,
): Promise<{ figures: Record<string, Figure>; failures: Failure[] }> {
  const failures: Failure[] = [];
  const fail = (kind: string, msg: string, extra: Partial<Failure> = {}) => failures.push(failure(cell, kind, `${path}: ${msg}`, extra));
  let col;
  try {
    col = await store.openCollection(collection);
  } catch (e) {
    fail('upgrade-missing', `collection ${collection} written by the older version cannot be opened: ${(e as Error).message}`);
    return { figures: { [`${path}/opened`]: false }, failures };
  }
  const count = await col.count();
  if (count === 0) fail('upgrade-empty', `collection ${collection} opens as an EMPTY store (the older version held ${baseline.count} memories)`, { expected: baseline.count, actual: 0 });
  else if (count !== baseline.count) fail('upgrade-count', `count is ${count}, the older version held ${baseline.count}`, { expected: baseline.count, actual: count });
  const golden = cell.dataset.memories;
  const back = new Map((await col.get(golden.map((r) => r.id))).map((r) => [r.id, r]));
  let changed = 0;
  let missing = 0;
  for (const r of golden) {
    const b = back.get(r.id);
    const diff = b ? describeDifference(r, b, cell.config.tolerances.embeddingReadback, cell.config.capabilities.embeddingReadBack) : 'missing';
    if (!diff) continue;
    if (b) changed++;
    else missing++;
    if (failures.length < 200) fail('upgrade-record', `memory ${r.id}: ${diff}`, { id: r.id }); // the figures carry the totals
  }
  const { tieEpsilon, scoreTolerance, annRecallFloor, annShortfallMax } = cell.config.tolerances;
  // Without an exact scan (capability exactScan false: Redis q8 ranks int8-quantised vectors) the
  // oracle comparison is recall@k against the floor; the older version's answers, on the same
  // quantised data, must still match tie group by tie group.
  const oracleMode = cell.config.capabilities.exactScan === false ? 'ann' : 'exact';
  const recalls: number[] = [];
  let maxDeltaVsOld = 0;
  let failedQueries = 0;
  // Index-only targets (no exact path: Chroma): rows an ANN search under a filter can miss are
  // judged in aggregate against annShortfallMax, as C04 does, not per query.
  const short = { rows: 0, expected: 0, vsOlder: 0, olderRows: 0, queries: [] as string[] };
  // Read-only recalls of a store nothing writes any more: `RECALLS_IN_FLIGHT` at a time, judged in query order.
  const answers = await mapBounded(queries, RECALLS_IN_FLIGHT, (q) => upgradeRecall(col, q));
  for (const [i, q] of queries.entries()) {
    const { hits, scan } = answers[i]!;
    const old = baseline.hits.get(q.id) ?? [];
    const exp = cell.expectationFor(q.id);
    const ctx = { dataset: cell.datasetName, target: `${cell.target} (${path})`, queryId: q.id };
    const opts = {
      k: q.k,
      mode: 'exact' as const,
      tieEpsilon,
      scoreTolerance,
      tolerances: cell.oracle.tolerancesFor(q.vector, cell.config.tolerances),
      scoreOf: (id: string) => cell.oracle.score(id, q.vector),
      matches: (id: string) => cell.matches(id, q.filter),
    };
    // Quantised scores move rows within scoreTolerance of a minScore across it: against the older
    // version (same quantised data) the count is its own; against the oracle, `thresholdCount`.
    const vsOld = compareHits({ hits: old, matching: oracleMode === 'ann' ? old.length : exp.matching }, hits, { ...ctx, target: `${ctx.target} vs the older version` }, opts);
    const vsOracle = compareHits(exp, hits, ctx, { ...opts, mode: oracleMode });
    if (oracleMode === 'ann') {
      recalls.push(vsOracle.recallAtK);
      if (q.minScore !== undefined) vsOracle.failures = [...vsOracle.failures.filter((f) => f.kind !== 'count'), ...thresholdCount(cell, q, hits.length, ctx, scoreTolerance)];
    }
    maxDeltaVsOld = Math.max(maxDeltaVsOld, vsOld.maxAbsScoreDelta);
    let fs = [...vsOld.failures, ...vsOracle.failures];
    if (scan === 'index') {
      const want = Math.min(q.k, exp.matching);
      short.rows += Math.max(0, want - hits.length);
      short.expected += want;
      short.vsOlder += Math.max(0, old.length - hits.length);
      short.olderRows += old.length;
      if (hits.length < want) short.queries.push(`${q.id} (${hits.length} of ${want}; older ${old.length})`);
      fs = fs.filter((f) => f.kind !== 'count');
    }
    if (fs.length) failedQueries++;
    failures.push(...fs);
  }
  if (short.expected > 0) {
    if (short.rows > annShortfallMax * short.expected)
      fail('upgrade-shortfall', `index path: ${short.rows} of ${short.expected} rows missing (more than annShortfallMax ${annShortfallMax}): ${short.queries.join(', ')}`, {
        expected: `<= ${annShortfallMax * short.expected}`,
        actual: short.rows,
      });
    if (short.vsOlder > annShortfallMax * short.olderRows)
      fail('upgrade-shortfall', `index path: ${short.vsOlder} rows fewer than the older version returned (of ${short.olderRows}), more than annShortfallMax ${annShortfallMax}`, {
        expected: `<= ${annShortfallMax * short.olderRows}`,
        actual: short.vsOlder,
      });
  }
  const recall = recalls.length ? recalls.reduce((a, b) => a + b, 0) / recalls.length : null;
  if (recall !== null && recall < annRecallFloor)
    fail('upgrade-recall', `recall@k against the oracle is ${recall.toFixed(4)} on average over ${recalls.length} queries, below the floor ${annRecallFloor}`, {
      expected: annRecallFloor,
      actual: recall,
    });
  return {
    figures: {
      ...(recall === null ? {} : { [`${path}/oracleRecallMean`]: recall }),
      [`${path}/opened`]: true,
      [`${path}/count`]: count,
      [`${path}/missing`]: missing,
      [`${path}/changed`]: changed,
      [`${path}/queries`]: queries.length,
      [`${path}/failedQueries`]: failedQueries,
      [`${path}/maxAbsScoreDeltaVsOlder`]: maxDeltaVsOld,
      ...(short.expected ? { [`${path}/indexShortfall`]: short.rows, [`${path}/indexShortfallVsOlder`]: short.vsOlder, [`${path}/indexShortQueries`]: short.queries.join(', ') } : {}),
    },
    failures,
  };
}

/**
 * The count of a minScore query where scores carry `tol` of error (quantised storage): at least the
 * rows whose oracle score is ≥ minScore + tol, at most those ≥ minScore − tol, both capped at k.
 * Returns a `count` failure outside that range, else nothing.
 */
function thresholdCount(cell: LiveCell, q: GoldenQuery, returned: number, ctx: { dataset: string; target: string; queryId: string }, tol: number): Failure[] {
  const t = q.minScore!;
  const { lo, hi, widest } = thresholdBand(cell.oracle, { vector: q.vector, k: q.k, filter: q.filter, minScore: t }, tol);
  if (returned >= lo && returned <= hi) return [];
  return [
    {
      ...ctx,
      kind: 'count',
      expected: `${lo}..${hi}`,
      actual: returned,
      message: `${ctx.dataset} ${ctx.queryId} @ ${ctx.target}: returned ${returned} results for minScore ${t}, expected ${lo}..${hi} (rows whose oracle score is within their score tolerance of the threshold, here up to ${(widest || tol).toPrecision(3)}, may fall either side)`,
    },
  ];
}

/** The exact top-k of `q`, or the index top-k when the adapter has no exact path at all (CAPABILITY_MISSING: Chroma answers only through its HNSW). */
export async function upgradeRecall(col: MemoryCollection, q: GoldenQuery): Promise<{ hits: RecallHit[]; scan: 'exact' | 'index' }> {
  try {
    return { hits: await col.recall(toRecallQuery(q, 'exact')), scan: 'exact' };
  } catch (e) {
    if (hasCode(e, 'CAPABILITY_MISSING')) return { hits: await col.recall(toRecallQuery(q, 'index')), scan: 'index' };
    throw e;
  }
}
