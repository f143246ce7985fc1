import type { RecallHit } from '../../types';

/** One pair of neighbouring hits with exactly equal scores in descending id order (`rank`: the 1-based rank of the second). */
export interface TieOrderViolation {
  rank: number;
  score: number;
  /** Id at `rank − 1`. */
  before: string;
  /** Id at `rank`, which sorts before `before`. */
  id: string;
}

/**
 * The contract's tie-break (adapter.ts `recall`): hits with exactly equal canonical scores come in
 * ascending id order. Every neighbouring pair of `hits` that breaks it; empty when none. Only
 * exactly equal scores are judged: scores that differ by an ulp are ordered by score.
 */
export function tieOrderViolations(hits: readonly RecallHit[]): TieOrderViolation[] {
  const out: TieOrderViolation[] = [];
  for (let i = 1; i < hits.length; i++) {
    const a = hits[i - 1]!;
    const b = hits[i]!;
    if (a.score === b.score && b.id < a.id) out.push({ rank: i + 1, score: b.score, before: a.id, id: b.id });
  }
  return out;
}
