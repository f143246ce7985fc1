/**
 * Per-target tolerances, declared in the matrix catalog.
 * - `scoreTolerance`: max |canonical − oracle| allowed (absolute). float32 storage: 1e-5
 *   (float32 has a 2^-24 ≈ 6e-8 relative epsilon; a backend accumulating a 384-term dot product
 *   in float, so the error grows to ~1e-6; 1e-5 leaves a margin of 10).
 * - `tieEpsilon`: neighbouring scores within this are one tie group (same reasoning as above).
 *   Both figures hold at unit magnitude (unit-length vectors, ≤ 384 components); every comparison
 *   scales them per (query, memory) pair by dimension and norms (tolerance.ts, `pairTolerance`).
 * - `annRecallFloor`: minimum recall@k of an ANN scan against the oracle, per cell average.
 * - `annRecallFloorPerQuery`: minimum recall@k for any single query.
 * - `annShortfallMax`: on the ANN index path under a filter, the largest fraction of the min(k, M)
 *   rows that may be missing (per selectivity × k point of C04). 0 by default: a target that
 *   post-filters its index declares its measured margin in matrix/targets.yaml, with the reason.
 *   The exact path never has a margin.
 * - `faultClientTimeoutMs` (optional): the client-side request/query timeout, in ms, of the
 *   faulted client in C23, for a target whose ordinary requests take longer than C23's default
 *   (1.5 s): it must exceed the slowest unfaulted request of the check, so that only the fault
 *   ends a call. Absent = C23's default.
 * - `embeddingReadback` (optional): for a target that can only read back the store's OWN copy of
 *   an embedding after arithmetic on it (Chroma normalises cosine vectors and scales them back;
 *   a client library with no way to keep the written bytes), the largest relative difference per
 *   component, |written − read| ≤ tolerance · max(|written|, |read|), that a read-back embedding
 *   may have (C01, C11, C15, C16, C21, C22, C23, C27 compare records with it). Absent = bit-exact,
 *   which every store that keeps the written float32 must meet.
 */
export interface Tolerances {
  scoreTolerance: number;
  tieEpsilon: number;
  annRecallFloor: number;
  annRecallFloorPerQuery: number;
  annShortfallMax: number;
  faultClientTimeoutMs?: number;
  embeddingReadback?: number;
}

export const DEFAULT_TOLERANCES: Tolerances = {
  scoreTolerance: 1e-5,
  tieEpsilon: 1e-5,
  annRecallFloor: 0.95,
  annRecallFloorPerQuery: 0.5,
  annShortfallMax: 0,
};
