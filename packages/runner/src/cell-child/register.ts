import type { TestRuntime } from '@memory-matrix/spec';
import type { CellReport } from '../report/model';
import { startChildCell, type ChildCell, type ChildCellOptions, type ChildDeath } from './spawn';

/** Added to a child cell's own time limit for the suite's setup hook: the child's limit and its SIGTERM grace fire first. */
const HOOK_MARGIN_MS = 10_000;

/** Hooks of `registerChildCell`. */
export interface ChildCellHooks {
  /** The child has been spawned (the run keeps it to stop it on an interrupt). */
  onSpawned: (child: ChildCell) => void;
  /** The child's cell, as it recorded it (replaces the run's placeholder cell). */
  onCell: (cell: CellReport) => void;
  /**
   * The child ended without its report (`death`: how, during which step, its journal; `result` rejected
   * with a CHILD_FAILED error carrying it). Returns whether the cell keeps verdicts the child reached (the
   * setup hook then ends without an error); false: the error becomes the cell's setup error.
   */
  onDied: (death: ChildDeath) => boolean;
  /** The child has ended, whatever the outcome. */
  onEnded: () => void;
}

/**
 * Register an embedded cell that runs in a child process (spawn.ts) as one suite of `rt` named
 * `suite` (`<target> × <dataset>`, as registerConformance names it) with no tests and one setup
 * hook: it spawns the child and waits for its cell. The suite takes one place of the run's
 * parallel bound like any cell. A child that died after it reached verdicts is handed to
 * `hooks.onDied` (the cell keeps them); any other child failure (CHILD_FAILED) is the suite's setup
 * error, which the run reports as that cell's error (every check not skipped at registration:
 * NOT_RUN), as for a backend that did not start. Hook time limit: `opts.timeoutMs + graceMs + 10 s`.
 */
export function registerChildCell(rt: TestRuntime, suite: string, opts: ChildCellOptions, hooks: ChildCellHooks): void {
  rt.describe(suite, () => {
    rt.beforeAll(
      async () => {
        const child = startChildCell(opts);
        hooks.onSpawned(child);
        try {
          hooks.onCell(await child.result);
        } catch (e) {
          const death = (e as { death?: ChildDeath }).death;
          if (!death || !hooks.onDied(death)) throw e;
        } finally {
          hooks.onEnded();
        }
      },
      opts.timeoutMs + (opts.graceMs ?? 30_000) + HOOK_MARGIN_MS,
    );
  });
}
