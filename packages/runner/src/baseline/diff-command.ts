import { shownDir } from '../shown-dir';
import { tempFileOf, writeFilesAtomic } from '../report/atomic';
import { ensureWritableDir } from '../report/dir';
import { lockReportDir } from '../report/lock';
import { rmSync } from 'node:fs';
import path from 'node:path';
import { MemoryMatrixError } from '@memory-matrix/spec';
import { dockerStatus, redactUrl, type ImageSource, type ResolvedTarget } from '@memory-matrix/targets';
import { reportJson } from '../report/write';
import { runIdOf } from '../run';
import { TOOL_VERSION } from '../version';
import { checkSameDataset, compareBaselines, overallVerdict } from './compare';
import { readBaseline, writeBaseline } from './file';
import { signalExitCode, watchInterrupt } from './interrupt';
import type { Baseline, DiffReport, DiffSide } from './model';
import { applyIndexOverride, cannotRecord, recordBaseline } from './record';
import { renderDiffConsole, renderDiffMarkdown } from './render';
import { baselineCatalog, classifyInput, loadGoldenInputs, prepareProviders, profileThresholds, type GoldenInputs } from './setup';

/** Options of `memory-matrix diff`. */
export interface DiffOptions {
  /** A catalog target (recorded live) or a baseline.json. */
  baseline: string;
  candidate: string;
  profile: string;
  /** `key=value` overrides of the candidate's index (live candidates only). */
  index: string[];
  dataset: string;
  reportDir: string;
  imageSource?: ImageSource;
  argv: string[];
}

/** A side before it is recorded: a baseline read from a file, or a target to record. */
type Pending = { kind: 'file'; file: string; baseline: Baseline } | { kind: 'target'; target: ResolvedTarget; catalogIndex: ResolvedTarget['index']; override: Record<string, number> | null };

/**
 * `memory-matrix diff`: baseline vs candidate per scan path (compare.ts). Each side is a baseline
 * file or a target recorded live (record.ts, the same code as `record`; the recording is kept as
 * `<report-dir>/baseline.json` / `candidate.json`). Everything that can be checked before a backend
 * starts is (report dir, profile thresholds, inputs, a live side's `vectors` capability, --index,
 * dataset of file sides). The report dir's lock (report/lock.ts) is taken first, as `run` takes it:
 * while another run, merge or diff writes there this diff is refused (USAGE naming the dir and that
 * process's command and pid, exit 2) and writes nothing there. Then the previous run's diff.json,
 * diff.md, baseline.json and candidate.json are removed from `reportDir` (only those, and not a file
 * given as an input), so no stale verdict is left next to this run's files. Writes diff.json and
 * diff.md into `reportDir` in every case the dir is usable and locked, prints the console table,
 * releases the lock, returns the exit status: 0 PASS or DRIFT, 1 FAIL, 2 the diff could not run.
 * On SIGINT / SIGTERM (interrupt.ts) the started backends are stopped, diff.json gets `error.code`
 * INTERRUPTED, diff.md says so, INTERRUPTED is printed and the process exits 130 / 143 (the lock
 * goes with it; the returned promise then never settles). Throws only when diff.json / diff.md
 * cannot be written (the file system's error; the lock is released, no temporary file is left).
 */
export async function diffCommand(o: DiffOptions, log: (line: string) => void): Promise<DiffReport> {
  const report: DiffReport = {
    format: 'memory-matrix-diff',
    version: 1,
    tool: { name: 'memory-matrix', version: TOOL_VERSION, node: process.version },
    createdAt: new Date().toISOString(),
    argv: o.argv.map(redactUrl),
    profile: o.profile,
    thresholds: null,
    dataset: null,
    baseline: null,
    candidate: null,
    cells: [],
    notCompared: [],
    verdict: null,
    exitCode: 2,
  };
  /** Whether this diff may write into the report dir: it is usable and this process holds its lock. */
  let dirOk = false;
  let release = (): void => undefined;
  const watch = watchInterrupt(log, (sig) => {
    report.verdict = null;
    report.error = { code: 'INTERRUPTED', message: `interrupted by ${sig} before the diff was complete; no verdict` };
    report.exitCode = signalExitCode(sig);
    if (dirOk) writeDiff(report, o.reportDir);
    log(renderDiffConsole(report));
    if (dirOk) log(`diff: ${shownDir(o.reportDir)}/{diff.json,diff.md}`);
  });
  try {
    ensureWritableDir(o.reportDir, 'the diff');
    release = lockReportDir(o.reportDir, '--report-dir', 'diff');
    dirOk = true;
    // The run writes these files; an input among them would be overwritten by the other side's recording.
    for (const [flag, spec] of [
      ['--baseline', o.baseline],
      ['--candidate', o.candidate],
    ] as const) {
      const own = OWN_FILES.map((f) => path.join(o.reportDir, f));
      if (own.includes(path.resolve(spec)))
        throw new MemoryMatrixError(
          'USAGE',
          `${flag} ${spec} is one of the files this diff writes in --report-dir ${o.reportDir} (${OWN_FILES.join(', ')}); copy it elsewhere or choose another --report-dir`,
        );
    }
    clearPrevious(
      o.reportDir,
      [o.baseline, o.candidate].map((s) => path.resolve(s)),
    );
    for (const f of OWN_FILES) watch.pending(tempFileOf(path.join(o.reportDir, f)));
    const catalog = baselineCatalog();
    const thresholds = profileThresholds(catalog, o.profile);
    report.thresholds = { ...thresholds };
    const sides: Pending[] = [o.baseline, o.candidate].map((spec, i) => {
      const c = classifyInput(catalog, spec);
      if (c.kind === 'file') return { kind: 'file', file: c.file, baseline: readBaseline(c.file, i === 0 ? 'baseline' : 'candidate') };
      const refused = cannotRecord(c.target);
      if (refused) throw new MemoryMatrixError('CAPABILITY_MISSING', `--${i === 0 ? 'baseline' : 'candidate'} ${spec}: ${refused}`);
      const { index, override } = i === 1 ? applyIndexOverride(c.target.name, c.target.index, o.index) : { index: c.target.index, override: null };
      return { kind: 'target', target: { ...c.target, index }, catalogIndex: c.target.index, override };
    });
    if (o.index.length && sides[1]!.kind === 'file')
      throw new MemoryMatrixError('USAGE', `--index applies to a candidate recorded live; ${o.candidate} is a baseline file (recorded with its own index)`);
    let golden: GoldenInputs | undefined;
    const live = sides.filter((s): s is Extract<Pending, { kind: 'target' }> => s.kind === 'target');
    if (live.length) {
      golden = loadGoldenInputs(catalog, o.dataset);
      const ds = { label: `--dataset ${o.dataset}`, name: golden.dataset.manifest.name, sha256: golden.dataset.datasetSha256 };
      for (const s of sides) if (s.kind === 'file') checkSameDataset({ label: `baseline file ${s.file}`, ...s.baseline.dataset }, ds);
      const docker = (await dockerStatus()).available;
      await prepareProviders(
        live.map((s) => s.target),
        docker,
        log,
      );
      for (const [i, s] of sides.entries()) {
        if (s.kind !== 'target') continue;
        const b = await recordBaseline(s.target, {
          ...golden,
          runId: runIdOf(new Date()),
          imageSource: o.imageSource,
          docker,
          argv: report.argv,
          override: s.override,
          catalogIndex: s.catalogIndex,
          log,
          watch,
        });
        if (watch.signal) break;
        const file = path.join(o.reportDir, i === 0 ? 'baseline.json' : 'candidate.json');
        writeBaseline(b, file);
        sides[i] = { kind: 'file', file, baseline: b };
        if (i === 0) report.baseline = side(b, 'live', file);
        else report.candidate = side(b, 'live', file);
      }
    }
    const [a, b] = sides.map((s) => (s as Extract<Pending, { kind: 'file' }>).baseline) as [Baseline, Baseline];
    report.baseline ??= side(a, 'file', (sides[0] as { file: string }).file);
    report.candidate ??= side(b, 'file', (sides[1] as { file: string }).file);
    report.dataset = a.dataset;
    Object.assign(
      report,
      compareBaselines(a, b, thresholds, (t) => catalog.targets.get(t)?.capabilities.exactScan),
    );
    report.verdict = overallVerdict(report.cells);
    report.exitCode = report.verdict === 'FAIL' ? 1 : 0;
  } catch (e) {
    const err = e as { code?: string; message?: string };
    report.error = { code: err.code ?? 'INTERNAL', message: err.message ?? String(e) };
    report.exitCode = 2;
    await watch.checkpoint().catch(() => undefined); // a signal dispatched only now still interrupts
  } finally {
    if (!watch.signal) watch.dispose();
  }
  if (watch.signal) return new Promise<DiffReport>(() => undefined); // the signal handler writes the report and exits
  try {
    if (dirOk) writeDiff(report, o.reportDir);
  } finally {
    release();
  }
  log(renderDiffConsole(report));
  if (dirOk) log(`diff: ${shownDir(o.reportDir)}/{diff.json,diff.md}`);
  return report;
}

const side = (b: Baseline, source: DiffSide['source'], file: string): DiffSide => ({ target: b.target, source, file: path.relative(process.cwd(), file) || file, provenance: b.provenance });

/** What a diff writes into its report dir (removed at the start of the next one). */
const OWN_FILES = ['diff.json', 'diff.md', 'baseline.json', 'candidate.json'] as const;

/**
 * Remove the previous run's diff.json, diff.md, baseline.json and candidate.json from `dir` (only
 * those names, and none of `keep`: absolute paths of this run's inputs, e.g. `--baseline
 * <dir>/baseline.json` re-used from the last run). USAGE naming the file when one cannot be removed.
 */
function clearPrevious(dir: string, keep: string[]): void {
  for (const name of OWN_FILES) {
    const f = path.join(dir, name);
    if (keep.includes(f)) continue;
    try {
      rmSync(f, { force: true });
    } catch (e) {
      throw new MemoryMatrixError('USAGE', `--report-dir ${dir}: cannot remove the previous run's ${name} (${(e as NodeJS.ErrnoException).code ?? (e as Error).message})`, { cause: e });
    }
  }
}

/** diff.json and diff.md as a group (`writeFilesAtomic`: temporary names, diff.json renamed last; none left after a failure). */
function writeDiff(report: DiffReport, dir: string): void {
  writeFilesAtomic(dir, [
    ['diff.json', reportJson(report)],
    ['diff.md', renderDiffMarkdown(report)],
  ]);
}
