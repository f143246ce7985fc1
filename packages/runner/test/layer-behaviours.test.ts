/**
 * Declared layer behaviours (spec capabilities.ts `dropRemoves`, `closeReleases`) through the real
 * CLI: the toy driver (fixtures/toy-driver, MM_DRIVERS) with a catalog declaring both `false` on
 * the e-mail sample (C29 needs 6 memories). C29 runs its payload part and skips the dropped, recreated and closed
 * parts, each named in the figures, the notes, the console, report.md and report.html (`part skipped: capability …`);
 * never a silent pass. No Docker, no backend server: runs everywhere.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { cli, type CliResult } from './cli-helpers';
import { loadPage } from './page-dom';

const TOY = path.join(__dirname, 'fixtures', 'toy-driver');

describe('a drop that is a reset and no close(), declared', () => {
  const tmp = mkdtempSync(path.join(os.tmpdir(), 'mm-behaviours-'));
  let r: CliResult;
  beforeAll(() => {
    const catalog = path.join(tmp, 'targets.yaml');
    writeFileSync(
      catalog,
      readFileSync(path.join(TOY, 'targets.yaml'), 'utf8').replace('    expect: { toy: "1.0.0" }', '    expect: { toy: "1.0.0" }\n    capabilities: { dropRemoves: false, closeReleases: false }'),
    );
    r = cli(['--backend', 'toy@1', '--dataset', 'email-sample', '--check', 'C29'], { env: { MM_DRIVERS: path.join(TOY, 'index.ts'), MM_CATALOG: catalog } });
  }, 240_000);
  afterAll(() => rmSync(tmp, { recursive: true, force: true }));

  test('C29 skips the dropped, recreated and closed parts naming the flag; the payload part runs', () => {
    expect({ status: r.status, error: r.report?.error }).toEqual({ status: 0, error: undefined });
    const c29 = r.report!.cells[0]!.checks.find((c) => c.id === 'C29')!;
    expect(c29.status).toBe('passed');
    expect(c29.figures).toMatchObject({ dropped: 'skipped (capability: dropRemoves)', recreated: 'skipped (capability: dropRemoves)', closed: 'skipped (capability: closeReleases)' });
    expect(Object.keys(c29.figures).filter((k) => /^(dropped|recreated|closed)\./.test(k))).toEqual([]);
    expect(c29.figures['payload.upsert']).toBeDefined();
    expect(c29.notes.join('\n')).toMatch(/capability: dropRemoves[\s\S]*capability: closeReleases/);
    expect(r.stdout).toMatch(/C29 backend-errors\s*│\s*pass \(part skipped: capability dropRemoves, closeReleases\)/);
  });

  test('report.md and report.html name the skipped parts beside the verdict, as the console does', () => {
    expect(readFileSync(path.join(r.reportDir, 'report.md'), 'utf8')).toMatch(/\| C29 backend-errors \| pass \(part skipped: capability dropRemoves, closeReleases\) \|/);
    const td = loadPage()
      .checkMatrix(r.report)
      .all((e) => e.tag === 'td' && e.dataset.check === 'C29')[0]!;
    expect(td.textContent).toBe('passpart skipped: capability dropRemoves, closeReleases');
    expect(td.all((e) => e.dataset.mm === 'part-skipped')).toHaveLength(1);
  });
});
