/**
 * report.html as a person meets it: a real run (pgvector@pglite-pg18, C03 + C05 + C11, on a copy
 * of the golden data whose expectation has one score moved by +0.001, so two checks fail) writes
 * report.html beside the other reports; Debian's Chromium (driven by playwright-core) opens it
 * with networking off, and the test checks that the plots drew pixels, that the numbers shown are
 * report.json's, that the page asked for nothing over the network, and saves report.png.
 * Under CI=true a missing Chromium fails; elsewhere the browser tests skip with the reason.
 */
/* eslint-disable @typescript-eslint/no-explicit-any -- page.evaluate / $$eval callbacks run in the browser; the tests compile without the DOM lib */
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { chromium, type BrowserContext, type Page } from 'playwright-core';
import { failureLines } from '../src/report/failure-groups';
import { fmt, headlineMaxDelta, headlineRecall, headlineRecallMin, headlineRecallOf, recallText } from '../src/report/figures';
import { capabilityMatrix } from '../src/report/capabilities';
import { renderConsole } from '../src/report/console';
import { renderMarkdown } from '../src/report/markdown';
import type { MatrixReport } from '../src/report/model';
import type { CheckResult } from '@memory-matrix/spec';
import { renderHtml } from '../src/report/html';
import { settleReport } from '../src/report/settle';
import { reportView } from '../src/report/view';
import { cli, copyGolden } from './cli-helpers';

const CHROMIUM = process.env.MM_CHROMIUM ?? '/usr/bin/chromium';
const ARGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'];
const missing = existsSync(CHROMIUM) ? null : `${CHROMIUM} not found (install it: apt-get install -y chromium)`;
if (missing) console.warn(`html.test: browser checks ${process.env.CI === 'true' ? 'FAIL (CI=true)' : 'skipped'}: ${missing}`);
const browserTest = missing && process.env.CI !== 'true' ? test.skip : test;
const title = (t: string): string => (missing && process.env.CI !== 'true' ? `${t} [skipped: ${missing}]` : t);

let run: ReturnType<typeof cli>;
let report: MatrixReport;
let golden: string;
/** More pages for the browser: [report.html path, a text the page must show, skipped verdicts it shows]. */
const morePages: Array<[string, string, number]> = [];

beforeAll(() => {
  golden = copyGolden();
  const file = path.join(golden, 'expected', 'oracle.jsonl');
  const lines = readFileSync(file, 'utf8').split('\n');
  const entry = JSON.parse(lines[2]!) as { query: string; hits: Array<[string, number]> };
  entry.hits[0]![1] += 0.001;
  lines[2] = JSON.stringify(entry);
  writeFileSync(file, lines.join('\n'));
  run = cli(['--backend', 'pgvector@pglite-pg18', '--dataset', golden, '--check', 'C03', '--check', 'C05', '--check', 'C11']);
  report = JSON.parse(readFileSync(path.join(run.reportDir, 'report.json'), 'utf8')) as MatrixReport;
}, 240_000);
afterAll(() => rmSync(path.dirname(golden), { recursive: true, force: true }));

describe('report.html: written and self-contained', () => {
  test('the run writes report.html beside report.json, junit.xml and report.md', () => {
    expect(run.status).toBe(1);
    for (const f of ['report.json', 'junit.xml', 'report.md', 'report.html']) expect(statSync(path.join(run.reportDir, f)).size).toBeGreaterThan(0);
    expect(report.summary).toMatchObject({ passed: 1, failed: 2, skipped: 0 });
    expect(run.stdout).toContain('report.html');
  });

  test('everything is inline: no src/href/url() to fetch, a CSP that forbids fetching, the report embedded verbatim', () => {
    const html = readFileSync(path.join(run.reportDir, 'report.html'), 'utf8');
    expect(html.match(/<script[^>]+src=|<link\b|<img\b|<iframe\b|<object\b|@import|\burl\(/gi) ?? []).toEqual([]);
    expect(html).toContain(`content="default-src 'none'; script-src 'unsafe-inline'`);
    const json = /<script type="application\/json" id="mm-report">([\s\S]*?)<\/script>/.exec(html)![1]!;
    expect(JSON.parse(json)).toEqual(report);
    // The failure lines the page lists for an expanded FAIL: one per cause, keyed `<target> <check>` (failure-groups.ts).
    const lines = JSON.parse(/<script type="application\/json" id="mm-failure-lines">([\s\S]*?)<\/script>/.exec(html)![1]!) as Record<string, string[]>;
    const failed = report.cells.flatMap((c) => c.checks.filter((k) => k.status === 'failed' && k.failures.length).map((k) => [`${c.target} ${k.id}`, failureLines(k.failures, 20)] as const));
    expect(failed.length).toBeGreaterThan(0);
    expect(lines).toEqual(Object.fromEntries(failed));
    expect(html.length).toBeLessThan(report.cells.length * 200_000 + 400_000);
  });

  test('a run that could not be carried out (exit 2) still writes report.html', () => {
    const r = cli(['--backend', 'pgvector@pg99']);
    expect(r.status).toBe(2);
    const html = readFileSync(path.join(r.reportDir, 'report.html'), 'utf8');
    expect(html).toContain('UNKNOWN_TARGET');
    morePages.push([path.join(r.reportDir, 'report.html'), 'UNKNOWN_TARGET: unknown target "pgvector@pg99"', 0]);
  });
});

describe('report data behind the page', () => {
  test('per-query series agree with the check figures they refine', () => {
    const cell = report.cells[0]!;
    const fig = (id: string, k: string): unknown => cell.checks.find((c) => c.id === id)!.figures[k];
    const { exact, index } = cell.queries!;
    expect(exact!.queryIds).toHaveLength(report.dataset!.queries);
    expect(Math.max(...exact!.maxAbsScoreDelta)).toBe(fig('C03', 'maxAbsScoreDelta'));
    expect(Math.min(...exact!.recallAtK)).toBe(fig('C03', 'recallAtKMin'));
    expect(Math.max(...index!.maxAbsScoreDelta)).toBe(fig('C05', 'maxAbsScoreDelta'));
    expect(Math.min(...index!.recallAtK)).toBe(fig('C05', 'recallAtKMin'));
    expect(index!.worst[0]!.recallAtK).toBe(fig('C05', 'recallAtKMin'));
    expect(statSync(path.join(run.reportDir, 'report.json')).size).toBeLessThan(120_000);
  });

  test('capability matrix: ✓ per declared capability, ✗ naming the checks skipped for it', () => {
    const cell = report.cells[0]!;
    expect(cell.capabilities).toMatchObject({ vectors: true, exactScan: true });
    const row = report.capabilityMatrix!.targets[0]!;
    expect(row.entries.vectors).toEqual({ ok: true, value: true });
    expect(row.entries.history).toMatchObject({ ok: false, reason: 'not declared by the target' });
    // The same cell as a target without vectors: its vector checks were skipped for it.
    const noVec = {
      ...cell,
      target: 'x@no-vectors',
      capabilities: { ...cell.capabilities!, vectors: false },
      queries: undefined,
      checks: cell.checks.map((c) => (c.id === 'C11' ? c : { ...c, status: 'skipped' as const, skipReason: 'capability: vectors', failures: [] })),
    };
    const m = capabilityMatrix([cell, noVec]);
    expect(m.targets[1]!.entries.vectors).toEqual({ ok: false, value: false, reason: 'skipped C03, C05 (capability: vectors)', skippedChecks: ['C03', 'C05'] });
    const r2 = settleReport({ ...report, cells: [cell, noVec] });
    expect(renderMarkdown(reportView(r2))).toContain('| vectors | ✓ | ✗ skipped C03, C05 (capability: vectors) |');
    expect(renderConsole(reportView(r2), false)).toContain('capabilities x@no-vectors: ✓ metrics');
    expect(renderConsole(reportView(r2), false)).toContain('vectors(skipped C03,C05)');
    const page2 = path.join(run.reportDir, 'variant-two-targets.html');
    writeFileSync(page2, renderHtml(r2));
    morePages.push([page2, 'skipped C03, C05 (capability: vectors)', 2]);
  });

  test('durability table: C15 rows (memories and "(history)" chat messages) are embedded for the page', () => {
    const row = {
      target: 'redis@8.0',
      durable: true,
      acknowledged: 2088,
      acknowledgedBatches: 696,
      lost: 0,
      phantomInFlight: 18,
      phantomUnknown: 0,
      duplicated: 0,
      changed: 0,
      cycles: 5,
      verdict: 'pass' as const,
    };
    const r3 = {
      ...settleReport({ ...report }),
      durability: [
        { ...row, configuration: 'aof-always' },
        { ...row, configuration: 'aof-always (history)' },
        { ...row, configuration: 'rdb (history)', durable: false, lost: 2466, verdict: 'reported' as const },
      ],
    };
    const page3 = path.join(run.reportDir, 'variant-durability.html');
    writeFileSync(page3, renderHtml(r3));
    morePages.push([page3, 'aof-always (history)', 0]);
  });
  test("side by side: a client target next to its server's raw target is embedded for the page", () => {
    // The run's cell as a client target over the same server: C05 skipped for a capability, C11 for a profile's tier.
    // The server's C05 fails in this run (the tampered expectation): a difference is explained by the side that did worse.
    const server = report.cells[0]!;
    const client = {
      ...server,
      target: 'client@x',
      server: server.target,
      queries: undefined,
      checks: server.checks.map((c) =>
        c.id === 'C05'
          ? { ...c, status: 'skipped' as const, skipReason: 'capability: annIndexes', failures: [] }
          : c.id === 'C11'
            ? { ...c, status: 'skipped' as const, skipReason: 'profile p: runs in release' }
            : c,
      ),
    };
    const r4 = settleReport({ ...report, cells: [client, server] });
    expect(r4.sideBySide).toHaveLength(1);
    expect(r4.sideBySide[0]!.differences.map((d) => [d.id, d.why.kind])).toEqual([
      ['C05', 'failure'],
      ['C11', 'skipped'],
    ]);
    expect(r4.sideBySide[0]!.differences[0]!.why).toMatchObject({ side: 'server', text: expect.stringMatching(/^pgvector@pglite-pg18 fails it/) });
    expect(renderMarkdown(reportView(r4))).toContain('### Client vs server, side by side');
    const page4 = path.join(run.reportDir, 'variant-side-by-side.html');
    writeFileSync(page4, renderHtml(r4));
    morePages.push([page4, 'client@x next to pgvector@pglite-pg18', 2]);
  });
  test("filter operators: C31's operator table per cell in report.json, report.md, the console and the page; a skipped C31 shows every operator unsupported", () => {
    const cell = report.cells[0]!;
    const c31: CheckResult = {
      id: 'C31',
      name: 'filter-semantics',
      status: 'failed',
      figures: { casesRun: 3 },
      failures: [{ dataset: 'd', target: cell.target, queryId: 'q-0001', kind: 'filter', message: 'C31 case "ne-x" failed' }],
      notes: [],
      durationMs: 1,
      tables: [
        {
          title: 'filter operators',
          columns: ['operator', 'status', 'pass', 'fail', 'unsupported'],
          rows: [
            ['$eq', 'pass', 3, 0, 1],
            ['$ne', 'fail', 1, 1, 0],
            ['$contains', 'unsupported', 0, 0, 2],
          ],
        },
      ],
    };
    const skipped: CheckResult = { id: 'C31', name: 'filter-semantics', status: 'skipped', skipReason: 'capability: filterOperators', figures: {}, failures: [], notes: [], durationMs: 0 };
    const other = { ...cell, target: 'y@no-filters', queries: undefined, checks: [...cell.checks, skipped] };
    const r5 = settleReport({ ...report, cells: [{ ...cell, checks: [...cell.checks, c31] }, other] });
    expect(r5.filterOperators.targets.map((t) => [t.target, t.check])).toEqual([
      [cell.target, 'failed'],
      ['y@no-filters', 'skipped'],
    ]);
    expect(r5.filterOperators.targets[0]!.entries.$ne).toEqual({ status: 'fail', pass: 1, fail: 1, unsupported: 0 });
    expect(r5.filterOperators.targets[1]!.reason).toBe('C31 skipped (capability: filterOperators)');
    expect(Object.values(r5.filterOperators.targets[1]!.entries).every((e) => e.status === 'unsupported')).toBe(true);
    const md = renderMarkdown(reportView(r5));
    expect(md).toContain('| $ne | FAIL 1/2 | unsupported |');
    expect(md).toContain('| $eq | pass 3 (+1 unsupported) | unsupported |');
    expect(renderConsole(reportView(r5), false)).toContain(`filter operators ${cell.target}: $eq pass 3 (+1 unsupported) · $ne FAIL 1/2`);
    const page5 = path.join(run.reportDir, 'variant-filter-operators.html');
    writeFileSync(page5, renderHtml(r5));
    morePages.push([page5, 'Filter operators (C31: target × operator)', 1]);
  });
});

describe('report.html in Chromium (playwright-core, no network)', () => {
  let ctx: BrowserContext;
  let page: Page;
  const requests: string[] = [];
  const problems: string[] = [];
  const htmlUrl = (): string => 'file://' + path.join(run.reportDir, 'report.html');

  if (missing && process.env.CI === 'true') {
    test('Chromium is installed (required under CI=true)', () => {
      throw new Error(missing);
    });
    return;
  }

  beforeAll(async () => {
    if (missing) return;
    ctx = await chromium.launchPersistentContext(mkdtempSync(path.join(os.tmpdir(), 'mm-chromium-')), { executablePath: CHROMIUM, headless: true, args: ARGS, viewport: { width: 1280, height: 900 } });
    ctx.on('request', (r) => requests.push(r.url()));
    page = await ctx.newPage();
    page.on('pageerror', (e) => problems.push(`pageerror: ${e.message}`));
    page.on('console', (m) => (m.type() === 'error' ? problems.push(`console.error: ${m.text()}`) : undefined));
    await page.goto(htmlUrl());
    await page.waitForSelector('html[data-mm-rendered="true"]', { state: 'attached', timeout: 30_000 });
  }, 60_000);
  afterAll(async () => {
    await ctx?.close();
  });

  browserTest(title('the page renders without errors and makes no network request'), async () => {
    expect(problems).toEqual([]);
    expect(await page.locator('[data-mm="render-error"]').count()).toBe(0);
    expect(requests).toEqual([htmlUrl()]);
    const external = await page.evaluate(() => {
      const d = (globalThis as any).document;
      return [...d.querySelectorAll('[src],[href]')].map((e: any) => e.getAttribute('src') ?? e.getAttribute('href'));
    });
    expect(external).toEqual([]);
  });

  browserTest(title('each plot drew on its canvas (non-blank pixels)'), async () => {
    const painted = await page.evaluate(() => {
      const d = (globalThis as any).document;
      return [...d.querySelectorAll('canvas')].map((c: any) => {
        const px = c.getContext('2d').getImageData(0, 0, c.width, c.height).data;
        let n = 0;
        for (let i = 3; i < px.length; i += 4) if (px[i] > 0) n++;
        return { id: c.id, width: c.width, height: c.height, painted: n };
      });
    });
    expect(painted.map((p: { id: string }) => p.id)).toEqual(['chart-recall', 'chart-delta', 'chart-ranks']);
    for (const p of painted) {
      expect(p.width).toBeGreaterThan(300);
      expect(p.painted).toBeGreaterThan(2000);
    }
  });

  browserTest(title('numbers shown equal report.json: counts, per-check verdicts, recall@10, max |Δscore|'), async () => {
    const text = (sel: string): Promise<string> => page.locator(sel).innerText();
    for (const k of ['passed', 'failed', 'skipped', 'cellErrors'] as const) expect(await text(`[data-mm="count-${k}"]`)).toBe(String(report.summary[k]));
    expect(await page.getAttribute('[data-mm="verdict"]', 'data-exit')).toBe('1');
    for (const cell of report.cells) {
      const t = `[data-target="${cell.target}"]`;
      for (const [mm, v, shown] of [
        ['recall', headlineRecall(cell), recallText(headlineRecall(cell), headlineRecallOf(cell, 'recallAtKMean')!.from)],
        ['recall-min', headlineRecallMin(cell), recallText(headlineRecallMin(cell), headlineRecallOf(cell, 'recallAtKMin')!.from)],
        ['max-delta', headlineMaxDelta(cell), fmt(headlineMaxDelta(cell))],
      ] as const) {
        expect(await text(`td[data-mm="${mm}"]${t}`)).toBe(shown);
        expect(await page.getAttribute(`td[data-mm="${mm}"]${t}`, 'data-value')).toBe(String(v));
      }
      // This run has C05: the recall rows say the figure is ANN recall, as the console and report.md do.
      expect(await text(`td[data-mm="recall"]${t}`)).toMatch(/ \(ANN, C05\)$/);
      for (const c of cell.checks) expect(await page.getAttribute(`td[data-mm="check"]${t}[data-check="${c.id}"]`, 'data-status')).toBe(c.status);
    }
    // The histogram's largest |Δscore| is the largest per-query delta, here C03's figure (1e-3 moved).
    const histMax = Number(await page.getAttribute('[data-mm="hist-max-delta"]', 'data-value'));
    expect(histMax).toBe(Math.max(...report.cells.map((c) => headlineMaxDelta(c) ?? 0)));
    expect(histMax).toBeGreaterThan(9e-4);
  });

  browserTest(title('a failure names its query on hover and lists its failures when expanded'), async () => {
    const c03 = report.cells[0]!.checks.find((c) => c.id === 'C03')!;
    const td = page.locator('td[data-mm="check"][data-check="C03"]');
    expect(await td.getAttribute('title')).toBe(c03.failures[0]!.message);
    await td.locator('summary').click();
    const lines = failureLines(c03.failures, 20); // one line per cause (failure-groups.ts)
    expect(await td.locator('li').count()).toBe(lines.length);
    expect(await td.locator('li').allInnerTexts()).toEqual(lines);
    expect(await td.locator('li').first().innerText()).toContain(c03.failures[0]!.queryId);
  });

  browserTest(title('capability matrix and provenance show report.json'), async () => {
    const rows = report.capabilityMatrix!.targets;
    const cells = await page.$$eval('td[data-mm="capability"]', (els: any[]) => els.map((e) => `${e.dataset.target}/${e.dataset.capability}/${e.dataset.ok}`));
    expect(cells.sort()).toEqual(rows.flatMap((r) => Object.entries(r.entries).map(([k, e]) => `${r.target}/${k}/${e.ok}`)).sort());
    expect(await page.locator('[data-mm="dataset-sha256"]').innerText()).toBe(report.dataset!.sha256);
    expect(await page.locator('[data-mm="tool-version"]').innerText()).toContain(report.tool.version);
    const prov = await page.locator('#provenance-targets').innerText();
    for (const v of Object.values(report.cells[0]!.components)) expect(prov).toContain(v);
  });

  browserTest(title('a run that could not be carried out, a target whose checks were skipped, a durability table, a side-by-side view and a filter-operator table render too'), async () => {
    expect(morePages).toHaveLength(5);
    for (const [file, shown, skipped] of morePages) {
      const p = await ctx.newPage();
      const errors: string[] = [];
      p.on('pageerror', (e) => errors.push(e.message));
      const before = requests.length;
      await p.goto('file://' + file);
      await p.waitForSelector('html[data-mm-rendered="true"]', { state: 'attached', timeout: 30_000 });
      expect(errors).toEqual([]);
      expect(await p.locator('[data-mm="render-error"]').count()).toBe(0);
      expect(await p.locator('#app').innerText()).toContain(shown);
      expect(await p.locator('td[data-mm="check"][data-status="skipped"]').count()).toBe(skipped);
      // The durability table shows one row per report.durability entry, with the same verdict.
      const dur = (JSON.parse(readFileSync(file, 'utf8').match(/id="mm-report">([\s\S]*?)<\/script>/)![1]!) as MatrixReport).durability ?? [];
      expect(await p.$$eval('tr[data-mm="durability"]', (els: any[]) => els.map((e) => `${e.dataset.configuration}/${e.dataset.verdict}`))).toEqual(dur.map((d) => `${d.configuration}/${d.verdict}`));
      // The side-by-side view shows one row per difference of report.sideBySide, with its explanation's kind.
      const pairs = (JSON.parse(readFileSync(file, 'utf8').match(/id="mm-report">([\s\S]*?)<\/script>/)![1]!) as MatrixReport).sideBySide ?? [];
      expect(await p.$$eval('tr[data-mm="side-by-side-row"] [data-mm="side-by-side-why"]', (els: any[]) => els.map((e) => e.dataset.kind))).toEqual(
        pairs.flatMap((x) => x.differences.map((d) => d.why.kind)),
      );
      // The filter-operator table shows one cell per report.filterOperators entry, with its status.
      const ops = (JSON.parse(readFileSync(file, 'utf8').match(/id="mm-report">([\s\S]*?)<\/script>/)![1]!) as MatrixReport).filterOperators?.targets ?? [];
      expect((await p.$$eval('td[data-mm="operator"]', (els: any[]) => els.map((e) => `${e.dataset.target}/${e.dataset.operator}/${e.dataset.status}`))).sort()).toEqual(
        ops.flatMap((t) => Object.entries(t.entries).map(([op, e]) => `${t.target}/${op}/${e.status}`)).sort(),
      );
      expect(requests.slice(before)).toEqual(['file://' + file]);
      await p.close();
    }
  });

  browserTest(title('the rank-change view lists the worst queries and plots another on click'), async () => {
    const worst = report.cells[0]!.queries!.index!.worst;
    expect(worst.length).toBeGreaterThan(0);
    expect(await page.locator('#worst-queries tbody tr').count()).toBe(worst.length + (report.cells[0]!.queries!.exact?.worst.length ?? 0));
    const last = page.locator('#worst-queries tbody tr').last();
    await last.click();
    expect(await last.getAttribute('class')).toContain('sel');
    await page.screenshot({ path: path.join(run.reportDir, 'report.png'), fullPage: true });
    expect(statSync(path.join(run.reportDir, 'report.png')).size).toBeGreaterThan(50_000);
    console.log(`html.test: screenshot ${path.join(run.reportDir, 'report.png')}`);
  });
});
