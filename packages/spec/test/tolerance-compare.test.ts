import { readFileSync } from 'node:fs';
import path from 'node:path';
import { compareHits, tieGroups } from '../src/comparator';
import { parseExpectation } from '../src/expectation';
import { loadGoldenDataset } from '../src/golden/load';
import type { GoldenDataset } from '../src/golden/types';
import { ExactOracle } from '../src/oracle';
import { recallAtK } from '../src/stats';
import { offsetTerm, uniformTolerances } from '../src/tolerance';
import type { Metric, RecallHit } from '../src/types';

/**
 * The tolerance model in the comparator on real data: agent-memories as committed (unit norms,
 * cosine) and scaled copies (norms 1e3 under l2, 1e-3 under ip). A float32 backend is simulated
 * by computing every returned score in float32 (recursive summation, Math.fround per operation).
 */
const DIR = path.join(__dirname, '..', '..', '..', 'golden-data', 'agent-memories');
const DECLARED = { scoreTolerance: 1e-5, tieEpsilon: 1e-5 };
const f = Math.fround;
let d: GoldenDataset;
beforeAll(() => {
  d = loadGoldenDataset(DIR);
});

function oracleOf(metric: Metric, scale: number): ExactOracle {
  return new ExactOracle({
    ids: d.memories.map((m) => m.id),
    namespaces: d.memories.map((m) => m.namespace),
    kinds: d.memories.map((m) => m.kind),
    metadata: d.memories.map((m) => m.metadata),
    vectors: Float32Array.from(d.vectors, (x) => x * scale),
    dim: d.manifest.dim,
    metric,
  });
}

/** The canonical score a float32 backend computes for `a` against `b`. */
function float32Score(metric: Metric, a: Float32Array, b: Float32Array): number {
  let dot = 0;
  let na = 0;
  let nb = 0;
  let l2 = 0;
  for (let i = 0; i < a.length; i++) {
    dot = f(dot + f(a[i]! * b[i]!));
    na = f(na + f(a[i]! * a[i]!));
    nb = f(nb + f(b[i]! * b[i]!));
    l2 = f(l2 + f(f(a[i]! - b[i]!) ** 2));
  }
  if (metric === 'ip') return dot;
  if (metric === 'l2') return -f(Math.sqrt(l2));
  return f(dot / f(f(Math.sqrt(na)) * f(Math.sqrt(nb))));
}

/** The oracle's top-k of query i, rescored as a float32 backend would (same ids, same order by its own scores). */
function backendAnswer(o: ExactOracle, metric: Metric, scale: number, i: number): { vector: Float32Array; k: number; exp: ReturnType<ExactOracle['topK']>; hits: RecallHit[] } {
  const q = d.queries[i]!;
  const vector = Float32Array.from(q.vector, (x) => x * scale);
  const exp = o.topK({ vector, k: q.k }, DECLARED.tieEpsilon);
  const row = rowOf();
  const dim = d.manifest.dim;
  const hits = exp.hits
    .slice(0, q.k)
    .map((h) => {
      const j = row.get(h.id)!;
      const v = Float32Array.from(d.vectors.subarray(j * dim, (j + 1) * dim), (x) => x * scale);
      return { id: h.id, score: float32Score(metric, vector, v) };
    })
    .sort((a, b) => b.score - a.score || (a.id < b.id ? -1 : 1));
  return { vector, k: q.k, exp, hits };
}

let rows: Map<string, number> | undefined;
const rowOf = (): Map<string, number> => (rows ??= new Map(d.memories.map((m, j) => [m.id, j])));

const QUERIES = Array.from({ length: 40 }, (_, i) => i * 7);

function failuresOf(o: ExactOracle, metric: Metric, scale: number, perturb: (h: RecallHit, vector: Float32Array) => number, model: boolean): { score: number; other: number } {
  let score = 0;
  let other = 0;
  for (const i of QUERIES) {
    const { vector, k, exp, hits } = backendAnswer(o, metric, scale, i);
    const actual = hits.map((h) => ({ id: h.id, score: perturb(h, vector) }));
    const tolerances = model ? o.tolerancesFor(vector, DECLARED) : uniformTolerances(DECLARED);
    const c = compareHits(exp, actual, { dataset: 'am', target: 't', queryId: `q${i}` }, { k, mode: 'exact', ...DECLARED, tolerances, scoreOf: (id) => o.score(id, vector) });
    for (const x of c.failures)
      if (x.kind === 'score') score++;
      else other++;
  }
  return { score, other };
}

describe('the tolerance model in the comparator', () => {
  it('unit norms (agent-memories, cosine): the model is the declared 1e-5; honest float32 passes, a score shifted by 1e-4 fails at every rank', () => {
    const o = oracleOf('cosine', 1);
    const t = o.tolerancesFor(d.queries[0]!.vector, DECLARED);
    expect(t.score(d.memories[0]!.id)).toBe(1e-5);
    expect(t.tie(d.memories[0]!.id)).toBe(1e-5);
    expect(failuresOf(o, 'cosine', 1, (h) => h.score, true)).toEqual({ score: 0, other: 0 });
    const shifted = failuresOf(o, 'cosine', 1, (h) => h.score + 1e-4, true);
    expect(shifted.score).toBe(QUERIES.reduce((n, i) => n + Math.min(d.queries[i]!.k, d.memories.length), 0));
  });

  it('unit norms: ExactOracle.topK gives the committed expectation exactly (boundary tie groups unchanged)', () => {
    const o = oracleOf('cosine', 1);
    const committed = parseExpectation(readFileSync(path.join(DIR, 'expected', 'oracle.jsonl'), 'utf8'), 'oracle.jsonl');
    for (const [i, q] of d.queries.entries()) {
      const e = committed.entries[i]!;
      const r = o.topK({ vector: q.vector, k: q.k, filter: q.filter, minScore: q.minScore }, committed.header.tieEpsilon);
      expect(r.matching).toBe(e.matching);
      expect(r.hits).toEqual(e.hits);
    }
  });

  for (const [metric, scale] of [
    ['l2', 1e3],
    ['ip', 1e-3],
    ['ip', 1e3],
  ] as const) {
    const old = scale > 1 ? 'it failed under the unit figure' : 'the unit figure let the error through';
    it(`${metric} at norms ${scale}: honest float32 passes under the model; a 1e-3 relative error fails (${old})`, () => {
      const o = oracleOf(metric, scale);
      expect(failuresOf(o, metric, scale, (h) => h.score, true)).toEqual({ score: 0, other: 0 });
      // 1e-3 of the magnitude the error scales with: ‖q‖‖m‖ for ip, the distance for l2; under ip
      // at least twice the absolute offset term (a backend reporting 1 − q·m in float32 cannot do
      // better than 2⁻²³(1 + ‖q‖‖m‖): tolerance.ts offsetTerm).
      const wrong = (h: RecallHit): number => h.score - (metric === 'ip' ? Math.max(1e-3 * scale * scale, 2 * offsetTerm('ip', scale, scale)) : 1e-3 * Math.abs(h.score));
      expect(failuresOf(o, metric, scale, wrong, true).score).toBeGreaterThan(0);
      if (scale > 1) expect(failuresOf(o, metric, scale, (h) => h.score, false).score).toBeGreaterThan(0);
      else expect(failuresOf(o, metric, scale, wrong, false).score).toBe(0);
    });
  }

  it('tie groups and recall@k use the scaled tie epsilon: at norms 1e3 (ip) two scores 0.5 apart tie, at unit norms they do not', () => {
    const big = [
      { id: 'a', score: 1000 },
      { id: 'b', score: 999.5 },
    ];
    const tieAtBig = (id: string) => 1e-5 * (id === 'a' || id === 'b' ? 1e6 : 1);
    expect(tieGroups(big, tieAtBig)).toHaveLength(1);
    expect(tieGroups(big, 1e-5)).toHaveLength(2);
    // k = 1 cut inside the tie group: either member counts.
    expect(recallAtK({ hits: big, matching: 2 }, [{ id: 'b', score: 999.5 }], 1, tieAtBig)).toBe(1);
    expect(recallAtK({ hits: big, matching: 2 }, [{ id: 'b', score: 999.5 }], 1, 1e-5)).toBe(0);
  });
});
