import { addMs, formatInstant, isCanonicalInstant, MAX_RECALL_K, parseInstant, rerankWithDecay, type DecayCandidate, type MemoryCollection } from '@memory-matrix/spec';
import { needsCaps, type Mutant } from './proxy';

/**
 * `createdAt` as a wall-clock reading of the process's zone: the instant whose local-time
 * components (the local-time `Date` constructor) are the UTC components of `createdAt`, the
 * microseconds kept. In UTC it is `createdAt` itself; in Australia/Adelaide (time-zone.ts) it is
 * 9.5 h earlier (10.5 h in summer). Outside years 0001–9999 the instant is kept as written.
 */
export function localTimeInstant(createdAt: string): string {
  const t = parseInstant(createdAt, 'local-time-created-at: createdAt');
  const d = new Date(t.ms);
  const local = new Date(2000, d.getUTCMonth(), d.getUTCDate(), d.getUTCHours(), d.getUTCMinutes(), d.getUTCSeconds(), d.getUTCMilliseconds());
  local.setFullYear(d.getUTCFullYear()); // the constructor maps years 0–99 to 1900–1999
  const y = local.getUTCFullYear();
  if (!(y >= 1 && y <= 9999)) return createdAt;
  const iso = local.toISOString(); // YYYY-MM-DDTHH:MM:SS.sssZ; the canonical spelling (spec time.ts) adds µs only when not zero
  return t.us === 0 ? iso : `${iso.slice(0, -1)}${String(t.us).padStart(3, '0')}Z`;
}

/**
 * `createdAt` turned into epoch milliseconds in local time. Public bug kind: a store that keeps
 * the ISO string for reading back but computes the memory's age from a local-time parse of it
 * (`new Date(y, m, d, h, …)` from its parts, `Date.parse` of the string stripped of its `Z`, a
 * `timestamp` column read in the session zone). Every process the matrix started used to run in
 * UTC, where this is right by luck; in a zone with an offset every memory's age is off by the
 * offset, and time-decayed recall ranks on the wrong ages (C24). Injected as: a recall with
 * `decay` and a canonical `now` is answered the way spec decay-rerank.ts answers it for Chroma and
 * Redis — candidates by similarity from the store's own recall without decay (at most
 * MAX_RECALL_K), their `createdAt` from its `get`, re-ranked by `rerankWithDecay` — except that
 * each age is taken from `localTimeInstant(createdAt)`. Nothing is written differently and every
 * other call (a decayed recall without a valid `now` included: the store rejects it) is the store's.
 */
export const localTimeCreatedAt: Mutant = {
  name: 'local-time-created-at',
  family: 'local-time',
  bug: "the store turns createdAt into epoch ms as local time (right only when the process's zone is UTC)",
  requires: needsCaps('vectors', 'timeDecay'),
  fault: () => ({ collection: (inner: MemoryCollection) => ({ recall: decayedRecallWith(inner, 'local-time-created-at', (now) => now, localTimeInstant) }) }),
};

/**
 * Instant `i` as the local wall clock reads it, taken for UTC: `i` plus this process's UTC offset at
 * `i` (what a `timestamp without time zone` column in the session zone holds).
 */
export function wallClock(i: string): string {
  const t = parseInstant(i, 'wall-clock-age: instant');
  return formatInstant(addMs(t, -new Date(t.ms).getTimezoneOffset() * 60_000));
}

/**
 * Ages from local wall-clock readings. Public bug kind: a store that keeps `created_at` as
 * `timestamp without time zone` in the session's zone and computes an age as `now()::timestamp −
 * created_at` (or subtracts naive `datetime`s): right whenever both readings share one UTC offset,
 * and an hour off when a DST change lies between them. Injected as `local-time-created-at` is
 * (decay-rerank.ts over the store's own recall and get), with every `createdAt` AND the `now`
 * replaced by `wallClock` of themselves. Escapes every C24 instant but the DST pass's: caught only
 * where the run's zone changes its offset (Australia/Adelaide, not UTC).
 */
export const wallClockAge: Mutant = {
  name: 'wall-clock-age',
  family: 'local-time',
  bug: 'ages computed from local wall-clock readings (timestamp without time zone): an hour off across a DST change',
  requires: needsCaps('vectors', 'timeDecay'),
  fault: () => ({ collection: (inner: MemoryCollection) => ({ recall: decayedRecallWith(inner, 'wall-clock-age', wallClock, wallClock) }) }),
};

/**
 * A decayed recall answered as spec decay-rerank.ts answers it for Chroma and Redis (candidates by
 * similarity from `inner`'s recall without decay, at most MAX_RECALL_K, `createdAt` from its `get`,
 * re-ranked by `rerankWithDecay`), with `now` read through `nowAs` and each `createdAt` through
 * `createdAs` (canonical instants in, canonical instants out). A recall without decay or without a
 * canonical `now` is `inner`'s own. `where` names the mutant in rerank errors.
 */
function decayedRecallWith(inner: MemoryCollection, where: string, nowAs: (now: string) => string, createdAs: (createdAt: string) => string): MemoryCollection['recall'] {
  return async (q) => {
    if (!q.decay || !isCanonicalInstant(q.now)) return inner.recall(q);
    const now = parseInstant(nowAs(q.now), `${where}: now`);
    const total = await inner.count(q.filter);
    const fetch = async (n: number): Promise<DecayCandidate[]> => {
      const hits = await inner.recall({ vector: q.vector, k: Math.min(n, MAX_RECALL_K), filter: q.filter, scan: q.scan });
      const at = new Map((await inner.get(hits.map((h) => h.id))).map((r) => [r.id, r.createdAt]));
      return hits.map((h) => ({ id: h.id, score: h.score, createdAt: createdAs(at.get(h.id) ?? '') }));
    };
    return (await rerankWithDecay({ now, decay: q.decay }, { k: q.k, minScore: q.minScore, total, where }, fetch)).hits;
  };
}

export const LOCAL_TIME_MUTANTS: readonly Mutant[] = [localTimeCreatedAt, wallClockAge];
