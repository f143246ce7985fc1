import { writeFilesAtomic } from '../report/atomic';
import { makeDirs } from '@memory-matrix/spec';
import Table from 'cli-table3';
import { fmt } from '../report/figures';
import type { MigrationCheck, MigrationResult } from './types';

/**
 * migrate.json: one migration gate run. `result` is null when the run could not be carried out
 * (then `error` says why); `exitCode` 0 pass, 1 verification failed, 2 could not run.
 */
export interface MigrationReport {
  format: 'memory-matrix-migration';
  version: 1;
  tool: { name: 'memory-matrix'; version: string; node: string };
  startedAt: string;
  finishedAt: string;
  durationMs: number;
  argv: string[];
  from: { target: string; serverVersion: string | null; components: Record<string, string>; image: string | null; imageId: string | null };
  to: { target: string; serverVersion: string | null; components: Record<string, string>; image: string | null; imageId: string | null };
  /** Where A's data came from: the golden dataset loaded into A for this run ("production" of the run). */
  dataset: { name: string; version: string; sha256: string; memories: number; queries: number } | null;
  /** The self-test (`--tamper`): the id whose text was altered on its way into B and whether the gate named it. */
  tamper: { id: string; detected: boolean | null; note: string } | null;
  result: MigrationResult | null;
  verdict: 'pass' | 'fail' | 'error';
  exitCode: 0 | 1 | 2;
  error?: { code: string; message: string };
}

/** Figures of a check as `k v, k v` for the table. */
function figuresText(c: MigrationCheck): string {
  return Object.entries(c.figures)
    .map(([k, v]) => `${k} ${typeof v === 'number' ? fmt(v) : (v ?? '–')}`)
    .join(', ');
}

/** The console table: one row per check (verdict, figures, first failure) plus a verdict line. */
export function renderMigrationConsole(r: MigrationReport): string {
  const lines: string[] = [];
  if (r.result) {
    const t = new Table({ head: ['check', 'verdict', 'figures', 'first failure'], colWidths: [12, 9, 60, 70], wordWrap: true, style: { head: [], border: [] } });
    for (const c of r.result.checks) t.push([c.name, c.status === 'pass' ? 'pass' : `FAIL (${c.failureCount})`, figuresText(c), c.failures[0] ?? '']);
    lines.push(t.toString());
    for (const c of r.result.checks) for (const f of c.failures.slice(0, 5)) lines.push(`✗ ${c.name}: ${f}`);
  }
  if (r.tamper)
    lines.push(
      `self-test (--tamper ${r.tamper.id}): ${r.tamper.detected ? `the gate named ${r.tamper.id}` : r.tamper.detected === false ? `NOT DETECTED: the gate did not name ${r.tamper.id}` : 'not reached'}`,
    );
  if (r.error) lines.push(`migrate could not run: ${r.error.code}: ${r.error.message}`);
  lines.push(`migration ${r.from.target} → ${r.to.target}: ${r.verdict.toUpperCase()} (exit ${r.exitCode})`);
  return lines.join('\n');
}

/** migrate.md: for $GITHUB_STEP_SUMMARY / a PR comment. */
export function renderMigrationMarkdown(r: MigrationReport): string {
  const out = [`## Migration gate: ${r.from.target} → ${r.to.target}: **${r.verdict.toUpperCase()}**`, ''];
  if (r.dataset)
    out.push(
      `A (${r.from.target}) was loaded with dataset ${r.dataset.name} ${r.dataset.version} (sha256 ${r.dataset.sha256.slice(0, 12)}…, ${r.dataset.memories} memories); the migration exports A's store by scan and verifies B against that export, not the golden files.`,
      '',
    );
  for (const [side, s] of [
    ['A', r.from],
    ['B', r.to],
  ] as const)
    out.push(
      `- ${side}: \`${s.target}\` ${s.serverVersion ?? ''} ${Object.entries(s.components)
        .map(([k, v]) => `${k} ${v}`)
        .join(', ')}${s.imageId ? ` (image ${s.imageId.slice(0, 19)})` : ''}`,
    );
  if (r.tamper) out.push('', `> **Self-test** (\`--tamper ${r.tamper.id}\`): ${r.tamper.note} Detected: **${r.tamper.detected ? 'yes' : 'no'}**.`);
  if (r.error) out.push('', `**Could not run**: \`${r.error.code}\`: ${r.error.message}`);
  const res = r.result;
  if (res) {
    out.push(
      '',
      `Exported ${res.export.records} records in ${res.export.pages} page(s) (${Math.round(res.export.ms)} ms); imported in ${res.import.batches} batch(es) of ≤ ${res.import.batchSize} (${Math.round(res.import.ms)} ms, index ${Math.round(res.import.indexMs)} ms); read back ${res.readBack.records} from a new client; ${res.recall.queries} queries replayed (A ${res.from.recallMode}, B ${res.to.recallMode}).`,
      '',
    );
    out.push('| check | verdict | rule | figures |', '|---|---|---|---|');
    for (const c of res.checks)
      out.push(`| ${c.name} | ${c.status === 'pass' ? 'pass' : `**FAIL** (${c.failureCount})`} | ${c.rule.replace(/\|/g, '\\|')} | ${figuresText(c).replace(/\|/g, '\\|')} |`);
    for (const c of res.checks) {
      if (!c.failures.length && !c.notes.length) continue;
      out.push('', `### ${c.name}`, '');
      for (const f of c.failures) out.push(`- ✗ ${f.replace(/\n/g, ' ')}`);
      if (c.failureCount > c.failures.length) out.push(`- … and ${c.failureCount - c.failures.length} more (see migrate.json)`);
      for (const n of c.notes) out.push(`- note: ${n}`);
    }
  }
  return out.join('\n') + '\n';
}

/**
 * Write migrate.json and migrate.md of `r` into `dir` (created if missing, `makeDirs`) as a group
 * (`writeFilesAtomic`): both rendered, written to temporary names, renamed into place with
 * migrate.json last. Throws the file system's error, whose message names the path (ENOTDIR /
 * EEXIST / EACCES for a `dir` that cannot be made, EISDIR / ENOTEMPTY a report's name is a
 * directory, ENOSPC, EROFS). After a failure no temporary file is left and migrate.json is as it was.
 */
export function writeMigrationReports(r: MigrationReport, dir: string): void {
  makeDirs(dir);
  writeFilesAtomic(dir, [
    ['migrate.json', JSON.stringify(r, null, 2) + '\n'],
    ['migrate.md', renderMigrationMarkdown(r)],
  ]);
}
