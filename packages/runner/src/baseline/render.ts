import Table from 'cli-table3';
import pc from 'picocolors';
import { isHnsw, isIvfflat, type IndexConfig } from '@memory-matrix/spec';
import type { DiffReport, DiffSide } from './model';
import { fmt } from './verdict';

const indexText = (i: IndexConfig): string =>
  isHnsw(i)
    ? `hnsw m ${i.m} efC ${i.efConstruction} ef ${i.efSearch}`
    : isIvfflat(i)
      ? `ivfflat lists ${i.lists} probes ${i.probes}`
      : [i.type, ...Object.entries(i).flatMap(([k, v]) => (k === 'type' ? [] : [`${k} ${String(v)}`]))].join(' ');
const exp = (x: number | undefined): string => (x === undefined ? '–' : x === 0 ? '0' : x.toExponential(1));
const sideText = (s: DiffSide): string => {
  const c = s.provenance.components;
  const versions = Object.entries(c)
    .map(([k, v]) => `${k} ${v}`)
    .join(', ');
  return `${s.target} (${s.source === 'file' ? s.file : 'recorded live'}; ${versions || s.provenance.serverVersion}${s.provenance.imageId ? `; image ${s.provenance.imageId.slice(0, 19)}` : ''}${
    s.provenance.indexOverride
      ? `; --index ${Object.entries(s.provenance.indexOverride)
          .map(([k, v]) => `${k}=${v}`)
          .join(' ')}`
      : ''
  })`;
};

/** Rows shared by the console table and the markdown table, one per cell. */
function rows(r: DiffReport): string[][] {
  return r.cells.map((c) => [
    c.scan,
    c.verdict,
    recallText(c),
    `${indexText(c.baselineIndex)} → ${indexText(c.candidateIndex)}`,
    fmt(c.figures.meanOverlap!),
    fmt(c.figures.minOverlap!),
    `${c.figures.changedQueries} / ${c.figures.queries}`,
    String(c.figures.failedQueries),
    String(c.figures.maxRankShift),
    exp(c.figures.maxAbsScoreDelta),
  ]);
}
const HEAD = ['scan', 'verdict', 'recall@k vs oracle', 'index (baseline → candidate)', 'mean overlap', 'min overlap', 'changed queries', 'failed queries', 'max rank shift', 'max |Δscore|'];

/** Mean recall@k of each side against the oracle (recorded in the baselines) and the change, e.g. `0.9520 → 0.9880 (+0.0360)`. */
function recallText(c: DiffReport['cells'][number]): string {
  const a = c.figures.baselineOracleRecallMean!;
  const b = c.figures.candidateOracleRecallMean!;
  const d = b - a;
  return `${fmt(a)} → ${fmt(b)}${Math.abs(d) < 5e-5 ? ' (=)' : ` (${d > 0 ? '+' : '−'}${Math.abs(d).toFixed(4)})`}`;
}

/**
 * What a changed cell's recall against the oracle says about the change, one sentence, or null when
 * the cell is PASS or the recall did not move: the verdict judges change from the baseline, not
 * quality, so a FAIL whose candidate recalls the oracle better (e.g. an int8 → float32 quantization
 * change) is an improvement, and one that recalls worse a regression.
 */
function recallNote(c: DiffReport['cells'][number]): string | null {
  const a = c.figures.baselineOracleRecallMean!;
  const b = c.figures.candidateOracleRecallMean!;
  if (c.verdict === 'PASS' || Math.abs(b - a) < 5e-5) return null;
  return b > a
    ? `${c.scan} ${c.verdict} is an improvement in recall: the candidate's recall@k vs oracle ${fmt(b)} > the baseline's ${fmt(a)} (the verdict judges change from the baseline, not quality)`
    : `${c.scan} ${c.verdict} lowers recall: the candidate's recall@k vs oracle ${fmt(b)} < the baseline's ${fmt(a)}`;
}

/** The verdict line's recall summary per cell, e.g. ` (recall@k vs oracle: index 0.9520 → 0.9880 (+0.0360), exact 1 → 1 (=))`. */
const verdictRecall = (r: DiffReport): string => (r.cells.length ? ` (recall@k vs oracle: ${r.cells.map((c) => `${c.scan} ${recallText(c)}`).join(', ')})` : '');

/** Console summary of a diff: sides, one row per cell with its verdict, reasons, the worst queries. */
export function renderDiffConsole(r: DiffReport, color = process.stdout.isTTY): string {
  const c = color ? pc : pc.createColors(false);
  const out: string[] = [];
  if (r.baseline && r.candidate) out.push(`baseline  ${sideText(r.baseline)}`, `candidate ${sideText(r.candidate)}`);
  if (r.thresholds)
    out.push(
      `profile ${r.profile}: ${Object.entries(r.thresholds)
        .map(([k, v]) => `${k} ${v}`)
        .join(', ')}`,
    );
  if (r.cells.length) {
    const t = new Table({ head: HEAD, style: { head: [], border: [] } });
    for (const row of rows(r)) t.push(row.map((x, i) => (i !== 1 ? x : x === 'FAIL' ? c.red(x) : x === 'DRIFT' ? c.yellow(x) : c.green(x))));
    out.push(t.toString());
  }
  for (const n of r.notCompared) out.push(c.yellow(`${n.scan} scan not compared: ${n.reason}`));
  for (const cell of r.cells) {
    for (const why of cell.reasons) out.push(c.red(`${cell.scan} ${cell.verdict}: ${why}`));
    for (const n of cell.notes) out.push(c.yellow(`${cell.scan} note: ${n}`));
    const rn = recallNote(cell);
    if (rn) out.push(rn);
    const shown = cell.worst.slice(0, 5);
    if (shown.length) out.push(`${cell.scan}: worst queries`);
    for (const q of shown) {
      const what = q.failures.length
        ? q.failures.join('; ')
        : `${q.query}: overlap ${fmt(q.overlap)}, max rank shift ${q.maxRankShift}, max |Δscore| ${exp(q.maxAbsScoreDelta)}${q.missing.length ? `, missing ${q.missing.slice(0, 5).join(', ')}` : ''}`;
      out.push(`  - ${what}`);
    }
  }
  if (r.error) out.push(c.red(`memory-matrix: ${r.error.code}: ${r.error.message}`));
  if (r.error?.code === 'INTERRUPTED') out.push(c.red(`INTERRUPTED: verdict none, exit ${r.exitCode}`));
  else out.push(r.verdict ? `verdict: ${r.verdict}${verdictRecall(r)}` : 'verdict: none (the diff could not run)');
  return out.join('\n');
}

const esc = (s: string): string => s.replace(/\|/g, '\\|').replace(/\n/g, ' ');

/** diff.md: GitHub-flavoured markdown for `$GITHUB_STEP_SUMMARY` or a PR comment. */
export function renderDiffMarkdown(r: DiffReport): string {
  const icon = r.verdict === 'PASS' ? '✅' : r.verdict === 'DRIFT' ? '🟡' : r.verdict === 'FAIL' ? '❌' : '⚠️';
  const interrupted = r.error?.code === 'INTERRUPTED';
  const lines = [`# memory-matrix diff — ${icon} ${r.verdict ?? (interrupted ? 'INTERRUPTED' : 'could not run')}`, ''];
  if (interrupted) lines.push(`**INTERRUPTED** — the diff was stopped before it finished (exit ${r.exitCode}); there is no verdict.`, '');
  if (r.verdict) lines.push(`**${r.verdict}**${esc(verdictRecall(r))}`, '');
  if (r.baseline && r.candidate) lines.push(`- **baseline** ${esc(sideText(r.baseline))}`, `- **candidate** ${esc(sideText(r.candidate))}`);
  if (r.dataset) lines.push(`- dataset **${r.dataset.name}** v${r.dataset.version} (${r.dataset.queries} queries, sha256 \`${r.dataset.sha256.slice(0, 12)}\`)`);
  if (r.thresholds)
    lines.push(
      `- profile \`${r.profile}\`: ${Object.entries(r.thresholds)
        .map(([k, v]) => `${k} ${v}`)
        .join(', ')}`,
    );
  lines.push('');
  if (r.error) lines.push(`> **${r.error.code}**: ${esc(r.error.message)}`, '');
  if (r.cells.length) {
    lines.push(`| ${HEAD.map((h) => h.replace(/\|/g, '\\|')).join(' | ')} |`, `|${HEAD.map(() => '---').join('|')}|`);
    for (const row of rows(r)) lines.push(`| ${row.map((x, i) => (i === 1 ? `**${x}**` : esc(x))).join(' | ')} |`);
    lines.push('');
  }
  for (const n of r.notCompared) lines.push(`- ${n.scan} scan not compared: ${esc(n.reason)}`);
  for (const cell of r.cells) {
    for (const why of cell.reasons) lines.push(`- **${cell.scan} ${cell.verdict}**: ${esc(why)}`);
    for (const n of cell.notes) lines.push(`- ${cell.scan} note: ${esc(n)}`);
    const rn = recallNote(cell);
    if (rn) lines.push(`- ${esc(rn)}`);
    if (!cell.worst.length) continue;
    lines.push('', `<details><summary>${cell.scan}: ${cell.worst.length} worst quer${cell.worst.length === 1 ? 'y' : 'ies'}</summary>`, '');
    lines.push('| query | k | overlap | missing | new | max rank shift | max \\|Δscore\\| | thresholds crossed |', '|---|---|---|---|---|---|---|---|');
    for (const q of cell.worst) {
      lines.push(
        `| ${esc(q.query)} | ${q.k} | ${fmt(q.overlap)} | ${esc(q.missing.slice(0, 5).join(', ') || '–')} | ${esc(q.added.slice(0, 5).join(', ') || '–')} | ${q.maxRankShift} | ${exp(q.maxAbsScoreDelta)} | ${esc(q.failures.join('; ') || '–')} |`,
      );
    }
    lines.push('', '</details>');
  }
  return lines.join('\n') + '\n';
}
