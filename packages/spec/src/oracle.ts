import { MemoryMatrixError } from './errors';
import { matchesFilter } from './filter';
import type { FilterJson } from './filter-lang/types';
import { validateVector } from './scores';
import { type DeclaredTolerances, pairTolerances, type QueryTolerances, toleranceScale, underflowTerm } from './tolerance';
import type { MemoryKind, Metric, RecallFilter, RecallHit, RecallQuery } from './types';

/** One row's metadata as the oracle filters it: `Metadata`, or nested objects and arrays (filter-lang/types.ts `FilterJson`). */
type RowMetadata = Readonly<Record<string, FilterJson>>;

/** The rows an `ExactOracle` searches. All arrays have one entry per row, in the same order. */
export interface OracleInput {
  ids: string[];
  namespaces: string[];
  kinds: MemoryKind[];
  metadata: RowMetadata[];
  /**
   * Canonical instants (time.ts), one per row: needed only for filters whose `where` reads
   * `createdAt` (a topK with such a filter and no `createdAt` throws INVALID_INPUT).
   */
  createdAt?: string[];
  /** Row-major `Float32Array` of length `ids.length * dim` (row i = components [i*dim, (i+1)*dim)). */
  vectors: Float32Array;
  dim: number;
  metric: Metric;
}

/**
 * The oracle's answer to one query.
 * - `hits`: the top-k by canonical score (float64), ties by id ascending, PLUS every further row
 *   whose score is ≥ (k-th score − the tie epsilon between it and the k-th row, tolerance.ts):
 *   the boundary tie group, so a comparator can treat a tie cut by k as a subset. Fewer than k
 *   when fewer rows qualify.
 * - `matching`: the number of rows that qualify for the result: they pass the filter and, when
 *   the query sets `minScore`, score ≥ `minScore`. A correct backend returns min(k, matching).
 */
export interface OracleResult {
  hits: RecallHit[];
  matching: number;
}

/** Id order used to break ties: ascending by UTF-16 code units (JS `<`), like C collation on ASCII ids. */
export function compareIds(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/**
 * Exact float64 brute-force search over golden rows: the ground truth every target is compared
 * with. Scores are canonical (see `scores.ts`) and computed in float64 from the float32 rows;
 * row squared norms are precomputed once. Rows are validated at construction (dimension,
 * finite components, no zero vector under cosine), so no score is NaN.
 * Cost: one pass of `n × dim` multiply-adds per query; 300 queries × 5,000 rows × 384 dims
 * take ≈ 1.0–1.2 s on the 2-core CI machine (measured and bounded in `test/oracle.test.ts`).
 * Throws INVALID_INPUT (inconsistent lengths, duplicate or empty id), DIMENSION_MISMATCH,
 * INVALID_VECTOR (naming the row and id).
 */
export class ExactOracle {
  readonly dim: number;
  readonly metric: Metric;
  readonly size: number;
  private readonly ids: string[];
  private readonly namespaces: string[];
  private readonly kinds: MemoryKind[];
  private readonly metadata: RowMetadata[];
  private readonly createdAt: string[] | undefined;
  private readonly vectors: Float32Array;
  private readonly sqNorms: Float64Array;
  private maxRowNorm = 0;
  private readonly rowOf = new Map<string, number>();
  private readonly allRows: Int32Array;

  constructor(input: OracleInput) {
    const n = input.ids.length;
    const { dim } = input;
    if (!Number.isInteger(dim) || dim < 1) {
      throw new MemoryMatrixError('INVALID_INPUT', `ExactOracle: dim must be a positive integer, got ${dim}`);
    }
    for (const [field, len] of [
      ['namespaces', input.namespaces.length],
      ['kinds', input.kinds.length],
      ['metadata', input.metadata.length],
      ['createdAt', input.createdAt?.length ?? n],
    ] as const) {
      if (len !== n) {
        throw new MemoryMatrixError('INVALID_INPUT', `ExactOracle: ${field} has ${len} entries, ids has ${n}`);
      }
    }
    if (input.vectors.length !== n * dim) {
      throw new MemoryMatrixError('DIMENSION_MISMATCH', `ExactOracle: vectors has ${input.vectors.length} components, expected ${n} rows × ${dim} = ${n * dim}`);
    }
    this.dim = dim;
    this.metric = input.metric;
    this.size = n;
    this.ids = input.ids;
    this.namespaces = input.namespaces;
    this.kinds = input.kinds;
    this.metadata = input.metadata;
    this.createdAt = input.createdAt;
    this.vectors = input.vectors;
    this.sqNorms = new Float64Array(n);
    this.allRows = Int32Array.from({ length: n }, (_, i) => i);
    for (let i = 0; i < n; i++) {
      const id = input.ids[i]!;
      if (id.length === 0) throw new MemoryMatrixError('INVALID_INPUT', `ExactOracle: row ${i} has an empty id`);
      const prev = this.rowOf.get(id);
      if (prev !== undefined) {
        throw new MemoryMatrixError('INVALID_INPUT', `ExactOracle: id ${id} appears at rows ${prev} and ${i}`);
      }
      this.rowOf.set(id, i);
      const row = input.vectors.subarray(i * dim, (i + 1) * dim);
      validateVector(row, dim, input.metric, `ExactOracle row ${i} (id ${id})`);
      let s = 0;
      for (let j = 0; j < dim; j++) s += row[j]! * row[j]!;
      this.sqNorms[i] = s;
      this.maxRowNorm = Math.max(this.maxRowNorm, Math.sqrt(s));
    }
  }

  /** Euclidean norm (float64) of row `id`, or `undefined` when `id` is not a row. */
  rowNorm(id: string): number | undefined {
    const i = this.rowOf.get(id);
    return i === undefined ? undefined : Math.sqrt(this.sqNorms[i]!);
  }

  /**
   * The tolerance model (tolerance.ts) for one query `vector` (`Float32Array` of length `dim`):
   * per-row score and tie tolerances from `declared` (a target's figures at unit magnitude), this
   * oracle's metric, dimension and the two vectors' norms. Throws INVALID_VECTOR / DIMENSION_MISMATCH
   * for a bad `vector`, INVALID_INPUT for a negative or non-finite declared figure.
   */
  tolerancesFor(vector: Float32Array, declared: DeclaredTolerances): QueryTolerances {
    validateVector(vector, this.dim, this.metric, 'ExactOracle.tolerancesFor query vector');
    for (const [k, v] of [
      ['scoreTolerance', declared.scoreTolerance],
      ['tieEpsilon', declared.tieEpsilon],
    ] as const) {
      if (!(v >= 0) || !Number.isFinite(v)) throw new MemoryMatrixError('INVALID_INPUT', `ExactOracle.tolerancesFor: ${k} must be finite and ≥ 0, got ${v}`);
    }
    return pairTolerances({ scoreTolerance: declared.scoreTolerance, tieEpsilon: declared.tieEpsilon }, this.metric, this.dim, Math.sqrt(this.queryNorm(vector)), (id) => this.rowNorm(id));
  }

  /** Whether `id` is a row of this oracle. */
  has(id: string): boolean {
    return this.rowOf.has(id);
  }

  /** Whether the row `id` passes `filter` (`matchesFilter` semantics); false for an unknown id. */
  matches(id: string, filter?: RecallFilter): boolean {
    const i = this.rowOf.get(id);
    return i !== undefined && this.rowMatches(i, filter);
  }

  /**
   * Float64 canonical score of stored row `id` against `vector` (`Float32Array` of length `dim`),
   * or `undefined` when `id` is not a row (so it can serve as the comparator's `scoreOf`).
   * Throws DIMENSION_MISMATCH / INVALID_VECTOR for a bad `vector`.
   */
  score(id: string, vector: Float32Array): number | undefined {
    const i = this.rowOf.get(id);
    if (i === undefined) return undefined;
    validateVector(vector, this.dim, this.metric, 'ExactOracle.score query vector');
    return this.scoreRow(i, vector, this.queryNorm(vector));
  }

  /**
   * Float64 canonical scores of every row against `vector` (`Float32Array` of length `dim`):
   * a `Float64Array` of length `size`, in row order. Throws DIMENSION_MISMATCH / INVALID_VECTOR.
   */
  scoreAll(vector: Float32Array): Float64Array {
    validateVector(vector, this.dim, this.metric, 'ExactOracle.scoreAll query vector');
    const qn = this.queryNorm(vector);
    const out = new Float64Array(this.size);
    this.scoreInto(vector, qn, this.allRows, out);
    return out;
  }

  /**
   * Exact top-k for `query` (`vector`, `k`, `filter`, `minScore`; `scan` and `now` do not apply).
   * See `OracleResult` for what `hits` and `matching` hold; `tieEpsilon` ≥ 0 (a target's figure at
   * unit magnitude, scaled per row by the tolerance model) widens the last tie group past k. Throws INVALID_INPUT (k not an integer ≥ 1, tieEpsilon < 0 or not finite),
   * DIMENSION_MISMATCH / INVALID_VECTOR for the query vector.
   */
  topK(query: RecallQuery, tieEpsilon: number): OracleResult {
    const { k } = query;
    if (!Number.isInteger(k) || k < 1) {
      throw new MemoryMatrixError('INVALID_INPUT', `ExactOracle.topK: k must be an integer ≥ 1, got ${k}`);
    }
    if (!(tieEpsilon >= 0) || !Number.isFinite(tieEpsilon)) {
      throw new MemoryMatrixError('INVALID_INPUT', `ExactOracle.topK: tieEpsilon must be finite and ≥ 0, got ${tieEpsilon}`);
    }
    validateVector(query.vector, this.dim, this.metric, 'ExactOracle.topK query vector');
    const qn = this.queryNorm(query.vector);
    let candidates = this.allRows;
    if (query.filter !== undefined) {
      const passing: number[] = [];
      for (let i = 0; i < this.size; i++) if (this.rowMatches(i, query.filter)) passing.push(i);
      candidates = Int32Array.from(passing);
    }
    const all = new Float64Array(candidates.length);
    this.scoreInto(query.vector, qn, candidates, all);
    const rows: number[] = [];
    const scores: number[] = [];
    for (let j = 0; j < candidates.length; j++) {
      if (query.minScore !== undefined && !(all[j]! >= query.minScore)) continue;
      rows.push(candidates[j]!);
      scores.push(all[j]!);
    }
    const matching = rows.length;
    const picked: number[] = [];
    if (matching > k) {
      const sorted = Float64Array.from(scores).sort(); // ascending, native numeric sort
      const kth = sorted[matching - k]!; // k-th highest score
      // Tie epsilon between row j and the k-th row: tieEpsilon · max(scale_j, scale_k) + underflow.
      const scale = (j: number): number => toleranceScale(this.metric, this.dim, Math.sqrt(qn), Math.sqrt(this.sqNorms[rows[j]!]!));
      let scaleK = 0;
      for (let j = 0; j < matching; j++) if (scores[j] === kth) scaleK = Math.max(scaleK, scale(j));
      const under = underflowTerm(this.metric, this.dim);
      // The scale grows with the row norm under every metric: rows below the widest cut are out
      // without computing their own scale.
      const widest = kth - tieEpsilon * toleranceScale(this.metric, this.dim, Math.sqrt(qn), this.maxRowNorm) - under;
      for (let j = 0; j < matching; j++) {
        const s = scores[j]!;
        if (s >= kth || (s >= widest && s >= kth - tieEpsilon * Math.max(scaleK, scale(j)) - under)) picked.push(j);
      }
    } else for (let j = 0; j < matching; j++) picked.push(j); // every qualifying row
    picked.sort((a, b) => scores[b]! - scores[a]! || compareIds(this.ids[rows[a]!]!, this.ids[rows[b]!]!));
    return { hits: picked.map((j) => ({ id: this.ids[rows[j]!]!, score: scores[j]! })), matching };
  }

  private rowMatches(i: number, filter: RecallFilter | undefined): boolean {
    if (filter === undefined) return true;
    return matchesFilter({ namespace: this.namespaces[i]!, kind: this.kinds[i]!, createdAt: this.createdAt?.[i], metadata: this.metadata[i]! }, filter);
  }

  private queryNorm(v: Float32Array): number {
    let s = 0;
    for (let j = 0; j < this.dim; j++) s += v[j]! * v[j]!;
    return s;
  }

  /** Canonical score of row i; `qn` = Σ q_j² in float64. */
  private scoreRow(i: number, q: Float32Array, qn: number): number {
    const out = new Float64Array(1);
    this.scoreInto(q, qn, Int32Array.of(i), out);
    return out[0]!;
  }

  /**
   * out[j] = canonical score of row rows[j]. One tight loop per metric (the hot path: n × dim
   * multiply-adds per query); summation order is the same as `referenceScore`, so the two agree
   * to the last bit.
   */
  private scoreInto(q: Float32Array, qn: number, rows: Int32Array, out: Float64Array): void {
    const dim = this.dim;
    const vs = this.vectors;
    const m = rows.length;
    if (this.metric === 'l2') {
      for (let r = 0; r < m; r++) {
        const base = rows[r]! * dim;
        let s = 0;
        for (let j = 0; j < dim; j++) {
          const d = vs[base + j]! - q[j]!;
          s += d * d;
        }
        out[r] = -Math.sqrt(s);
      }
      return;
    }
    for (let r = 0; r < m; r++) {
      const base = rows[r]! * dim;
      let dot = 0;
      for (let j = 0; j < dim; j++) dot += vs[base + j]! * q[j]!;
      out[r] = dot;
    }
    if (this.metric === 'cosine') {
      const norms = this.sqNorms;
      for (let r = 0; r < m; r++) out[r] = out[r]! / Math.sqrt(norms[rows[r]!]! * qn);
    }
  }
}
