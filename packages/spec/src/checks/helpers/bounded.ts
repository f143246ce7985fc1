import { MemoryMatrixError } from '../../errors';
import { yieldToEventLoop } from '../../yield';

/**
 * Read-only recalls C02, C07, C16 and the C15 audit keep in flight at once through the one client they use.
 * Measured on pgvector@pg17 (pool of 4 connections), C02's 2 × 200 recalls, sequential vs bounded
 * interleaved in one run at load ~17 on 2 cores: limit 1 → 55.9 s / 27.9 s, 4 → 22.8 s, 8 → 24.1 s
 * / 20.0 s, 16 → 15.6 s; the 353-query golden replay ×2 modes: 1 → 46.9 s / 60.0 s, 8 → 33.2 s /
 * 38.6 s (×1.4–1.6). redis@8.0 (ioredis pipelines one connection), same runs: C02 1 → 4.6 s / 3.8 s,
 * 8 → 1.4 s / 2.3 s (×1.6–3.4); replay 1 → 13.0 s / 12.3 s, 8 → 8.7 s / 5.6 s (×1.5–2.2).
 * PGlite (in process, one engine) gains nothing and loses nothing (1 → 30.2 s,
 * 8 → 28.3 s). 8 keeps every pooled connection busy without queueing much more than a pool holds.
 */
export const RECALLS_IN_FLIGHT = 8;

/**
 * `fn` over every item with at most `limit` calls in flight at once (integer ≥ 1), results in the
 * order of `items` (never in completion order), so a check that uses it reports exactly what the
 * sequential loop reported. Rejects with the first rejection of `fn` once the calls already in
 * flight have ended (no call starts after a rejection); never swallows an error.
 * For read-only calls on a collection that does not change while they run (recalls of the shared
 * golden collection): each answer depends on the stored rows and the query only, not on what else
 * is in flight; what concurrency itself does to a store is C22's subject.
 */
export async function mapBounded<T, R>(items: readonly T[], limit: number, fn: (item: T, index: number) => Promise<R>): Promise<R[]> {
  if (!Number.isInteger(limit) || limit < 1) throw new MemoryMatrixError('INVALID_INPUT', `mapBounded: limit must be an integer >= 1, got ${limit}`);
  const out = new Array<R>(items.length);
  let next = 0;
  let failed: { error: unknown } | undefined;
  const lane = async (): Promise<void> => {
    while (failed === undefined && next < items.length) {
      const i = next++;
      try {
        out[i] = await fn(items[i]!, i);
        await yieldToEventLoop(); // in-process engines: let signals and timers in (yield.ts)
      } catch (error) {
        failed ??= { error };
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, lane));
  if (failed) throw failed.error;
  return out;
}
