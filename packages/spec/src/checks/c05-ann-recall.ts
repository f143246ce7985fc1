import type { IndexInEffect } from '../adapter';
import type { Failure } from '../comparator';
import { toRecallQuery } from '../conformance/cell';
import { whereOf } from '../conformance/where';
import type { FigureTable, JudgedReplay } from '../conformance/result';
import { summarize } from '../stats';
import { isHnsw, isIvfflat } from '../index-config';
import { tieGroups } from '../comparator';
import { judgeAgainstBaseline } from './c05-baseline';
import { duplicateOnlyShortfall } from './c05-duplicates';
import { indexReplay, judgeRepeats } from './c05-repeat';
import { type CheckDefinition, type CheckOutcome, failure } from './check';

/**
 * C05 ann-recall: with the cell's ANN index, recall@k of every golden query against the recorded
 * oracle expectation (ties at the k boundary count as hits, stats.ts) must reach the target's
 * `annRecallFloorPerQuery`, and the mean its `annRecallFloor`. Scores of returned ids must still be
 * exact within `scoreTolerance`, no id may repeat, no id may fall outside the filter.
 * With `CellConfig.repeat` = n > 1 (`--repeat n`) the index-path replay runs n times, each on a
 * freshly built index, and the floors are judged with the spread in view (c05-repeat.ts: a run
 * below the floor whose mean over repeats is above it is reported as noise, not as a failure).
 * Figures: mean / min / p50 recall@k (per query averaged over the runs), the worst query, max
 * |Δscore|, and the per-run spread; a table with one row per run.
 */
export const c05AnnRecall: CheckDefinition = {
  id: 'C05',
  name: 'ann-recall',
  fixtures: ['golden', 'index-replay'],
  requires(caps) {
    if (!caps.vectors) return 'capability: vectors';
    if (caps.annIndexes.length === 0) return 'capability: annIndexes';
    return null;
  },
  async run(cell): Promise<CheckOutcome> {
    if (cell.config.index.type === 'none') {
      return { figures: { index: 'none' }, failures: [], notes: ['the cell builds no ANN index; every scan is exact'] };
    }
    const { annRecallFloor, annRecallFloorPerQuery } = cell.config.tolerances;
    const repeats = Math.max(1, cell.config.repeat ?? 1);
    const failures: Failure[] = [];
    const perRun: Array<Map<string, number>> = [];
    const returned = new Map<string, Array<Set<string>>>(); // query id → the ids each run returned
    const rows: FigureTable['rows'] = [];
    let maxDelta = 0;
    let judged: JudgedReplay | undefined; // run 1, the shared collection's replay: what the report draws
    for (let r = 1; r <= repeats; r++) {
      const replay = await indexReplay(cell, r);
      const recalls = new Map<string, number>();
      const runJudged = cell.judge('C05', 'index', 'ann', replay.runs);
      if (r === 1) judged = runJudged;
      for (const { run, comparison: c } of runJudged.queries) {
        const qid = run.query.id;
        recalls.set(qid, c.recallAtK);
        returned.set(qid, [...(returned.get(qid) ?? []), new Set(run.hits.map((h) => h.id))]);
        maxDelta = Math.max(maxDelta, c.maxAbsScoreDelta);
        const real = c.failures.filter((f) => ['score', 'duplicate-id', 'nan-score', 'filter'].includes(f.kind));
        failures.push(...(repeats > 1 ? real.map((f) => ({ ...f, message: `[run ${r}] ${f.message}` })) : real));
      }
      perRun.push(recalls);
      const s = summarize([...recalls.values()]);
      rows.push([r, Math.round(replay.buildMs), replay.seed, s.mean, s.min, [...recalls.values()].filter((x) => x < annRecallFloorPerQuery).length, s.mean >= annRecallFloor ? 'ok' : 'below floor']);
    }
    const v = judgeRepeats(perRun, annRecallFloor, annRecallFloorPerQuery);
    for (const row of rows) if (v.noiseRuns.includes(row[0] as number)) row[6] = 'noise';
    // A query whose whole expected top-k is one cluster of identical vectors (a tie group at least
    // k wide) is not held to the per-query floor: HNSW graphs (every HNSW implementation in the catalog) link
    // exact duplicates (two or more) to each other at distance 0 and may leave the whole cluster unreachable in
    // one build and not in the next (q-0263, 8 duplicates, k 5: recall 0 in about half of one
    // target's builds). Such queries are listed in the notes and the figure `duplicateClusterBelowFloor`.
    const isCluster = (qid: string): boolean => {
      const exp = cell.expectationFor(qid);
      const q = cell.dataset.queries.find((x) => x.id === qid)!;
      const first = tieGroups(exp.hits, cell.oracle.tolerancesFor(q.vector, cell.config.tolerances).tie)[0] ?? [];
      // At least two identical vectors: a k = 1 query's first group is always ≥ k wide.
      return exp.hits.length >= q.k && first.length >= Math.max(2, q.k);
    };
    // Below the floor only because members of a group of identical embeddings were not returned
    // (q-0246 of agent-memories: 8 duplicates in its top 10, recall 0.6 in most builds of PGlite's
    // HNSW and 0.4 in one of 20): the same graph effect, reported, not failed (c05-duplicates.ts).
    const memories = new Map(cell.dataset.memories.map((m) => [m.id, m]));
    const dupOnly = (qid: string): boolean =>
      duplicateOnlyShortfall(
        cell.expectationFor(qid).hits.map((h) => h.id),
        returned.get(qid) ?? [],
        memories,
      );
    const exempt = (qid: string): boolean => isCluster(qid) || dupOnly(qid);
    const clusterQueries = v.failingQueries.filter(isCluster);
    const duplicateQueries = v.failingQueries.filter((qid) => !isCluster(qid) && dupOnly(qid));
    for (const qid of v.failingQueries) {
      if (clusterQueries.includes(qid) || duplicateQueries.includes(qid)) continue;
      const recall = v.perQuery.get(qid)!;
      const query = cell.dataset.queries.find((x) => x.id === qid)!;
      const how = repeats > 1 ? `mean recall@k over ${repeats} runs` : `recall@${query.k}`; // the query's own k
      failures.push(
        failure(cell, 'recall', `query ${qid}: ${how} ${recall.toFixed(3)} < per-query floor ${annRecallFloorPerQuery}`, {
          queryId: qid,
          expected: annRecallFloorPerQuery,
          actual: recall,
          ...whereOf(query, 'index', cell.dataset.manifest.metric),
        }),
      );
    }
    const q = summarize([...v.perQuery.values()]);
    // The report shows the index the server has in effect (C28), not the catalog's wish, when the adapter can read it back.
    const inEffect = await indexShown(cell);
    if (v.regression) {
      const spread = repeats > 1 ? ` (runs ${v.runMeans.map((m) => m.toFixed(4)).join(', ')}; stdev ${v.spread.stdev.toExponential(1)})` : '';
      // The mean over the queries without minScore, for a known-failure scope whose defect empties the threshold queries.
      const plain = [...v.perQuery.entries()].filter(([qid]) => cell.dataset.queries.find((x) => x.id === qid)!.minScore === undefined).map(([, r]) => r);
      const without = plain.length ? summarize(plain).mean : undefined;
      const split = without === undefined || plain.length === q.count ? '' : `; ${without.toFixed(4)} over the ${plain.length} without minScore`;
      failures.push(
        failure(cell, 'recall', `mean recall@k ${v.spread.mean.toFixed(4)} over ${q.count} queries${repeats > 1 ? ` and ${repeats} runs` : ''} < floor ${annRecallFloor}${spread}${split}`, {
          expected: annRecallFloor,
          actual: v.spread.mean,
          scan: 'index', // over every query: neither filtered nor unfiltered, neither threshold nor not
          ...(without === undefined ? {} : { recallWithoutThreshold: without }),
        }),
      );
    }
    // Against the release baseline (profiles with `baselines:`): a drop that stays above the floors still fails.
    const base = cell.config.baseline ? judgeAgainstBaseline(cell, v.perQuery, cell.config.baseline, new Set([...v.perQuery.keys()].filter(exempt))) : undefined;
    if (base) failures.push(...base.failures);
    const leftOut = cell.queriesLeftOut;
    const notes = [
      ...(leftOut ? [`${leftOut.count} golden queries not replayed: ${leftOut.reason} (C04–C07 leave them out too)`] : []),
      ...(base?.notes ?? []),
      ...clusterQueries.map(
        (qid) =>
          `duplicate cluster: query ${qid} (its whole top-k is one group of identical vectors) has recall@k ${v.perQuery.get(qid)!.toFixed(3)} < ${annRecallFloorPerQuery}; HNSW may leave exact duplicates unreachable — reported, not failed`,
      ),
      ...duplicateQueries.map(
        (qid) =>
          `duplicates: query ${qid} has recall@k ${v.perQuery.get(qid)!.toFixed(3)} < ${annRecallFloorPerQuery}, and every expected memory it missed has an identical embedding among its expected top-k; HNSW may leave exact duplicates unreachable — reported, not failed`,
      ),
      ...v.noiseRuns.map(
        (r) =>
          `noise: run ${r} mean recall@k ${v.runMeans[r - 1]!.toFixed(4)} < floor ${annRecallFloor}, but the mean over ${repeats} runs is ${v.spread.mean.toFixed(4)} (stdev ${v.spread.stdev.toExponential(1)})`,
      ),
      ...(v.noiseQueries.length
        ? [
            `noise: ${v.noiseQueries.length} queries fell below the per-query floor ${annRecallFloorPerQuery} in some run but not on average (${v.noiseQueries.slice(0, 5).join(', ')}${v.noiseQueries.length > 5 ? ', …' : ''})`,
          ]
        : []),
      ...(repeats > 1 ? ['each repeat after the first rebuilds the index on a fresh collection (no backend here takes an index seed: seed null)'] : []),
    ];
    const worst = [...v.perQuery.entries()].reduce((w, e) => (e[1] < w[1] ? e : w), ['-', 2] as [string, number]);
    return {
      figures: {
        index: inEffect ?? describeIndex(cell.config.index),
        declaredIndex: describeIndex(cell.config.index),
        indexSource: inEffect === null ? 'declared (the adapter cannot read the index in effect back)' : 'server (indexInEffect, C28)',
        queries: q.count,
        ...(leftOut ? { queriesLeftOut: `${leftOut.count} (${leftOut.reason})` } : {}),
        recallAtKMean: v.spread.mean,
        recallAtKMin: q.min,
        recallAtKP50: q.p50,
        worstQuery: worst[0],
        floor: annRecallFloor,
        maxAbsScoreDelta: maxDelta,
        repeats,
        runRecallMin: v.spread.min,
        runRecallMax: v.spread.max,
        runRecallStdev: v.spread.stdev,
        noiseRuns: v.noiseRuns.length,
        noiseQueries: v.noiseQueries.length,
        duplicateClusterBelowFloor: clusterQueries.length,
        duplicatesOnlyBelowFloor: duplicateQueries.length,
        ...(base?.figures ?? {}),
      },
      failures,
      notes,
      ...(judged ? { replay: judged } : {}),
      tables: [
        {
          title: `C05 ann-recall per run (${repeats} run${repeats > 1 ? 's' : ''}; spread min ${v.spread.min.toFixed(4)} / mean ${v.spread.mean.toFixed(4)} / max ${v.spread.max.toFixed(4)} / stdev ${v.spread.stdev.toExponential(1)})`,
          columns: ['run', 'index build ms', 'seed', 'mean recall@k', 'worst query recall@k', `queries < ${annRecallFloorPerQuery}`, 'verdict'],
          rows,
        },
      ],
    };
  },
};

/** describeInEffect of what the server reports for the first golden query on the index path, or null when the adapter cannot read it back. */
async function indexShown(cell: import('../conformance/cell').LiveCell): Promise<string | null> {
  const { collection } = await cell.loaded();
  const q = cell.dataset.queries.find((x) => x.now === undefined);
  if (!cell.config.capabilities.indexIntrospection || !collection.indexInEffect || !q) return null;
  return describeInEffect(await collection.indexInEffect(toRecallQuery(q, 'index')));
}

/** A short label for an index config, e.g. `hnsw(m=16,efc=64,ef=100)`; a driver's own type lists its parameters as written, e.g. `diskann(maxNeighbors=64)`. */
export function describeIndex(i: import('../types').IndexConfig): string {
  if (i.type === 'none') return 'none';
  if (isHnsw(i)) return `hnsw(m=${i.m},efc=${i.efConstruction},ef=${i.efSearch})`;
  if (isIvfflat(i)) return `ivfflat(lists=${i.lists},probes=${i.probes})`;
  const params = Object.entries(i).filter(([k]) => k !== 'type');
  return `${i.type}(${params.map(([k, v]) => `${k}=${String(v)}`).join(',')})`;
}

/** A short label for an in-effect index, e.g. `hnsw(m=16,efc=64,ef=100) cosine [hnsw.iterative_scan=strict_order]`. */
export function describeInEffect(i: IndexInEffect): string {
  if (i.type === 'none') return 'none (no index used)';
  const names: Record<string, string> = { m: 'm', efConstruction: 'efc', efSearch: 'ef', lists: 'lists', probes: 'probes' };
  const params = Object.entries(i.params).map(([k, v]) => `${names[k] ?? k}=${v}`);
  const extra = Object.entries(i.extra ?? {}).map(([k, v]) => `${k}=${v}`);
  return `${i.type}(${params.join(',')}) ${i.metric ?? '-'}${extra.length ? ` [${extra.join(', ')}]` : ''}`;
}
