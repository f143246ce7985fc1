/** Id order used to break ties: ascending by UTF-16 code units (JS `<`), as the spec's ExactOracle. */
export function compareIds(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/**
 * Exact cosine top-k for a few queries over rows that arrive in chunks: one bounded heap of k
 * rows per query, so memory is O(queries × k) whatever the number of rows. Scores are computed
 * exactly as `ExactOracle` does for cosine (float64 sums of float32 products in component order,
 * dot ÷ sqrt(|row|² · |q|²)), so the result equals the first k hits of `ExactOracle.topK` with
 * tieEpsilon 0 (score descending, ties by id ascending). Not for filters or thresholds.
 */
export class StreamingTopK {
  private readonly qNorms: Float64Array;
  private readonly heapScore: Float64Array[];
  private readonly heapId: string[][];
  private readonly size: number[];

  /** `queries`: one Float32Array of `dim` per query; `k` ≥ 1. Throws RangeError for a bad k or a query of another length. */
  constructor(
    private readonly queries: Float32Array[],
    readonly k: number,
    readonly dim: number,
  ) {
    if (!Number.isInteger(k) || k < 1) throw new RangeError(`StreamingTopK: k must be an integer ≥ 1, got ${k}`);
    queries.forEach((q, i) => {
      if (q.length !== dim) throw new RangeError(`StreamingTopK: query ${i} has ${q.length} components, expected ${dim}`);
    });
    this.qNorms = Float64Array.from(queries, (q) => q.reduce((s, x) => s + x * x, 0));
    this.heapScore = queries.map(() => new Float64Array(k));
    this.heapId = queries.map(() => new Array<string>(k));
    this.size = queries.map(() => 0);
  }

  /** Feed rows: `vectors` row-major (rows × dim), `idOf(r)` the id of row r of this chunk (ids unique across all chunks). */
  add(vectors: Float32Array, idOf: (r: number) => string): void {
    const dim = this.dim;
    const rows = vectors.length / dim;
    for (let r = 0; r < rows; r++) {
      const base = r * dim;
      let rn = 0;
      for (let c = 0; c < dim; c++) rn += vectors[base + c]! * vectors[base + c]!;
      for (let qi = 0; qi < this.queries.length; qi++) {
        const q = this.queries[qi]!;
        let dot = 0;
        for (let c = 0; c < dim; c++) dot += vectors[base + c]! * q[c]!;
        const score = dot / Math.sqrt(rn * this.qNorms[qi]!);
        this.offer(qi, score, idOf, r);
      }
    }
  }

  /** Per query, its top-k (fewer when fewer rows were fed): score descending, ties by id ascending. */
  results(): Array<Array<{ id: string; score: number }>> {
    return this.queries.map((_, qi) => {
      const out = Array.from({ length: this.size[qi]! }, (_, h) => ({ id: this.heapId[qi]![h]!, score: this.heapScore[qi]![h]! }));
      return out.sort((a, b) => b.score - a.score || compareIds(a.id, b.id));
    });
  }

  /** Whether (sa, ida) ranks below (sb, idb): lower score, or the same score and a later id. */
  private static worse(sa: number, ida: string, sb: number, idb: string): boolean {
    return sa < sb || (sa === sb && compareIds(ida, idb) > 0);
  }

  private offer(qi: number, score: number, idOf: (r: number) => string, r: number): void {
    const hs = this.heapScore[qi]!;
    const hi = this.heapId[qi]!;
    const n = this.size[qi]!;
    if (n < this.k) {
      // sift up a new leaf (min-heap on "worse": the root is the worst kept row)
      let i = n;
      const id = idOf(r);
      while (i > 0) {
        const p = (i - 1) >> 1;
        if (!StreamingTopK.worse(score, id, hs[p]!, hi[p]!)) break;
        hs[i] = hs[p]!;
        hi[i] = hi[p]!;
        i = p;
      }
      hs[i] = score;
      hi[i] = id;
      this.size[qi] = n + 1;
      return;
    }
    if (score < hs[0]!) return; // fast path: the common case, no id needed
    const id = idOf(r);
    if (!StreamingTopK.worse(hs[0]!, hi[0]!, score, id)) return;
    let i = 0;
    for (;;) {
      const l = 2 * i + 1;
      if (l >= n) break;
      const rr = l + 1;
      const c = rr < n && StreamingTopK.worse(hs[rr]!, hi[rr]!, hs[l]!, hi[l]!) ? rr : l;
      if (!StreamingTopK.worse(hs[c]!, hi[c]!, score, id)) break;
      hs[i] = hs[c]!;
      hi[i] = hi[c]!;
      i = c;
    }
    hs[i] = score;
    hi[i] = id;
  }
}
