import type { Failure } from '@memory-matrix/spec';

/** Failures of one check that share a kind and a cause (`causeOf`), in report order. */
export interface FailureGroup {
  kind: string;
  /** `causeOf` of every member. */
  cause: string;
  /** Every member, in report order (the first is shown in full). */
  failures: Failure[];
}

/** Examples a group line names after its first failure. */
export const GROUP_EXAMPLES = 3;

/**
 * The cause of a failure, for grouping: its message without the `<dataset> [<query>] @ <target>: `
 * prefix, its own query id and id replaced by `<query>` / `<id>`, and every other number
 * (ranks, scores, counts, digits inside ids) by `#`. Two failures of one check with the same kind
 * and cause differ only in where they happened (e.g. every score non-finite, every id missing).
 */
export function causeOf(f: Failure): string {
  const at = f.message.indexOf(`@ ${f.target}: `);
  let text = at >= 0 ? f.message.slice(at + f.target.length + 4) : f.message;
  for (const [value, label] of [
    [f.queryId, '<query>'],
    [f.id, '<id>'],
  ] as const) {
    if (value && value !== '-') text = text.split(value).join(label);
  }
  return text.replace(/[-+]?\d+(\.\d+)?(e[-+]?\d+)?/gi, '#');
}

/** `failures` grouped by kind and `causeOf`, groups in the order of their first member. Pure. */
export function groupFailures(failures: readonly Failure[]): FailureGroup[] {
  const groups = new Map<string, FailureGroup>();
  for (const f of failures) {
    const cause = causeOf(f);
    const key = `${f.kind}\u0000${cause}`;
    const g = groups.get(key);
    if (g) g.failures.push(f);
    else groups.set(key, { kind: f.kind, cause, failures: [f] });
  }
  return [...groups.values()];
}

/** Where a failure happened, for a group line: `query q7 rank 3 id m-12` (the parts it has), else its message without the `<dataset> @ <target>: ` prefix. */
function where(f: Failure): string {
  const parts = [f.queryId && f.queryId !== '-' ? `query ${f.queryId}` : '', f.rank !== undefined ? `rank ${f.rank}` : '', f.id ? `id ${f.id}` : ''].filter(Boolean);
  if (parts.length) return parts.join(' ');
  const at = f.message.indexOf(`@ ${f.target}: `);
  return at >= 0 ? f.message.slice(at + f.target.length + 4) : f.message;
}

/**
 * One line per group for the console, report.md and report.html: a single failure as its message;
 * a group of n ≥ 2 as `n × [kind] <first message> — and n−1 more of the same cause, e.g. <where>,
 * <where>, <where>` (`GROUP_EXAMPLES`). At most `max` lines, then `… <m> more line(s); every
 * failure is in report.json` when lines were left out. report.json keeps every failure.
 */
export function failureLines(failures: readonly Failure[], max: number): string[] {
  const lines = groupFailures(failures).map((g) => {
    const [first, ...rest] = g.failures;
    if (!rest.length) return first!.message;
    const more = rest.length > GROUP_EXAMPLES ? ', …' : '';
    return `${g.failures.length} × [${g.kind}] ${first!.message} — and ${rest.length} more of the same cause, e.g. ${rest.slice(0, GROUP_EXAMPLES).map(where).join(', ')}${more}`;
  });
  if (lines.length <= max) return lines;
  return [...lines.slice(0, max), `… ${lines.length - max} more line(s); every failure is in report.json`];
}
