// The side-by-side pairs of a run (report.json `sideBySide`, shapes in types.ts): each client target
// next to the raw-adapter target of its server, and the checks where the two differ.
import type { CheckResult, CheckStatus } from '@memory-matrix/spec';
import { failureLines } from './failure-groups';
import { fmt } from './figures';
import type { CellReport, SideBySideDifference, SideBySidePair, SideVerdict } from './types';

export type { SideBySideDifference, SideBySidePair, SideVerdict };

/**
 * The figures compared when both sides have the same verdict, with the smallest difference that
 * counts: recall figures as the reports print them (4 decimals, so ≥ 5e-5 shows), score deltas when
 * they differ by more than the client target's `scoreTolerance` (below it both are within the
 * float32 error every target is allowed).
 */
export const KEY_FIGURES: ReadonlyArray<{ key: string; label: string; kind: 'recall' | 'score' }> = [
  { key: 'recallAtKMean', label: 'recall@k mean', kind: 'recall' },
  { key: 'recallAtKMin', label: 'recall@k worst', kind: 'recall' },
  { key: 'maxAbsScoreDelta', label: 'max |Δscore|', kind: 'score' },
  { key: 'goldenMaxAbsDelta', label: 'max |Δscore|', kind: 'score' },
];

const RECALL_EPSILON = 5e-5;

/** The longest explanation text kept (a failure line can run to kilobytes; report.json keeps every failure in the cell). */
export const WHY_MAX_CHARS = 400;
const clip = (s: string): string => (s.length > WHY_MAX_CHARS ? `${s.slice(0, WHY_MAX_CHARS - 1)}…` : s);

/**
 * The side-by-side pairs of `cells` (cell order of the clients); a client whose server target is not
 * among the cells has no pair. Pure; never throws. Status `known` is compared as the settled status
 * (report/known.ts runs first in settleReport).
 */
export function sideBySide(cells: readonly CellReport[]): SideBySidePair[] {
  const byTarget = new Map(cells.map((c) => [c.target, c]));
  const pairs: SideBySidePair[] = [];
  for (const client of cells) {
    const server = client.server === undefined ? undefined : byTarget.get(client.server);
    if (!server) continue;
    const ids = [...new Set([...client.checks, ...server.checks].map((c) => c.id))].sort();
    const differences: SideBySideDifference[] = [];
    let compared = 0;
    for (const id of ids) {
      const a = client.checks.find((c) => c.id === id);
      const b = server.checks.find((c) => c.id === id);
      if (a && b) compared++;
      const d = difference(a, b, client, server);
      if (d) differences.push(d);
    }
    pairs.push({
      client: client.target,
      server: server.target,
      compared,
      same: compared - differences.filter((d) => d.client.status !== 'absent' && d.server.status !== 'absent').length,
      differences,
    });
  }
  return pairs;
}

/** The difference of one check between the client cell (`a`) and the server cell (`b`), or null when they agree. */
function difference(a: CheckResult | undefined, b: CheckResult | undefined, client: CellReport, server: CellReport): SideBySideDifference | null {
  const base = { id: (a ?? b)!.id, name: (a ?? b)!.name, client: verdict(a), server: verdict(b) };
  if (!a || !b) {
    const present = (a ?? b)!;
    return { ...base, why: { kind: 'skipped', side: a ? 'server' : 'client', text: `not run in ${a ? server.target : client.target} (the check ${present.id} is in one cell only)` } };
  }
  if (a.status !== b.status) {
    // Explain by the side that did worse: a failure before a known failure before a skip.
    const rank: Record<CheckStatus, number> = { failed: 3, known: 2, skipped: 1, passed: 0 };
    const [side, r, cell] = rank[a.status] >= rank[b.status] ? (['client', a, client] as const) : (['server', b, server] as const);
    return { ...base, why: explain(side, r, cell) };
  }
  if (a.status === 'failed' && failureKinds(a) !== failureKinds(b)) {
    // Both failed, but not for the same reasons: the client's failures are the difference.
    const why = explain('client', a, client);
    return { ...base, why: { ...why, text: clip(`both failed, ${client.target} with [${failureKinds(a)}], ${server.target} with [${failureKinds(b)}]; ${why.text}`) } };
  }
  const changed = figureChanges(a, b, client.tolerances.scoreTolerance ?? 0);
  return changed ? { ...base, why: { kind: 'figures', side: 'client', text: changed } } : null;
}

/** The failure kinds of a failed check, sorted and joined (`error` for a check stopped by an error). */
function failureKinds(r: CheckResult): string {
  return [...new Set(r.error ? ['error'] : r.failures.map((f) => f.kind))].sort().join(', ');
}

/** Why `r` (on `side`, in `cell`) is not what the other side got. */
function explain(side: 'client' | 'server', r: CheckResult, cell: CellReport): SideBySideDifference['why'] {
  if (r.status === 'skipped') {
    const reason = r.skipReason ?? 'no reason given';
    return { kind: reason.startsWith('capability') ? 'capability' : 'skipped', side, text: `${cell.target} skips it (${reason})` };
  }
  if (r.status === 'known')
    return { kind: 'known', side, text: clip(`${cell.target} fails it, a known upstream failure: ${r.knownFailure?.reason ?? ''}`.trim()), ...(r.knownFailure ? { link: r.knownFailure.link } : {}) };
  const first = r.error ? r.error.message : (failureLines(r.failures, 1)[0] ?? 'failed');
  const count = r.failures.length > 1 ? ` (${r.failures.length} failures)` : '';
  return { kind: 'failure', side, text: clip(`${cell.target} fails it${count}: ${first}`) };
}

/** The check's status and its key figures as text. */
function verdict(r: CheckResult | undefined): SideVerdict {
  if (!r) return { status: 'absent' };
  const parts = KEY_FIGURES.filter((f) => typeof r.figures[f.key] === 'number').map((f) => `${f.label} ${fmt(r.figures[f.key] as number)}`);
  return parts.length ? { status: r.status, figures: [...new Set(parts)].join(', ') } : { status: r.status };
}

/** `recall@k mean 0.9890 vs 0.9983, …` for the key figures that differ (see `KEY_FIGURES`), or null. */
function figureChanges(a: CheckResult, b: CheckResult, scoreTolerance: number): string | null {
  const out: string[] = [];
  for (const f of KEY_FIGURES) {
    const x = a.figures[f.key];
    const y = b.figures[f.key];
    if (typeof x !== 'number' || typeof y !== 'number') continue;
    const limit = f.kind === 'recall' ? RECALL_EPSILON : scoreTolerance;
    if (Math.abs(x - y) > limit) out.push(`${f.label} ${fmt(x)} vs ${fmt(y)}`);
  }
  return out.length ? out.join(', ') : null;
}
