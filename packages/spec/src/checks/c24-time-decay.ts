import { dimensionFactor } from '../tolerance';
import { compareHits, type Failure } from '../comparator';
import type { FigureTable } from '../conformance/result';
import type { MemoryCollection } from '../adapter';
import type { RecallHit, TimeDecay } from '../types';
import { addMs, formatInstant } from '../time';
import { MemoryMatrixError } from '../errors';
import { type CheckDefinition, failure, needs } from './check';
import { errorCode } from './helpers/error-code';
import { at, decayedReference, HALF_LIFE_MS, offsetChangeIn, predictedFlips, scenarioQueries, scenarioRecords, scenarioVectors, STEPS_MS } from './c24-scenario';

/**
 * C24 time-decay: recall ranked by canonical similarity × decay(age at `now`) (decay.ts), on a
 * controlled clock (c24-scenario.ts: exact similarities 1, 0.5, 0.25 written 0, 200, 450 ms after
 * T0; half-life 100 ms; two memories 0.5 ms apart). For every `now` step and both decay functions
 * the result must equal the float64 reference tie group by tie group with scores within tolerance.
 * Hyperbolic: each predicted flip instant t* (300, 500, 600 ms) is bracketed — at t* − 1 ms the
 * newer memory ranks above the older one, at t* + 1 ms below, at t* their scores tie (≤ tieEpsilon).
 * Exponential: one order at every step where every memory exists (it cannot flip). The
 * microsecond pair ranks newer-first (a backend that truncated to ms would tie them and order by
 * id) and reads back byte for byte; a `createdAt` or `now` with a time-zone offset is rejected with
 * INVALID_INPUT and nothing of its batch is written. Then the DST pass (`dstPass`): the same
 * scenario written across the run's time zone's UTC-offset change.
 */
export const c24TimeDecay: CheckDefinition = {
  id: 'C24',
  name: 'time-decay',
  requires: needs('vectors', 'timeDecay'),
  usesDatasetMetric: false, // its own metrics at the dataset's dimension: runs on a dataset in a metric the target lacks
  async run(cell) {
    const dim = cell.dataset.manifest.dim;
    // The scenario's vectors are unit length under cosine: the tolerance model scales the target's
    // figures by the dimension only (tolerance.ts).
    const tieEpsilon = cell.config.tolerances.tieEpsilon * dimensionFactor(dim);
    const scoreTolerance = cell.config.tolerances.scoreTolerance * dimensionFactor(dim);
    const failures: Failure[] = [];
    const fail = (message: string, extra: Partial<Failure> = {}) => failures.push(failure(cell, 'time-decay', message, extra));
    // Below 5 d the scenario's vectors are float32-rounded (c24-scenario.ts 'plane'): exact for a
    // float32 backend, not after int8 quantization, which would turn its flips into false failures.
    if (cell.config.capabilities.quantized && scenarioVectors(dim).construction === 'plane') {
      throw new MemoryMatrixError(
        'INVALID_INPUT',
        `C24: dataset ${cell.datasetName} has dimension ${dim}; on a quantized target (${cell.target}) the time-decay scenario needs at least 5 dimensions (vectors exact under int8)`,
      );
    }
    const records = scenarioRecords(dim);
    const { collection } = await cell.scratch('c24', { metric: 'cosine', index: { type: 'none' } });
    await collection.upsert(records);
    const scan = cell.config.capabilities.exactScan ? ('exact' as const) : undefined;
    const [q1, q2] = scenarioQueries(dim);
    const rows: FigureTable['rows'] = [];
    const orders = new Map<string, string[]>(); // `${fn}@${ms}` → ids of q1
    const recall = (q: typeof q1, ms: number, decay: TimeDecay): Promise<RecallHit[]> => collection.recall({ vector: q.vector, k: q.k, now: formatInstant(at(ms)), decay, scan });

    for (const fn of ['hyperbolic', 'exponential'] as const) {
      const decay = { fn, halfLifeMs: HALF_LIFE_MS };
      for (const ms of STEPS_MS) {
        for (const q of [q1, q2]) {
          const hits = await recall(q, ms, decay);
          const now = formatInstant(at(ms));
          const ref = decayedReference(records, q.vector, q.k, at(ms), decay, tieEpsilon);
          const c = compareHits(
            ref,
            hits,
            { dataset: cell.datasetName, target: cell.target, queryId: `C24 ${fn} ${q.name} now=${now}`, metric: 'cosine' },
            { k: q.k, mode: 'exact', tieEpsilon, scoreTolerance },
          );
          failures.push(...c.failures);
          if (q === q1)
            orders.set(
              `${fn}@${ms}`,
              hits.map((h) => h.id),
            );
          rows.push([
            fn,
            q.name,
            now,
            hits.map((h) => h.id).join(' > '),
            hits.map((h) => h.score.toFixed(6)).join(', '),
            ref.hits
              .slice(0, q.k)
              .map((h) => h.id)
              .join(' > '),
            c.failures.length === 0,
          ]);
        }
      }
    }

    const flips = predictedFlips(records, q1.vector);
    const flipRows: FigureTable['rows'] = [];
    const figures: Record<string, string | number | boolean | null> = { halfLifeMs: HALF_LIFE_MS, steps: STEPS_MS.length };
    for (const f of flips) {
      // t* ± 1 ms, recalled at exactly those instants: t* is an integer step (300, 500, 600) for the
      // basis-sum vectors, off it by < 1e-4 ms for the float32-rounded plane vectors (dim < 5).
      const ids = async (ms: number) => orders.get(`hyperbolic@${ms}`) ?? (await recall(q1, ms, { fn: 'hyperbolic', halfLifeMs: HALF_LIFE_MS })).map((h) => h.id);
      const [idsBefore, idsAfter] = [await ids(f.atMs - 1), await ids(f.atMs + 1)];
      const before = idsBefore.indexOf(f.newer) >= 0 && idsBefore.indexOf(f.newer) < idsBefore.indexOf(f.older);
      const after = idsAfter.indexOf(f.older) >= 0 && idsAfter.indexOf(f.older) < idsAfter.indexOf(f.newer);
      const atHits = await recall(q1, f.atMs, { fn: 'hyperbolic', halfLifeMs: HALF_LIFE_MS });
      const sx = atHits.find((h) => h.id === f.older)?.score;
      const sy = atHits.find((h) => h.id === f.newer)?.score;
      const tie = sx !== undefined && sy !== undefined && Math.abs(sx - sy) <= tieEpsilon;
      const pair = `${f.older}~${f.newer}`;
      const instant = formatInstant(at(f.atMs));
      figures[`flip.${pair}`] = instant;
      flipRows.push([pair, instant, before ? `${f.newer} first` : 'NOT newer first', tie ? `tie ${sx!.toFixed(6)}` : `no tie (${sx} vs ${sy})`, after ? `${f.older} first` : 'NOT older first']);
      if (!before || !after || !tie) {
        fail(
          `hyperbolic flip ${pair} predicted at ${instant}: ${!before ? `1 ms before it ${f.newer} does not rank above ${f.older}; ` : ''}${!tie ? `at it the scores ${sx} and ${sy} do not tie within ${tieEpsilon}; ` : ''}${!after ? `1 ms after it ${f.older} does not rank above ${f.newer}` : ''}`,
          { expected: instant },
        );
      }
    }
    const expo = STEPS_MS.filter((ms) => ms >= 450).map((ms) => (orders.get(`exponential@${ms}`) ?? []).join(' > '));
    figures.exponentialOrders = new Set(expo).size;
    if (new Set(expo).size !== 1) fail(`exponential decay changed the order of query e0 between steps ≥ 450 ms: ${[...new Set(expo)].join(' | ')} (the factor ratio is constant, so it must not)`);

    await checkRoundTripAndInput(cell, collection, records, fail, figures);
    const dst = await dstPass(cell, scan, tieEpsilon, scoreTolerance);
    failures.push(...dst.failures);
    Object.assign(figures, dst.figures);
    return {
      figures,
      failures,
      notes: [`hyperbolic flips predicted at ${flips.map((f) => `${formatInstant(at(f.atMs))} (${f.older}~${f.newer})`).join(', ')}; half-life ${HALF_LIFE_MS} ms; scan ${scan ?? 'index'}`, dst.note],
      tables: [
        { title: 'C24 time-decay: ranking per now', columns: ['decay', 'query', 'now', 'order', 'scores', 'expected order', 'ok'], rows },
        { title: 'C24 time-decay: hyperbolic flips (t* − 1 ms / t* / t* + 1 ms)', columns: ['pair', 'predicted t*', 'before', 'at', 'after'], rows: flipRows },
      ],
    };
  },
};

/**
 * C24's DST pass: the scenario once more, in a new collection, written around the first UTC-offset
 * change of 2024 in this process's time zone (`offsetChangeIn`: the run's zone, Australia/Adelaide
 * by default, runner time-zone.ts): T0 is 300 ms before it, so `c24-a` and `c24-b` are written
 * before the change and `c24-c` and the pair after; the `now` steps 100 and 299 ms lie before it,
 * every later one after it. Each step of both decay functions and both queries must equal the float64 reference as in
 * the main pass. A store that computes ages from local wall-clock readings (a `timestamp` column in
 * the session zone, `now()::timestamp`) is right whenever both readings share one offset — every
 * other C24 instant — and an hour off here. Figures `dstChange` (the instant, or null), `dstSteps`,
 * `dstFailed`. A zone without an offset change (UTC) makes no pass, and the note says so.
 */
async function dstPass(
  cell: Parameters<CheckDefinition['run']>[0],
  scan: 'exact' | undefined,
  tieEpsilon: number,
  scoreTolerance: number,
): Promise<{ failures: Failure[]; figures: Record<string, string | number | null>; note: string }> {
  const zone = Intl.DateTimeFormat().resolvedOptions().timeZone;
  const change = offsetChangeIn(2024);
  if (!change) return { failures: [], figures: { dstChange: null }, note: `DST pass not made: time zone ${zone} keeps one UTC offset all 2024` };
  const base = formatInstant(addMs(change, -300));
  const dim = cell.dataset.manifest.dim;
  const records = scenarioRecords(dim, base);
  const { collection } = await cell.scratch('c24d', { metric: 'cosine', index: { type: 'none' } });
  await collection.upsert(records);
  const failures: Failure[] = [];
  let steps = 0;
  let failed = 0;
  for (const fn of ['hyperbolic', 'exponential'] as const) {
    const decay = { fn, halfLifeMs: HALF_LIFE_MS };
    for (const ms of STEPS_MS) {
      for (const q of scenarioQueries(dim)) {
        const now = formatInstant(at(ms, base));
        const hits = await collection.recall({ vector: q.vector, k: q.k, now, decay, scan });
        const ref = decayedReference(records, q.vector, q.k, at(ms, base), decay, tieEpsilon);
        const c = compareHits(
          ref,
          hits,
          { dataset: cell.datasetName, target: cell.target, queryId: `C24 DST ${fn} ${q.name} now=${now} (offset change ${formatInstant(change)} in ${zone})`, metric: 'cosine' },
          { k: q.k, mode: 'exact', tieEpsilon, scoreTolerance },
        );
        steps++;
        if (c.failures.length) failed++;
        failures.push(...c.failures);
      }
    }
  }
  return {
    failures,
    figures: { dstChange: formatInstant(change), dstSteps: steps, dstFailed: failed },
    note: `DST pass: the scenario written across ${zone}'s UTC-offset change at ${formatInstant(change)} (T0 ${base}); ${steps - failed} of ${steps} recalls as the reference`,
  };
}

/** Microsecond createdAt round trip from a new client; offsets rejected atomically (write) and in `now`. */
async function checkRoundTripAndInput(
  cell: Parameters<CheckDefinition['run']>[0],
  collection: MemoryCollection,
  records: ReturnType<typeof scenarioRecords>,
  fail: (m: string, extra?: Partial<Failure>) => void,
  figures: Record<string, string | number | boolean | null>,
): Promise<void> {
  const reader = cell.config.capabilities.reopen ? await (await cell.connect()).openCollection(collection.spec.name) : collection;
  const sub = records.filter((r) => r.id.startsWith('c24-sub'));
  const back = await reader.get(sub.map((r) => r.id));
  for (const r of sub) {
    const b = back.find((x) => x.id === r.id);
    if (b?.createdAt !== r.createdAt)
      fail(`memory ${r.id}: createdAt ${JSON.stringify(r.createdAt)} reads back as ${JSON.stringify(b?.createdAt)}`, { id: r.id, expected: r.createdAt, actual: b?.createdAt });
  }
  figures.microsecondRoundTrip = back.map((b) => b.createdAt).join(' ');
  const tz = { ...records[0]!, id: 'c24-tz', createdAt: '2024-05-01T11:30:00.450+02:00' };
  const ok = { ...records[0]!, id: 'c24-tz-ok' };
  const code = await errorCode(() => collection.upsert([ok, tz]));
  figures.offsetWrite = code ?? 'accepted';
  if (code !== 'INVALID_INPUT')
    fail(`a createdAt with a time-zone offset (${tz.createdAt}) was ${code ? `rejected with ${code}` : 'accepted'}; expected INVALID_INPUT`, { id: 'c24-tz', expected: 'INVALID_INPUT', actual: code });
  const leaked = await collection.get([ok.id, tz.id]);
  if (leaked.length) fail(`the batch with the offset timestamp partly landed: ${leaked.map((r) => r.id).join(', ')}`, { expected: 0, actual: leaked.length });
  const [q1] = scenarioQueries(cell.dataset.manifest.dim);
  const qcode = await errorCode(() => collection.recall({ vector: q1!.vector, k: 3, now: '2024-05-01T11:30:00.500+02:00', decay: { fn: 'hyperbolic', halfLifeMs: HALF_LIFE_MS } }));
  figures.offsetNow = qcode ?? 'accepted';
  if (qcode !== 'INVALID_INPUT') fail(`a now with a time-zone offset was ${qcode ? `rejected with ${qcode}` : 'accepted'}; expected INVALID_INPUT`, { expected: 'INVALID_INPUT', actual: qcode });
  const ncode = await errorCode(() => collection.recall({ vector: q1!.vector, k: 3, decay: { fn: 'hyperbolic', halfLifeMs: HALF_LIFE_MS } }));
  figures.decayWithoutNow = ncode ?? 'accepted';
  if (ncode !== 'INVALID_INPUT')
    fail(`decay without now was ${ncode ? `rejected with ${ncode}` : 'accepted'}; expected INVALID_INPUT (the wall clock is never used)`, { expected: 'INVALID_INPUT', actual: ncode });
}
