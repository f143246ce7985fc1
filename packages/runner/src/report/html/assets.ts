import { readFileSync } from 'node:fs';
import { faithfulNumber } from '../json-number';
import path from 'node:path';
import { MemoryMatrixError } from '@memory-matrix/spec';

/** The browser-side scripts of report.html, in load order (src/report/html/client/). */
export const CLIENT_FILES = ['format.js', 'tables.js', 'operators.js', 'charts.js', 'main.js'] as const;

let cache: { chartJs: string; client: string; css: string; chartJsVersion: string } | undefined;

/**
 * The inline assets of report.html, read once per process: Chart.js's UMD build (the `chart.js`
 * npm package's dist/chart.umd.min.js, which defines the global `Chart` with every chart type
 * registered), the page's own scripts (each wrapped in its own function scope) and its stylesheet.
 * Throws `INVALID_INPUT` when an asset contains `</script` or `<!--`, which would end or confuse
 * the inline <script> element it is placed in.
 */
export function htmlAssets(): { chartJs: string; client: string; css: string; chartJsVersion: string } {
  if (cache) return cache;
  const chartDir = path.dirname(require.resolve('chart.js')); // …/chart.js/dist (chart.cjs)
  const chartFile = path.join(chartDir, 'chart.umd.min.js');
  const chartJs = readFileSync(chartFile, 'utf8');
  const chartJsVersion = /Chart\.js v(\d+\.\d+\.\d+)/.exec(chartJs)?.[1] ?? 'unknown';
  const clientDir = path.join(__dirname, 'client');
  const client = CLIENT_FILES.map((f) => `/* ${f} */\n(() => {\n${readFileSync(path.join(clientDir, f), 'utf8')}\n})();`).join('\n');
  const css = readFileSync(path.join(__dirname, 'page.css'), 'utf8');
  for (const [name, text] of [
    [chartFile, chartJs],
    [clientDir, client],
    ['page.css', css],
  ] as const) {
    if (/<\/script|<!--/i.test(text)) throw new MemoryMatrixError('INVALID_INPUT', `${name}: contains "</script" or "<!--" and cannot be inlined into report.html`);
  }
  cache = { chartJs, client, css, chartJsVersion };
  return cache;
}

/**
 * JSON for a `<script type="application/json">` element: `<`, `>` and `&` as \u escapes (valid
 * JSON, so `JSON.parse` of the element's text gives back exactly `value`), and U+2028/U+2029 too.
 * A non-finite number is its name in a string, as in report.json (`faithfulNumber`), not `null`.
 */
export function jsonForScript(value: unknown): string {
  return JSON.stringify(value, faithfulNumber)
    .replace(/</g, '\\u003c')
    .replace(/>/g, '\\u003e')
    .replace(/&/g, '\\u0026')
    .replace(/\u2028/g, '\\u2028')
    .replace(/\u2029/g, '\\u2029');
}
