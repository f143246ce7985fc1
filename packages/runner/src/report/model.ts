import { readDurabilityFigures, type CheckResult } from '@memory-matrix/spec';
import type { CellReport, DurabilityRow, MatrixReport } from './types';
import { TOOL_VERSION } from '../version';

export type { CellReport, DurabilityRow, MatrixReport };

/**
 * A report with nothing run yet: no cells, zero summary, exit 0, started and finished at `startedAt`
 * (ISO-8601). `argv` as it should appear in the report (passwords already removed by the caller).
 */
export function emptyReport(argv: string[], startedAt: string, opts: { profile?: string | null; shard?: string | null } = {}): MatrixReport {
  return {
    format: 'memory-matrix-report',
    version: 1,
    tool: { name: 'memory-matrix', version: TOOL_VERSION, node: process.version },
    startedAt,
    finishedAt: startedAt,
    durationMs: 0,
    argv,
    profile: opts.profile ?? null,
    shard: opts.shard ?? null,
    host: { docker: false, dockerReason: '' },
    dataset: null,
    expectation: null,
    cells: [],
    skippedTargets: [],
    summary: { passed: 0, failed: 0, notRun: 0, known: 0, stale: 0, notReproduced: 0, skipped: 0, cellErrors: 0 },
    exitCode: 0,
  };
}

/** What check result `r` of `cell` cannot show on its target (catalog `cannotShow`), when it ran; undefined otherwise. */
export function cannotShowOf(cell: CellReport, r: CheckResult): string | undefined {
  if (r.status === 'skipped' || r.error?.code === 'NOT_RUN') return undefined;
  return cell.cannotShow?.[r.id];
}

/**
 * The capabilities whose parts a check skipped while the rest ran: each figure whose value is
 * `skipped (capability: <flag>)` (C01 `embeddings`, C29 `dropped` / `recreated` / `closed`), the
 * flags once each in figure order. A skipped part is never a pass: the console prints them beside
 * the verdict. Empty for a check that skipped whole or skipped no part.
 */
export function skippedPartsOf(r: CheckResult): string[] {
  if (r.status === 'skipped') return [];
  const out = new Set<string>();
  for (const v of Object.values(r.figures ?? {})) {
    const m = typeof v === 'string' ? /^skipped \(capability: ([^)]+)\)$/.exec(v) : null;
    if (m) out.add(m[1]!);
  }
  return [...out];
}

/** ` (part skipped: capability <flags>)`, the words every report prints beside a passed check that skipped parts (`skippedPartsOf`); '' when none. */
export function skippedPartsText(r: CheckResult): string {
  const parts = skippedPartsOf(r);
  return parts.length ? ` (part skipped: capability ${parts.join(', ')})` : '';
}

/** The durability table of a report, from each cell's C15 figures (spec `readDurabilityFigures`). */
export function durabilityRows(cells: CellReport[]): DurabilityRow[] {
  const rows: DurabilityRow[] = [];
  for (const cell of cells) {
    const c15 = cell.checks.find((c) => c.id === 'C15' && c.status !== 'skipped');
    if (!c15) continue;
    for (const f of readDurabilityFigures(c15.figures)) {
      const failedHere = c15.failures.some((x) => x.message.includes(`[${f.configuration}]`));
      // Unknown phantoms (a transaction torn by the crash) fail only where durability is promised.
      const broken = failedHere || f.duplicated > 0 || f.changed > 0 || (f.durable && (f.lost > 0 || f.phantomUnknown > 0));
      rows.push({ target: cell.target, ...f, verdict: broken ? (c15.status === 'known' ? 'known' : 'fail') : f.lost > 0 || f.phantomUnknown > 0 ? 'reported' : 'pass' });
    }
  }
  return rows;
}
