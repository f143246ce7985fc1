import { shownDir } from '../shown-dir';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { MemoryMatrixError } from '@memory-matrix/spec';
import { watchInterrupt } from '../baseline/interrupt';
import { renderConsole } from '../report/console';
import { ensureWritableDir } from '../report/dir';
import { lockReportDir } from '../report/lock';
import { emptyReport, type MatrixReport } from '../report/model';
import { settleReport, type SettledReport } from '../report/settle';
import { reportView } from '../report/view';
import { writeReports } from '../report/write';
import { TOOL_VERSION } from '../version';
import type { RunCpu } from '../report/cpu';

/** One input of a merge: the file it came from (as given) and its parsed report. */
export interface ShardInput {
  file: string;
  report: MatrixReport;
}

/**
 * Read one report.json; INVALID_INPUT naming the file when it cannot be read, is not JSON, or is
 * not a memory-matrix report of format version 1.
 */
export function readReport(file: string): ShardInput {
  let parsed: unknown;
  try {
    parsed = JSON.parse(readFileSync(file, 'utf8'));
  } catch (e) {
    throw new MemoryMatrixError('INVALID_INPUT', `${file}: cannot read a report: ${(e as Error).message}`, { cause: e });
  }
  const r = parsed as Partial<MatrixReport>;
  if (r?.format !== 'memory-matrix-report' || r.version !== 1 || !Array.isArray(r.cells) || !r.summary) {
    throw new MemoryMatrixError('INVALID_INPUT', `${file}: not a memory-matrix report.json of version 1 (format ${JSON.stringify(r?.format)}, version ${JSON.stringify(r?.version)})`);
  }
  return { file, report: r as MatrixReport };
}

/** Files grouped by a key, for messages: `a.json, b.json (key1) vs c.json (key2)`. */
function groups(inputs: ShardInput[], key: (i: ShardInput) => string | null): string | null {
  const by = new Map<string, string[]>();
  for (const i of inputs) {
    const k = key(i);
    if (k !== null) by.set(k, [...(by.get(k) ?? []), i.file]);
  }
  return by.size > 1 ? [...by].map(([k, files]) => `${files.join(', ')} (${k})`).join(' vs ') : null;
}

/**
 * Join shard reports (runs with `--shard i/n`, or any runs of one dataset) into one report:
 * cells concatenated and ordered by target name, skipped targets concatenated (one of each), summary,
 * capability matrix, durability table and exit code settled anew (report/settle.ts), a shard's run
 * error kept (prefixed with its file). Throws USAGE naming the files when the inputs disagree:
 * dataset sha256, expectation sha256 or load-order seed differ, the shards of an `i/n` series are not exactly
 * 1…n once each, or a target appears in two inputs.
 */
export function mergeReports(inputs: ShardInput[]): SettledReport {
  if (!inputs.length) throw new MemoryMatrixError('USAGE', 'merge needs at least one report.json');
  const dsDiff = groups(inputs, (i) => (i.report.dataset ? `dataset ${i.report.dataset.name} sha256 ${i.report.dataset.sha256}` : null));
  if (dsDiff) throw new MemoryMatrixError('USAGE', `the reports are of different datasets: ${dsDiff}`);
  const expDiff = groups(inputs, (i) => (i.report.expectation ? `expectation sha256 ${i.report.expectation.sha256}` : null));
  if (expDiff) throw new MemoryMatrixError('USAGE', `the reports compare against different expectations: ${expDiff}`);
  // Each cell's verdicts hold for its own load order; one report names one order (shards of a CI run share the default seed).
  const seedDiff = groups(inputs, (i) => (i.report.loadOrder ? `load-order seed ${i.report.loadOrder.seed}` : null));
  if (seedDiff) throw new MemoryMatrixError('USAGE', `the reports loaded the golden memories in different orders: ${seedDiff}; run the shards with the same --load-seed`);
  checkShardSeries(inputs);
  const seen = new Set<string>();
  for (const i of inputs) {
    const key = path.resolve(i.file);
    if (seen.has(key)) throw new MemoryMatrixError('USAGE', `${i.file} is given twice; give each report.json once`);
    seen.add(key);
  }
  const owner = new Map<string, string>();
  for (const i of inputs) {
    for (const c of i.report.cells) {
      const before = owner.get(c.target);
      if (before) throw new MemoryMatrixError('USAGE', `target ${c.target} is in both ${before} and ${i.file}; each target must come from one report`);
      owner.set(c.target, i.file);
    }
  }

  const reports = inputs.map((i) => i.report);
  const started = Math.min(...reports.map((r) => Date.parse(r.startedAt)));
  const finished = Math.max(...reports.map((r) => Date.parse(r.finishedAt)));
  const profiles = [...new Set(reports.map((r) => r.profile))];
  const failed = inputs.find((i) => i.report.error);
  const merged: MatrixReport = {
    format: 'memory-matrix-report',
    version: 1,
    tool: { name: 'memory-matrix', version: TOOL_VERSION, node: process.version },
    startedAt: new Date(started).toISOString(),
    finishedAt: new Date(finished).toISOString(),
    durationMs: finished - started,
    argv: ['merge', ...inputs.map((i) => i.file)],
    profile: profiles.length === 1 ? profiles[0]! : null,
    shard: null,
    host: { docker: reports.every((r) => r.host.docker), dockerReason: [...new Set(reports.map((r) => r.host.dockerReason).filter(Boolean))].join('; ') },
    dataset: reports.find((r) => r.dataset)?.dataset ?? null,
    expectation: reports.find((r) => r.expectation)?.expectation ?? null,
    // The catalog file(s) the shards read in place of matrix/targets.yaml (MM_CATALOG), one of each.
    ...(reports.some((r) => r.catalog) ? { catalog: { file: [...new Set(reports.flatMap((r) => (r.catalog ? [r.catalog.file] : [])))].join('; ') } } : {}),
    ...(reports.find((r) => r.loadOrder) ? { loadOrder: reports.find((r) => r.loadOrder)!.loadOrder } : {}),
    ...(reports.every((r) => r.cpu)
      ? {
          cpu: sumCpu(
            reports.map((r) => r.cpu!),
            finished - started,
          ),
        }
      : {}),
    cells: reports.flatMap((r) => r.cells).sort((a, b) => a.target.localeCompare(b.target)),
    // Every shard names the profile's targets it left out (select.ts): one of each.
    skippedTargets: [...new Map(reports.flatMap((r) => r.skippedTargets).map((t) => [`${t.target}\n${t.reason}`, t])).values()].sort((a, b) => a.target.localeCompare(b.target)),
    summary: { passed: 0, failed: 0, skipped: 0, cellErrors: 0 },
    exitCode: 0,
    mergedFrom: inputs.map((i) => ({ file: i.file, shard: i.report.shard, startedAt: i.report.startedAt, exitCode: i.report.exitCode, toolVersion: i.report.tool.version })),
  };
  if (failed?.report.error) merged.error = { code: failed.report.error.code, message: `${failed.file}: ${failed.report.error.message}` };
  return settleReport(merged);
}

/** The CPU figures of shards summed (each shard ran on its own machine: the total is what the matrix cost); cores busy over the merged wall time. */
function sumCpu(cpus: RunCpu[], wallMs: number): RunCpu {
  const sum = (f: (c: RunCpu) => number): number => Math.round(cpus.reduce((a, c) => a + f(c), 0) * 10) / 10;
  const totalS = sum((c) => c.totalS);
  return {
    totalS,
    runnerS: sum((c) => c.runnerS),
    childProcessesS: cpus.some((c) => c.childProcessesS === null) ? null : sum((c) => c.childProcessesS!),
    containersS: sum((c) => c.containersS),
    containerSegmentsUnread: cpus.reduce((a, c) => a + c.containerSegmentsUnread, 0),
    coresBusy: wallMs > 0 ? Math.round((totalS / (wallMs / 1000)) * 100) / 100 : 0,
  };
}

/** Every `i/n` series among the inputs must hold shards 1…n exactly once (a lost shard is not a pass). */
function checkShardSeries(inputs: ShardInput[]): void {
  const series = new Map<number, Map<number, string>>();
  for (const i of inputs) {
    const m = /^(\d+)\/(\d+)$/.exec(i.report.shard ?? '');
    if (!m) continue;
    const [idx, n] = [Number(m[1]), Number(m[2])];
    const s = series.get(n) ?? new Map<number, string>();
    if (s.has(idx)) throw new MemoryMatrixError('USAGE', `shard ${idx}/${n} is given twice: ${s.get(idx)} and ${i.file}`);
    s.set(idx, i.file);
    series.set(n, s);
  }
  for (const [n, s] of series) {
    const missing = Array.from({ length: n }, (_, j) => j + 1).filter((j) => !s.has(j));
    if (missing.length) throw new MemoryMatrixError('USAGE', `shard report(s) ${missing.map((j) => `${j}/${n}`).join(', ')} missing; given: ${[...s].map(([j, f]) => `${j}/${n} ${f}`).join(', ')}`);
  }
}

/**
 * `memory-matrix merge <report.json…> --report-dir <dir>`: take `dir`'s report lock (report/lock.ts,
 * as `run` does), merge, write every report format into `dir` (also when the inputs disagree: then
 * the report carries only the error), print the console summary, release the lock, and resolve to
 * the exit status: the merged report's (0 / 1 / 2), or 2 when the inputs cannot be merged. `files`
 * are the report.json paths as given; `reportDir` an absolute path, created if missing.
 *
 * Throws, before an input is read or a report written: USAGE `--report-dir <dir>: cannot write
 * the merged report there: …` (a file in the way, no permission), USAGE `--report-dir <dir>:
 * another memory-matrix <command> (pid <n>) is writing its reports there; …` while a run, selftest,
 * merge or diff holds the dir's lock (the CLI exits 2; `dir` is left as it was). Throws the file
 * system's error when the reports cannot be written (no temporary file is left; report.json is as
 * it was). On SIGINT / SIGTERM before the reports are written, nothing is written, `INTERRUPTED` is
 * printed and the process exits 130 / 143 (the promise never settles). The lock is released in
 * every case (on a signal with the process).
 */
export async function mergeCommand(files: string[], reportDir: string, out: (line: string) => void): Promise<number> {
  const dirText = shownDir(reportDir);
  // Before the lock: a signal from then on is handled (at the next turn), never the default kill that
  // would leave the lock behind; the process exits 130 / 143 and the lock is released on exit (lock.ts).
  const watch = watchInterrupt(out, (sig) => out(`\n${sig}: INTERRUPTED: nothing merged; ${dirText} is left as it was`));
  let release = (): void => undefined;
  try {
    ensureWritableDir(reportDir, 'the merged report');
    release = lockReportDir(reportDir, '--report-dir', 'merge');
    let report: SettledReport;
    let refused = false;
    try {
      const inputs: ShardInput[] = [];
      for (const f of files) {
        await watch.checkpoint();
        inputs.push(readReport(f));
      }
      report = mergeReports(inputs);
    } catch (e) {
      const err = e as { code?: string; message?: string };
      report = failedMerge(files, { code: err.code ?? 'INTERNAL', message: err.message ?? String(e) });
      refused = true;
    }
    await watch.checkpoint();
    const view = reportView(report);
    writeReports(view, reportDir);
    out(renderConsole(view));
    const where = `${dirText}/{report.json,junit.xml,report.md,report.html}`;
    out(refused ? `nothing merged (${report.error!.code}); the report of the refusal: ${where}` : `merged ${files.length} report(s) into ${where}`);
    return report.exitCode;
  } finally {
    watch.dispose();
    release();
  }
}

function failedMerge(files: string[], error: { code: string; message: string }): SettledReport {
  return settleReport({ ...emptyReport(['merge', ...files], new Date().toISOString()), error, exitCode: 2 });
}
