import { MemoryMatrixError } from '@memory-matrix/spec';

/**
 * A counting semaphore: at most `limit` holders at once, FIFO for waiters. Used to bound how many
 * containers start in parallel (a 2-CPU CI machine slows every start when too many boot at once).
 */
export class Semaphore {
  private active = 0;
  private readonly waiters: Array<() => void> = [];

  /** `limit` ≥ 1 concurrent holders. */
  constructor(readonly limit: number) {
    if (!Number.isInteger(limit) || limit < 1) throw new RangeError(`Semaphore limit must be an integer ≥ 1, got ${limit}`);
  }

  /** Runs `fn` once a slot is free and releases the slot when it settles (resolves or rejects). */
  async run<T>(fn: () => Promise<T>): Promise<T> {
    if (this.active >= this.limit) await new Promise<void>((resolve) => this.waiters.push(resolve));
    else this.active++;
    try {
      return await fn();
    } finally {
      const next = this.waiters.shift();
      if (next)
        next(); // hand the slot over directly: `active` stays the same
      else this.active--;
    }
  }

  /** Holders right now (for tests and diagnostics). */
  get inUse(): number {
    return this.active;
  }
}

/** Parallel container starts allowed: `MM_START_PARALLEL` (integer ≥ 1), default 2. Throws USAGE naming the variable for any other value (it was ignored: a typo went unnoticed). */
export function startParallelism(): number {
  const v = process.env.MM_START_PARALLEL;
  if (v === undefined || v === '') return 2;
  const n = Number(v);
  if (!Number.isInteger(n) || n < 1) throw new MemoryMatrixError('USAGE', `MM_START_PARALLEL "${v}": expected an integer ≥ 1 (container starts at once), e.g. MM_START_PARALLEL=2`);
  return n;
}
