import { existsSync } from 'node:fs';
import path from 'node:path';
import { didYouMean, MemoryMatrixError } from '@memory-matrix/spec';

/**
 * The time zone every process of a run works in (the runner, its embedded cells' child processes,
 * selftest workers, store processes, local servers — they inherit `TZ`): Australia/Adelaide,
 * UTC+09:30 (ACST) and, from the first Sunday of October to the first Sunday of April, UTC+10:30
 * (ACDT) — a non-whole-hour offset with a DST change (IANA tz database, australasia file; on this
 * host `zdump -v /usr/share/zoneinfo/Australia/Adelaide`: 2024-10-05T16:30Z 01:59:59 ACST →
 * 03:00:00 ACDT). Why not UTC: in UTC a store that reads a `createdAt` as local time (the
 * local-time `Date` constructor, SQLite's `'localtime'`, a `timestamp` column read in the session
 * zone) computes the right instant by luck; here it is off by 9.5 or 10.5 h, and C24 fails at
 * once (selftest mutant `local-time-createdAt`). Containers keep their own zone (UTC).
 */
export const MATRIX_TIME_ZONE = 'Australia/Adelaide';

/** The environment variable that replaces `MATRIX_TIME_ZONE` (an IANA name, e.g. `UTC` to show what a UTC run misses). */
export const TIME_ZONE_ENV = 'MM_TIME_ZONE';

/**
 * Set `TZ` in `env` (default `process.env`: Node applies it to `Date` and calls tzset(), so the C
 * libraries of this process — SQLite's `localtime` — follow; the processes it starts inherit it)
 * to `MM_TIME_ZONE` or else `MATRIX_TIME_ZONE`, and return the zone. Both ICU (Node's `Intl`,
 * `Date`) and the C library (the zoneinfo file under `TZDIR` or /usr/share/zoneinfo) must know the
 * name: a C library without the file falls back to UTC without a word, and ICU ignores POSIX
 * strings such as `ACST-9:30ACDT,M10.1.0,M4.1.0/3`, so both are checked. Throws USAGE naming
 * `MM_TIME_ZONE` and the zone when either does not resolve it (install the tzdata package), with a
 * "did you mean" when ICU knows the zone under another spelling the C library has (`utc` → `UTC`,
 * `australia/adelaide`: ICU is case-insensitive, zone files are not) or, for a name ICU does not
 * know, the closest IANA names (`Australia/Adelaid`).
 */
export function useMatrixTimeZone(env: NodeJS.ProcessEnv = process.env): string {
  const given = env[TIME_ZONE_ENV];
  const zone = given === undefined || given === '' ? MATRIX_TIME_ZONE : given;
  const from = given ? `${TIME_ZONE_ENV}="${given}"` : `the matrix's time zone ${zone} (time-zone.ts)`;
  let canonical: string;
  try {
    canonical = new Intl.DateTimeFormat('en', { timeZone: zone }).resolvedOptions().timeZone;
  } catch {
    const hint = didYouMean(zone, Intl.supportedValuesOf('timeZone'), (z) => `${TIME_ZONE_ENV}=${z}`);
    throw new MemoryMatrixError('USAGE', `${from}: not a time zone Node's ICU knows; ${hint ? `${hint} ` : ''}give an IANA name such as Australia/Adelaide or UTC`);
  }
  const dir = env.TZDIR || '/usr/share/zoneinfo';
  const hasFile = (z: string): boolean => z === 'UTC' || process.platform === 'win32' || existsSync(path.join(dir, z));
  if (!hasFile(zone)) {
    // ICU reads names case-insensitively (`utc`, `australia/adelaide`), the C library does not: name ICU's spelling when the C library has it.
    const hint =
      canonical !== zone && hasFile(canonical)
        ? `did you mean ${TIME_ZONE_ENV}=${canonical}? (${canonical.toLowerCase() === zone.toLowerCase() ? "the C library's zone names are case-sensitive" : `ICU's name of ${zone}`}); else `
        : '';
    throw new MemoryMatrixError('USAGE', `${from}: the C library has no zone file ${path.join(dir, zone)} (SQLite's localtime would run in UTC); ${hint}install the tzdata package or set TZDIR`);
  }
  env.TZ = zone;
  return zone;
}

/** The zone a run's processes worked in (report.json `host.timeZone`): its IANA name and its UTC offsets over the year, e.g. `['+09:30', '+10:30']`. */
export interface RunTimeZone {
  name: string;
  offsets: string[];
}

/**
 * `zone` (an IANA name Node's ICU knows; RangeError otherwise) with its distinct UTC offsets on the
 * 1st of each month of the year of `at` (default now), from ICU, in ascending order:
 * `['+09:30', '+10:30']` for Australia/Adelaide, `['+00:00']` for UTC.
 */
export function runTimeZone(zone: string, at: Date = new Date()): RunTimeZone {
  const fmt = new Intl.DateTimeFormat('en', { timeZone: zone, timeZoneName: 'longOffset' });
  const offsets = new Map<number, string>();
  for (let m = 0; m < 12; m++) {
    const name = fmt.formatToParts(new Date(Date.UTC(at.getUTCFullYear(), m, 1))).find((p) => p.type === 'timeZoneName')?.value ?? 'GMT';
    const off = name === 'GMT' ? '+00:00' : name.slice(3); // 'GMT+09:30' → '+09:30'
    offsets.set((off.startsWith('-') ? -1 : 1) * (Number(off.slice(1, 3)) * 60 + Number(off.slice(4, 6))), off);
  }
  return { name: zone, offsets: [...offsets.entries()].sort((a, b) => a[0] - b[0]).map(([, o]) => o) };
}

/** `runTimeZone` of the zone this process resolved (`TZ` as Node's ICU applied it). */
export function currentTimeZone(): RunTimeZone {
  return runTimeZone(Intl.DateTimeFormat().resolvedOptions().timeZone);
}

/** The USAGE error `useMatrixTimeZone` threw when the CLI started (`deferMatrixTimeZone`), until the command reports it. */
let deferred: Error | undefined;

/**
 * The CLI's `useMatrixTimeZone` as it starts: set `TZ` as that does, but keep a bad zone's USAGE
 * error for the command to report (`throwDeferredTimeZone`) instead of throwing it here, so that a
 * bad `MM_TIME_ZONE` stops a run as a bad `MM_HOST_FACTOR` does: the run takes its report dir's
 * lock, records the USAGE error in report.json / report.md and exits 2, before anything starts.
 * Throws nothing; returns the zone, or undefined when it is bad (`TZ` then untouched).
 */
export function deferMatrixTimeZone(env: NodeJS.ProcessEnv = process.env): string | undefined {
  deferred = undefined;
  try {
    return useMatrixTimeZone(env);
  } catch (e) {
    deferred = e as Error;
    return undefined;
  }
}

/** Throw the USAGE error of a bad zone `deferMatrixTimeZone` kept (run.ts: where the host factor is read; every other command: before its action). */
export function throwDeferredTimeZone(): void {
  if (deferred) throw deferred;
}

/** `currentTimeZone`, after `throwDeferredTimeZone`: the zone a run records in report.json `host.timeZone`. Throws the kept USAGE error of a bad `MM_TIME_ZONE`. */
export function checkedTimeZone(): RunTimeZone {
  throwDeferredTimeZone();
  return currentTimeZone();
}
