import type { SettledReport } from '../settle';
import { failureLines } from '../failure-groups';
import { htmlAssets, jsonForScript } from './assets';
import { verdictHeading } from '../verdict';

const esc = (s: string): string => s.replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c]!);

/**
 * Content-Security-Policy of report.html: inline scripts and styles only, images only from data:
 * URLs, no connection, font, frame or any other fetch. A viewer's browser therefore makes no
 * network request for the page, even if a report's text held a URL.
 */
export const REPORT_CSP = "default-src 'none'; script-src 'unsafe-inline'; style-src 'unsafe-inline'; img-src data:; base-uri 'none'; form-action 'none'";

/**
 * report.html: one self-contained page — every script (Chart.js, the page's own), the stylesheet
 * and the data inlined; system fonts; no URL is loaded at view time (see `REPORT_CSP`). The report
 * itself is embedded verbatim as JSON (`<script type="application/json" id="mm-report">`), and
 * the page renders every number from it in the browser: verdict and counts, the target × check
 * matrix (hover a FAIL for the first failure, expand it for the failures one line per cause, up to
 * 20: `failureLines`, embedded beside the report as `failureLineIndex`), the capability matrix, C31's
 * target × filter-operator table (report.filterOperators), each
 * client target side by side with its server's raw target (report.sideBySide), the
 * plots (recall@k per target, histogram of per-query |Δscore|, rank changes of the worst queries)
 * and the provenance (tool, dataset sha256, servers, images, index parameters, run time).
 */
export function renderHtml(report: SettledReport): string {
  const { chartJs, chartJsVersion, client, css } = htmlAssets();
  const verdict = verdictHeading(report).replace(/^\S+ /, ''); // without its emoji
  const title = `memory-matrix report — ${verdict}${report.dataset ? ` — ${report.dataset.name}` : ''}`;
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="${REPORT_CSP}">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="generator" content="memory-matrix ${esc(report.tool.version)}; Chart.js ${chartJsVersion}">
<title>${esc(title)}</title>
<style>
${css}
</style>
</head>
<body>
<noscript>This page draws report.json with JavaScript; without it, read report.md or report.json beside it.</noscript>
<main id="app"></main>
<script type="application/json" id="mm-report">${jsonForScript(report)}</script>
<script type="application/json" id="mm-failure-lines">${jsonForScript(failureLineIndex(report))}</script>
<script>
${chartJs}
</script>
<script>
${client}
</script>
</body>
</html>
`;
}

/** Lines a FAIL of report.html lists when expanded: `failureLines(failures, 20)` per failed check, keyed `<target> <check id>`. */
export function failureLineIndex(report: SettledReport): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  for (const cell of report.cells) for (const r of cell.checks) if (r.status === 'failed' && r.failures.length) out[`${cell.target} ${r.id}`] = failureLines(r.failures, 20);
  return out;
}
