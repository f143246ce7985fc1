import path from 'node:path';
import { installGuard, redactUrl } from '@memory-matrix/backends';
import { signalExitCode } from '../baseline/interrupt';
import { Progress } from '../progress';
import { renderConsole } from '../report/console';
import { emptyReport, type CellReport, type MatrixReport } from '../report/model';
import { lockReportDir } from '../report/lock';
import type { ChildCell } from '../cell-child/spawn';
import { cellsFirst, exclusiveSuites } from '../parallel';
import { prepareImages } from '../image-prep';
import { MatrixRuntime } from '../runtime';
import { measureRunCpu } from '../report/cpu';
import { registerRunCells } from './cells';
import { CellCollector } from './collect';
import { ensureReportDir, finish, runIdOf } from './finish';
import type { RunOptions } from './options';
import { planRun } from './plan';

/**
 * Run the matrix: select targets, load and verify the golden dataset and its expectation
 * (nothing is started or written to any store before both are valid: run/plan.ts), run every cell
 * through the conformance suite (run/cells.ts, recorded by run/collect.ts), write report.json /
 * junit.xml / report.md / report.html (always, also on errors: run/finish.ts) and return
 * the exit status: 0 all checks pass, 1 a check failed or none ran (every one skipped), 2 the run could not be carried out.
 * Embedded cells of a run of several cells each run in a child process (cell-child/; the report
 * holds their cells as recorded there), unless `MM_EMBEDDED_INPROCESS=1` (USAGE on a value other
 * than 0 / 1).
 */
export async function runMatrix(opts: RunOptions): Promise<MatrixReport> {
  const out = opts.out ?? ((l: string) => process.stdout.write(l + '\n'));
  const startedAt = new Date();
  const t0 = performance.now();
  const cpu0 = measureRunCpu(1); // the CPU the process spent before the run started (module loading) is not the run's
  const report: MatrixReport = emptyReport(opts.argv.map(redactUrl), startedAt.toISOString(), {
    profile: opts.backends.length ? (opts.profile ?? null) : (opts.profile ?? 'default'),
    shard: opts.shard ?? null,
  });
  const progress = new Progress();
  const rt = new MatrixRuntime();
  const collector = new CellCollector(report, (l) => progress.log(l));
  /** Whether this run holds the report dir's lock: a run stopped at the lock writes nothing there (the other run's reports stay whole). */
  let ownsReportDir = false;
  const onSignal = (sig: NodeJS.Signals): void => {
    // From here on nothing more is recorded: checks still running fail only because their backend
    // is being stopped, which is not a verdict on the target. The report lists what completed.
    collector.interrupted = true;
    rt.cancel(); // cells still queued never start
    progress.stop();
    const { started, children } = collector;
    // The count is the targets' backends; fault instances a check started (C15, C16, C23) are removed with them (container guard, instance registry) but not counted here.
    progress.log(
      `\n${sig}: stopping ${started.length} target backend(s) and any fault instances their checks started${children.size ? `, ${children.size} cell process(es)` : ''}, and writing the partial report…`,
    );
    report.error = { code: 'INTERRUPTED', message: `interrupted by ${sig}; the report holds the checks that completed before it` };
    report.exitCode = 2;
    // A child cell stops its own engine and temp dirs on the same signal and writes what it
    // completed, its checks not run naming that signal (it is in a process group of its own: the
    // signal reached this process only).
    const stopChild = async (c: ChildCell, cell: CellReport): Promise<void> => {
      await c.stop(sig === 'SIGINT' ? 'SIGINT' : 'SIGTERM');
      Object.assign(cell, await c.result);
    };
    void Promise.allSettled([...started.map((b) => b.stop()), ...[...children].map(([c, cell]) => stopChild(c, cell))]).finally(() => {
      collector.markNotRun(sig);
      if (finish(report, ownsReportDir ? opts.reportDir : null, t0, cpu0).written)
        progress.log(`partial report (INTERRUPTED): ${path.relative(process.cwd(), opts.reportDir) || '.'}/{report.json,junit.xml,report.md,report.html}`);
      process.exit(signalExitCode(sig));
    });
  };
  // The container guard removes this run's containers synchronously on exit and on signals;
  // onSignal then writes the partial report and exits with 130 / 143.
  installGuard({ exitOnSignal: false });
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);
  try {
    ensureReportDir(opts.reportDir);
    lockReportDir(opts.reportDir);
    ownsReportDir = true;
    const plan = await planRun(opts, report, out);
    const { targets, checks, tier, embedded } = plan;
    const m = plan.dataset.manifest;
    collector.planned = checks;
    registerRunCells(rt, plan, opts, runIdOf(startedAt), collector, progress);
    // Container images first: a cell waits for its image outside its setup limit and pool place (image-prep.ts).
    const inParent = targets.filter((t) => !(t.provider === 'embedded' && embedded === 'child'));
    const images = plan.docker.available ? await prepareImages(new Map(inParent.map((t) => [`${t.name} × ${m.name}`, t])), opts.imageSource ?? 'auto', (l) => progress.log(l)) : undefined;
    const result = await rt.run(
      (t) => collector.onTest(t),
      // Embedded engines on this process' thread starve it: in-process, those cells run alone (parallel.ts).
      {
        concurrency: plan.parallel.cells,
        ready: images?.ready,
        exclusive: embedded === 'inprocess' ? exclusiveSuites(targets, m.name) : new Set(),
        first: cellsFirst(
          targets,
          checks.filter((c) => !tier.skip.has(c.id)).map((c) => c.id),
          m.name,
        ),
      },
    );
    progress.stop();
    collector.settle(result);
  } catch (e) {
    const err = e as { code?: string; message?: string };
    report.error = { code: err.code ?? 'INTERNAL', message: err.message ?? String(e) };
  } finally {
    process.removeListener('SIGINT', onSignal);
    process.removeListener('SIGTERM', onSignal);
  }
  const { view, written } = finish(report, ownsReportDir ? opts.reportDir : null, t0, cpu0);
  out(renderConsole(view));
  if (written) out(`reports: ${path.relative(process.cwd(), opts.reportDir) || '.'}/{report.json,junit.xml,report.md,report.html}`);
  return report;
}
