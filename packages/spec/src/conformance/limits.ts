import { describeLimit, hostCalibration } from '../host';
import { MemoryMatrixError } from '../errors';
import { MAX_LIMIT_MS, MAX_LIMIT_TEXT, withinLimit } from '../timer';

/**
 * The time limits of one cell, ms before the host factor (host.ts; every limit is multiplied by
 * the factor measured when it starts):
 * - `setupTimeoutMs`: starting the target (its backend, versions and capabilities read);
 * - `loadTimeoutMs`: the golden load step — every golden memory written and the ANN index built
 *   (`LiveCell.loaded`), prepared before the first check and charged to no check;
 * - `checkTimeoutMs`: one check that declares no limit of its own, and each golden replay prepared
 *   before the checks. A check that declares `timeoutMs` keeps it, stretched in proportion when
 *   `checkTimeoutMs` is raised above `DEFAULT_CELL_LIMITS.checkTimeoutMs` (`checkLimitMs`).
 * Set per target by `limits:` in matrix/targets.yaml / memory-matrix.yaml (targets, or an
 * `adapters:` entry for every target of that driver) and for a run by `LIMIT_ENV`.
 */
export interface CellLimits {
  setupTimeoutMs: number;
  loadTimeoutMs: number;
  checkTimeoutMs: number;
}

/**
 * The limits a cell has when nothing sets them, ms: setup 120 s (as before this file); load 900 s
 * (the agent-memories set of 5,111 memories through a layer that writes a few per second: issue 35
 * measured several minutes); a check 300 s (as before this file).
 */
export const DEFAULT_CELL_LIMITS: Readonly<CellLimits> = { setupTimeoutMs: 120_000, loadTimeoutMs: 900_000, checkTimeoutMs: 300_000 };

/** The environment variable that sets each limit for a run (every target), ms, over the catalog's. */
export const LIMIT_ENV: Readonly<Record<keyof CellLimits, string>> = {
  setupTimeoutMs: 'MM_SETUP_TIMEOUT_MS',
  loadTimeoutMs: 'MM_LOAD_TIMEOUT_MS',
  checkTimeoutMs: 'MM_CHECK_TIMEOUT_MS',
};

/** A limit as written: a positive integer of ms in decimal digits, no sign, space, exponent or leading zero. */
const LIMIT_TEXT = /^[1-9][0-9]*$/;

/**
 * The limits `LIMIT_ENV` sets for this run (unset or empty variables are absent). Throws USAGE
 * naming every malformed variable and its value as given (one line each): a value that is not a
 * positive integer of ms written in digits (`LIMIT_TEXT`: `" 100"`, `"1e3"`, `"100.0"` are refused),
 * or one above `MAX_LIMIT_MS` (timer.ts: the longest delay Node's timers hold).
 */
export function limitOverrides(env: NodeJS.ProcessEnv = process.env): Partial<CellLimits> {
  const out: Partial<CellLimits> = {};
  const bad: string[] = [];
  for (const [field, name] of Object.entries(LIMIT_ENV) as Array<[keyof CellLimits, string]>) {
    const v = env[name];
    if (v === undefined || v === '') continue;
    const n = Number(v);
    if (!LIMIT_TEXT.test(v)) bad.push(`${name} "${v}": expected a positive integer of milliseconds in digits (the ${field} of every target of the run), e.g. ${name}=1800000`);
    else if (n > MAX_LIMIT_MS) bad.push(`${name} "${v}": above the maximum, ${MAX_LIMIT_TEXT}`);
    else out[field] = n;
  }
  if (bad.length) throw new MemoryMatrixError('USAGE', bad.join('\n'));
  return out;
}

/**
 * A cell's limits: `DEFAULT_CELL_LIMITS`, then each of `layers` in order (a later layer's field
 * wins: driver defaults, then the target's `limits:`), then `limitOverrides()` (the run's
 * environment). Throws USAGE for a malformed `LIMIT_ENV` variable.
 */
export function resolveLimits(...layers: Array<Partial<CellLimits> | undefined>): CellLimits {
  const out: CellLimits = { ...DEFAULT_CELL_LIMITS };
  for (const l of [...layers, limitOverrides()]) for (const [k, v] of Object.entries(l ?? {})) if (v !== undefined) out[k as keyof CellLimits] = v;
  return out;
}

/**
 * The limit of `check` in a cell with limits `limits`, ms before the host factor: `checkTimeoutMs`
 * for a check that declares none; a declared `timeoutMs` as is, or × checkTimeoutMs / 300000 when
 * the cell's check limit is raised above the default (a slow target is slow in every check).
 */
export function checkLimitMs(check: { timeoutMs?: number }, limits: Pick<CellLimits, 'checkTimeoutMs'>): number {
  if (check.timeoutMs === undefined) return limits.checkTimeoutMs;
  return Math.round(check.timeoutMs * Math.max(1, limits.checkTimeoutMs / DEFAULT_CELL_LIMITS.checkTimeoutMs));
}

/** `raise it with limits.loadTimeoutMs of the target (…) or MM_LOAD_TIMEOUT_MS=<ms> for a run`: how to raise one limit, for messages. */
export function howToRaise(field: keyof CellLimits): string {
  return `raise it with limits.${field} of the target (matrix/targets.yaml or memory-matrix.yaml) or ${LIMIT_ENV[field]}=<ms> for the run`;
}

/**
 * `<what> exceeded 300000 ms × host factor 1.4 = 420000 ms (while <step>); raise it with …`: the
 * message of a limit that ran out, naming what was running, the limit, the host factor and how to
 * raise it.
 */
export function limitMessage(what: string, baseMs: number, factor: number, field: keyof CellLimits, step?: string): string {
  return `${what} exceeded ${describeLimit(baseMs, factor)}${step ? ` (while ${step})` : ''}; ${howToRaise(field)}`;
}

/**
 * Run `fn` within `baseMs` × `factor` (default: the current host factor; the product is clamped to
 * `MAX_LIMIT_MS` by timer.ts). Resolves with its value, or rejects with its error; past the limit —
 * or when it returns after it without yielding (timer.ts `withinLimit`) — rejects with
 * `onLimit(factor)`'s error (the caller names what ran: code TIMEOUT). `fn` is not stopped (the
 * caller may tell it to stop); its later rejection is handled. The timer never keeps the process alive.
 */
export function runWithin<T>(fn: () => Promise<T>, baseMs: number, onLimit: (factor: number) => Error, factor = hostCalibration().factor): Promise<T> {
  return withinLimit(fn, baseMs * factor, () => onLimit(factor));
}
