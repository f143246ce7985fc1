import { compareIds } from './oracle';
import { decayedScore, type DecayRequest } from './decay';
import { parseInstant } from './time';
import type { RecallHit } from './types';

/**
 * Time decay for adapters whose backend cannot compute it server-side (Redis Vector Sets,
 * Chroma): fetch the top candidates by canonical similarity, re-rank them by the decayed score
 * (decay.ts), and grow the candidate set until the result is provably the exact decayed top-k.
 *
 * Oversampling: the first fetch asks for max(k × DECAY_OVERSAMPLE, DECAY_MIN_CANDIDATES)
 * candidates; each further round multiplies that by DECAY_OVERSAMPLE, up to every memory.
 * Why it stops exactly: a factor is in (0, 1], so a memory outside the candidates (similarity
 * s ≤ s_min, the smallest candidate similarity) scores at most max(s_min, 0) after decay. Once the
 * k-th decayed candidate scores strictly above that bound, no memory outside can enter the top-k
 * (nor tie with it). Otherwise the next round fetches more; when the fetch returns fewer
 * candidates than asked (a filter, or the whole collection) every qualifying memory was seen.
 * So the re-rank is exact whenever `fetch` is (an exact scan); over an ANN fetch it inherits the
 * index's recall. Cost: strong decay (small half-life, old memories) pushes scores down and the
 * candidate set towards the whole collection.
 */

/** Oversampling factor per round, and the smallest first fetch. */
export const DECAY_OVERSAMPLE = 4;
export const DECAY_MIN_CANDIDATES = 64;

/** One candidate: canonical similarity and the memory's stored `createdAt` (canonical instant). */
export interface DecayCandidate {
  id: string;
  score: number;
  createdAt: string;
}

/** What `rerankWithDecay` returns: the top-k, plus how many candidates and rounds it took. */
export interface DecayRerank {
  hits: RecallHit[];
  candidates: number;
  rounds: number;
}

/**
 * The exact decayed top-k over what `fetch(n)` returns (see the module comment).
 * - `fetch(n)`: the top-n memories by canonical similarity under the query's filter (any order;
 *   fewer than n only when fewer qualify), with their stored `createdAt`.
 * - `total`: how many memories the collection holds (the largest useful n).
 * - `k`, `minScore`: as in `RecallQuery`; `minScore` applies to the decayed score.
 * Hits are ordered by decayed score descending, then id ascending. `where` names the adapter and
 * collection for errors: INVALID_INPUT when a stored `createdAt` is not canonical.
 */
export async function rerankWithDecay(req: DecayRequest, opts: { k: number; minScore?: number; total: number; where: string }, fetch: (n: number) => Promise<DecayCandidate[]>): Promise<DecayRerank> {
  const { k, total } = opts;
  let n = Math.min(total, Math.max(k * DECAY_OVERSAMPLE, DECAY_MIN_CANDIDATES));
  for (let round = 1; ; round++) {
    const cands = n > 0 ? await fetch(n) : [];
    const scored = cands.map((c) => ({
      id: c.id,
      sim: c.score,
      score: decayedScore(c.score, parseInstant(c.createdAt, `${opts.where}: stored createdAt of ${c.id}`), req.now, req.decay),
    }));
    scored.sort((a, b) => b.score - a.score || compareIds(a.id, b.id));
    const top = scored.slice(0, k);
    const exhausted = cands.length < n || n >= total;
    const minSim = Math.min(...scored.map((c) => c.sim));
    const proven = top.length === k && top[k - 1]!.score > Math.max(minSim, 0);
    if (exhausted || proven) {
      const hits = top.map(({ id, score }) => ({ id, score }));
      return { hits: opts.minScore === undefined ? hits : hits.filter((h) => h.score >= opts.minScore!), candidates: cands.length, rounds: round };
    }
    n = Math.min(total, n * DECAY_OVERSAMPLE);
  }
}
