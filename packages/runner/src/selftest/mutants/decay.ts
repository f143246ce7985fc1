import { needsCaps, type Mutant } from './proxy';

/**
 * Decay age in seconds instead of milliseconds. Public bug kind: "recency weighting does nothing"
 * — the memory's age computed in seconds (`EXTRACT(EPOCH FROM …)`, `Date.now() / 1000`) and
 * compared with a half-life in milliseconds (spec decay.ts: age and `halfLifeMs` both in ms), so
 * every memory looks 1000× younger. Equivalent, and injected as: the half-life multiplied by 1000.
 */
export const decayAgeSeconds: Mutant = {
  name: 'decay-age-seconds',
  family: 'decay',
  bug: 'time-decayed recall measures the age in seconds against a half-life in ms',
  requires: needsCaps('vectors', 'timeDecay'),
  fault: () => ({
    collection: (inner) => ({
      recall: (q) => inner.recall(q.decay ? { ...q, decay: { ...q.decay, halfLifeMs: q.decay.halfLifeMs * 1000 } } : q),
    }),
  }),
};

export const DECAY_MUTANTS: readonly Mutant[] = [decayAgeSeconds];
