/**
 * Filter matching and exact cosine scores, used by the builder to state each query's selectivity
 * and to place minScore thresholds in wide gaps. Same semantics as RecallFilter in
 * packages/spec/src/types.ts: all parts AND; namespaces/kinds IN; metadata equal in type and value.
 */

/** True when the row satisfies every part of `filter`. */
export function matches(row, filter) {
  if (!filter) return true;
  if (filter.namespaces && !filter.namespaces.includes(row.namespace)) return false;
  if (filter.kinds && !filter.kinds.includes(row.kind)) return false;
  if (filter.metadata) {
    for (const [k, v] of Object.entries(filter.metadata)) {
      if (!Object.prototype.hasOwnProperty.call(row.metadata, k) || row.metadata[k] !== v) return false;
    }
  }
  return true;
}

/** Cosine of two Float32Arrays, accumulated in float64: a·b / (‖a‖‖b‖). */
export function cosine(a, b) {
  let dot = 0;
  let na = 0;
  let nb = 0;
  for (let i = 0; i < a.length; i += 1) {
    dot += a[i] * b[i];
    na += a[i] * a[i];
    nb += b[i] * b[i];
  }
  return dot / (Math.sqrt(na) * Math.sqrt(nb));
}

/** Scores of the rows matching `filter`, highest first. */
export function sortedScores(rows, vector, filter) {
  return rows
    .filter((r) => matches(r, filter))
    .map((r) => cosine(r.vector, vector))
    .sort((x, y) => y - x);
}

/**
 * A threshold that keeps at least `want` rows and sits in the middle of a gap of at least
 * `minGap` between two neighbouring scores, rounded to 6 decimals. Returns `{ minScore, kept }`
 * or null when no such gap exists.
 */
export function thresholdInGap(scores, want, minGap) {
  for (let r = Math.max(1, want); r < scores.length; r += 1) {
    const hi = scores[r - 1];
    const lo = scores[r];
    if (hi - lo >= minGap) return { minScore: Math.round(((hi + lo) / 2) * 1e6) / 1e6, kept: r };
  }
  return null;
}

/** "52 of 5,111 (1.02 %)" */
export function share(m, n) {
  return `${m} of ${n} rows (${((100 * m) / n).toFixed(2)} %)`;
}
