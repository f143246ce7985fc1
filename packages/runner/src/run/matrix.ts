import { shownDir } from '../shown-dir';
import { installGuard, redactUrl } from '@memory-matrix/targets';
import { Progress } from '../progress';
import { renderConsole } from '../report/console';
import { emptyReport, type MatrixReport } from '../report/model';
import { lockReportDir } from '../report/lock';
import { CellJournal } from '../cell-child/journal';
import { cellsFirst, exclusiveSuites } from '../parallel';
import { prepareImages } from '../image-prep';
import { MatrixRuntime } from '../runtime';
import { measureRunCpu } from '../report/cpu';
import { registerRunCells } from './cells';
import { CellCollector } from './collect';
import { ensureReportDir, runIdOf } from './finish';
import { RunInterrupt } from './interrupt';
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
  const collector = new CellCollector(report, progress.log);
  /** Whether this run holds the report dir's lock: a run stopped at the lock writes nothing there (the other run's reports stay whole). */
  let ownsReportDir = false;
  if (opts.cellJournal) collector.journal = new CellJournal(opts.cellJournal);
  // SIGINT / SIGTERM in any phase until the reports are written: partial report, exit 130 / 143 (run/interrupt.ts).
  const interrupt = new RunInterrupt({ report, collector, rt, progress, reportDir: () => (ownsReportDir ? opts.reportDir : null), t0, cpu0, child: opts.cellJournal !== undefined });
  // The container guard removes this run's containers synchronously on exit and on signals;
  // the interrupt then writes the partial report and exits with 130 / 143.
  installGuard({ exitOnSignal: false });
  interrupt.install();
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
      collector.onTest,
      // Embedded engines on this process' thread starve it: in-process, those cells run alone (parallel.ts).
      {
        onPhase: collector.onPhase,
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
    if (interrupt.signal) await interrupt.ending(); // the interrupt records what completed and ends the process
    collector.settle(result);
  } catch (e) {
    const err = e as { code?: string; message?: string };
    report.error = { code: err.code ?? 'INTERNAL', message: err.message ?? String(e) };
  }
  if (interrupt.signal) await interrupt.ending();
  const { view, written } = await interrupt.write();
  // A signal that came while the reports were written is heard here, before the status is final: the interrupt rewrites them (INTERRUPTED) and ends the process.
  await new Promise((r) => setImmediate(r));
  if (interrupt.signal) await interrupt.ending();
  interrupt.release();
  out(renderConsole(view));
  if (written) out(`reports: ${shownDir(opts.reportDir)}/{report.json,junit.xml,report.md,report.html}`);
  return report;
}
