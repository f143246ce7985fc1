import { parseInstant, type MemoryCollection, type MemoryRecord } from '@memory-matrix/spec';
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
 * (`new Date(y, m, d, h, …)` from its parts, `Date.parse` of the string stripped of its `Z`,
 * SQLite `strftime('%s', createdAt, 'utc')` on a value already UTC, a `timestamp` column read in
 * the session zone). Every process the matrix started used to run in UTC, where this is right by
 * luck; in a zone with an offset every memory's age is off by the offset, and time-decayed recall
 * ranks on the wrong ages (C24). Injected as: every upserted record is written with
 * `localTimeInstant(createdAt)`, and `get` / `scan` give back the `createdAt` that was written for
 * that id (the string reads back byte for byte; only the instant the store computes with is wrong).
 */
export const localTimeCreatedAt: Mutant = {
  name: 'local-time-created-at',
  family: 'local-time',
  bug: "the store turns createdAt into epoch ms as local time (right only when the process's zone is UTC)",
  requires: needsCaps('vectors', 'timeDecay'),
  fault: () => ({
    collection: (inner: MemoryCollection) => {
      const written = new Map<string, { stored: string; given: string }>(); // id → the shifted and the given createdAt
      const restore = (rs: MemoryRecord[]): MemoryRecord[] =>
        rs.map((r) => {
          const w = written.get(r.id);
          return w && w.stored === r.createdAt ? { ...r, createdAt: w.given } : r;
        });
      const over: Partial<MemoryCollection> = {
        upsert: (records) =>
          inner.upsert(
            records.map((r) => {
              const stored = localTimeInstant(r.createdAt);
              written.set(r.id, { stored, given: r.createdAt });
              return { ...r, createdAt: stored };
            }),
          ),
        get: async (ids) => restore(await inner.get(ids)),
      };
      const scan = inner.scan?.bind(inner);
      if (scan) over.scan = async (opts) => restore(await scan(opts));
      return over;
    },
  }),
};

export const LOCAL_TIME_MUTANTS: readonly Mutant[] = [localTimeCreatedAt];
