import { writeFilesAtomic, writeFilesAtomicAsync } from './atomic';
import { makeDirs } from '@memory-matrix/spec';
import { renderHtml } from './html';
import { renderJUnit } from './junit';
import { renderMarkdown } from './markdown';
import { faithfulNumber } from './json-number';
import type { ReportView } from './view';

/** The report files every run (and every merge) writes, in writing order. */
export const REPORT_FILES = ['report.json', 'junit.xml', 'report.md', 'report.html'] as const;

/**
 * Write report.json, junit.xml, report.md and report.html of a settled report's view into `dir`
 * (created if missing, `makeDirs`); every writer only renders what `settleReport` / `reportView`
 * derived. All four are rendered, then written as a group (`writeFilesAtomic`): to temporary names
 * in `dir`, then renamed into place with report.json (what gates read) last, so a reader never sees
 * a half-written file and a failed write (ENOSPC, EACCES) replaces none of them. Throws the file
 * system's error, whose message names the path (ENOTDIR / EEXIST / EACCES for a `dir` that cannot
 * be made, EISDIR / ENOTEMPTY when a report's name is a directory, ENOSPC, EROFS). After a failure no
 * temporary file is left and report.json is as it was (a rename that fails leaves those renamed
 * before it, in the order report.html, report.md, junit.xml, with their new content).
 */
export function writeReports(view: ReportView, dir: string): void {
  makeDirs(dir);
  writeFilesAtomic(dir, renderReports(view));
}

/** `writeReports` with the writes on the worker pool (`writeFilesAtomicAsync`): a run's end, where a signal must be heard while a write is slow. Same files, order and errors. */
export async function writeReportsAsync(view: ReportView, dir: string): Promise<void> {
  makeDirs(dir);
  await writeFilesAtomicAsync(dir, renderReports(view));
}

/** The four report files of `view`, rendered, in writing order (`REPORT_FILES`). */
function renderReports(view: ReportView): Array<[string, string]> {
  const report = view.report;
  return [
    ['report.json', reportJson(report)],
    ['junit.xml', renderJUnit(report)],
    ['report.md', renderMarkdown(view)],
    ['report.html', renderHtml(report)],
  ];
}

/**
 * report.json text: `JSON.stringify(value, faithfulNumber, 2)` except that an array holding only primitives
 * (the per-query series, `[id, score]` pairs, argv) stays on one line, which keeps a report with
 * per-query figures about three times smaller. `JSON.parse` of it equals `JSON.parse(JSON.stringify(value, faithfulNumber))`:
 * a non-finite number is written as its name in a string (`faithfulNumber`), never as `null`.
 */
export function reportJson(value: unknown): string {
  return pretty(value, '') + '\n';
}

function pretty(v: unknown, indent: string): string {
  if (v !== null && typeof v === 'object' && typeof (v as { toJSON?: unknown }).toJSON === 'function') v = (v as { toJSON(): unknown }).toJSON();
  const inner = indent + '  ';
  if (Array.isArray(v)) {
    if (v.every((x) => x === null || typeof x !== 'object')) return JSON.stringify(v, faithfulNumber);
    return `[\n${v.map((x) => inner + (x === undefined || typeof x === 'function' ? 'null' : pretty(x, inner))).join(',\n')}\n${indent}]`;
  }
  if (v !== null && typeof v === 'object') {
    const entries = Object.entries(v).filter(([, x]) => x !== undefined && typeof x !== 'function' && typeof x !== 'symbol');
    if (!entries.length) return '{}';
    return `{\n${entries.map(([k, x]) => `${inner}${JSON.stringify(k)}: ${pretty(x, inner)}`).join(',\n')}\n${indent}}`;
  }
  return JSON.stringify(v, faithfulNumber) ?? 'null';
}
