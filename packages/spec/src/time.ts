import { MemoryMatrixError } from './errors';

/**
 * Canonical instants (`MemoryRecord.createdAt`, `RecallQuery.now`): UTC, `Z`, with milliseconds
 * and optionally microseconds —
 *   `YYYY-MM-DDTHH:MM:SS.sssZ`      (the sub-millisecond part is zero)
 *   `YYYY-MM-DDTHH:MM:SS.ssssssZ`   (only when the last three digits are not `000`)
 * so every instant has exactly ONE spelling and an adapter can return it byte for byte (C01).
 * Years 0001–9999. Rejected with INVALID_INPUT, never normalized:
 * - a time-zone offset (`+02:00`, `-0500`): normalizing it to `Z` would make the memory read back
 *   different from what was written (C01 is byte-exact); the message gives the UTC spelling;
 * - `.123000Z` (write `.123Z`), fewer than 3 or more than 6 fractional digits, no fraction;
 * - a calendar-invalid date or time (`2024-02-30`, `24:00:00`).
 * PostgreSQL `timestamptz` keeps microseconds; Redis and Chroma store the string as given.
 */

/** An instant split at the millisecond: `ms` epoch milliseconds (integer), `us` 0..999 extra microseconds. */
export interface Instant {
  ms: number;
  us: number;
}

const CANONICAL = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})\.(\d{3})(\d{3})?Z$/;
const WITH_OFFSET = /^(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d+)?)([+-]\d{2}:?\d{2})$/;

/** Whether `s` is a canonical instant (see the module comment). Never throws. */
export function isCanonicalInstant(s: unknown): s is string {
  return typeof s === 'string' && tryParse(s) !== null;
}

/**
 * Parse a canonical instant. `where` names the thing and field (e.g. `upsert record m1 (index 3):
 * createdAt`) and leads the message. Throws INVALID_INPUT explaining what is wrong and, for an
 * offset, giving the UTC spelling to write instead.
 */
export function parseInstant(s: unknown, where: string): Instant {
  if (typeof s === 'string') {
    const p = tryParse(s);
    if (p) return p;
  }
  throw new MemoryMatrixError('INVALID_INPUT', `${where}: ${describeProblem(s)}`);
}

/** Whether `parseInstant` accepts `s` (no message built: the hot path of validating a valid record). */
export function isInstant(s: unknown): boolean {
  return typeof s === 'string' && tryParse(s) !== null;
}

/** The canonical spelling of `i` (inverse of `parseInstant`). Throws INVALID_INPUT outside years 0001–9999. */
export function formatInstant(i: Instant): string {
  if (!Number.isInteger(i.ms) || !Number.isInteger(i.us) || i.us < 0 || i.us > 999) {
    throw new MemoryMatrixError('INVALID_INPUT', `formatInstant: ms must be an integer and us an integer 0..999, got ${i.ms} / ${i.us}`);
  }
  const d = new Date(i.ms);
  const y = d.getUTCFullYear();
  if (Number.isNaN(d.getTime()) || y < 1 || y > 9999) throw new MemoryMatrixError('INVALID_INPUT', `formatInstant: ${i.ms} ms is outside years 0001-9999`);
  const iso = d.toISOString(); // YYYY-MM-DDTHH:MM:SS.sssZ for years 0000-9999
  return i.us === 0 ? iso : `${iso.slice(0, -1)}${String(i.us).padStart(3, '0')}Z`;
}

/** `i` shifted by `deltaMs` milliseconds (may be fractional; rounded to the microsecond). */
export function addMs(i: Instant, deltaMs: number): Instant {
  const totalUs = i.us + Math.round(deltaMs * 1000);
  const ms = i.ms + Math.floor(totalUs / 1000);
  return { ms, us: totalUs - Math.floor(totalUs / 1000) * 1000 };
}

/**
 * `a − b` in milliseconds as a float64: the whole-millisecond difference (exact) plus the
 * sub-millisecond difference (µs / 1000), so microsecond differences survive at any epoch.
 */
export function diffMs(a: Instant, b: Instant): number {
  return a.ms - b.ms + (a.us - b.us) / 1000;
}

/** Days in `month` (1–12) of proleptic Gregorian `year`. */
function daysInMonth(year: number, month: number): number {
  if (month === 2) return year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0) ? 29 : 28;
  return month === 4 || month === 6 || month === 9 || month === 11 ? 30 : 31;
}

/**
 * Days from 1970-01-01 to `year`-`month`-`day` (proleptic Gregorian; negative before 1970):
 * Howard Hinnant's `days_from_civil` ("chrono-Compatible Low-Level Date Algorithms",
 * howardhinnant.github.io/date_algorithms.html). Pure arithmetic: no `Date` object per record
 * (the validation of an upsert parses every createdAt).
 */
function daysFromCivil(year: number, month: number, day: number): number {
  const y = month <= 2 ? year - 1 : year;
  const era = Math.floor(y / 400);
  const yoe = y - era * 400;
  const doy = Math.floor((153 * (month > 2 ? month - 3 : month + 9) + 2) / 5) + day - 1;
  const doe = yoe * 365 + Math.floor(yoe / 4) - Math.floor(yoe / 100) + doy;
  return era * 146097 + doe - 719468;
}

function tryParse(s: string): Instant | null {
  const m = CANONICAL.exec(s);
  if (!m) return null;
  const [, y, mo, d, h, mi, sec, msPart, usPart] = m;
  if (usPart === '000') return null; // non-canonical spelling of a millisecond instant
  const year = Number(y);
  const month = Number(mo);
  const day = Number(d);
  const hour = Number(h);
  const minute = Number(mi);
  const second = Number(sec);
  // Calendar-invalid (Feb 30, 24:00, a 60th second …): no leap seconds, as in ECMAScript time values.
  if (year < 1 || month < 1 || month > 12 || day < 1 || day > daysInMonth(year, month) || hour > 23 || minute > 59 || second > 59) return null;
  const ms = ((daysFromCivil(year, month, day) * 24 + hour) * 60 + minute) * 60_000 + second * 1000 + Number(msPart);
  return { ms, us: usPart === undefined ? 0 : Number(usPart) };
}

function describeProblem(s: unknown): string {
  const shape = 'must be a UTC instant YYYY-MM-DDTHH:MM:SS.sssZ or, with microseconds, YYYY-MM-DDTHH:MM:SS.ssssssZ (years 0001-9999)';
  if (typeof s !== 'string') return `${shape}, got ${s === undefined ? 'nothing' : typeof s}`;
  const off = WITH_OFFSET.exec(s);
  if (off) {
    const utc = Date.parse(s);
    const hint = Number.isNaN(utc) ? '' : `; write the same instant as ${new Date(utc).toISOString()}`;
    return `${JSON.stringify(s)} has the time-zone offset ${off[2]}; instants are stored as written and compared byte for byte, so only UTC ("Z") is accepted, never normalized${hint}`;
  }
  const m = CANONICAL.exec(s);
  if (m && m[8] === '000') return `${JSON.stringify(s)} is not canonical: a zero microsecond part is written without it (${s.slice(0, 23)}Z)`;
  if (m) return `${JSON.stringify(s)} is not a real calendar date and time`;
  return `${shape}, got ${JSON.stringify(s)}`;
}
