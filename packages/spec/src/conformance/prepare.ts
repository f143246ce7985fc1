import { MemoryMatrixError } from '../errors';
import type { Capabilities } from '../capabilities';
import type { DatasetFit } from './fit';
import type { CellFixture, ScanMode } from './types';

/** What `prepareFixtures` uses of a cell (a `LiveCell`; declared here so that cell.ts can import this module). */
export interface FixtureHost {
  readonly target: string;
  readonly config: { readonly capabilities: Pick<Capabilities, 'exactScan'> };
  readonly fit: Pick<DatasetFit, 'indexPath'>;
  /** The golden collection, loaded (and indexed) once. */
  loaded(): Promise<unknown>;
  /** The golden replay on one scan path. */
  queryRuns(scan: ScanMode): Promise<unknown>;
}

/**
 * Prepare a cell's shared `fixtures` (`CheckDefinition.fixtures`) in order golden collection →
 * exact replay → index replay (the exact one only on a target with `exactScan`; the index one not
 * when the cell built no index for a dataset wider than `maxIndexDim` and can scan exactly), each within
 * `limitMs`: what registerConformance runs before the first check, so every check reads the same
 * fixtures whatever checks ran before it, and none pays for them inside its own time limit. A
 * fixture that fails stays failed for every check that reads it (the cell caches the rejected
 * promise); one that exceeds `limitMs` is replaced through `fail` by a rejection with code
 * `TIMEOUT` naming it. The later fixtures are then not started. Never throws.
 */
export async function prepareFixtures(cell: FixtureHost, fixtures: readonly CellFixture[], limitMs: number, fail: (f: CellFixture, err: Promise<never>) => void): Promise<void> {
  const want = new Set(fixtures);
  const steps: Array<[CellFixture, string, () => Promise<unknown>]> = [];
  if (want.size) steps.push(['golden', 'the golden load and index build', () => cell.loaded()]);
  if (want.has('exact-replay') && cell.config.capabilities.exactScan) steps.push(['exact-replay', 'the golden replay on the exact path', () => cell.queryRuns('exact')]);
  // Above maxIndexDim a target with an exact scan has no index path to replay (LiveCell.scanModes).
  if (want.has('index-replay') && !(cell.fit.indexPath && cell.config.capabilities.exactScan)) steps.push(['index-replay', 'the golden replay on the index path', () => cell.queryRuns('index')]);
  for (const [fixture, what, run] of steps) {
    let timer: NodeJS.Timeout | undefined;
    const limit = new Promise<'timeout'>((resolve) => {
      timer = setTimeout(() => resolve('timeout'), limitMs);
      timer.unref();
    });
    try {
      if ((await Promise.race([run(), limit])) !== 'timeout') continue;
      const err = Promise.reject(new MemoryMatrixError('TIMEOUT', `${cell.target}: ${what} exceeded ${limitMs} ms (prepared before the checks)`));
      err.catch(() => undefined); // handled: every check that reads the fixture awaits it and reports it
      fail(fixture, err);
      return;
    } catch {
      return; // the cell's cached promise carries the error to every check that reads the fixture
    } finally {
      clearTimeout(timer);
    }
  }
}
