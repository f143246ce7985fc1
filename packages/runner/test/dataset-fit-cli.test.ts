/**
 * A dataset in a metric the target does not declare, through the real CLI and the runner's cell
 * registration (registerTargetCell passes the dataset's metric and dimension): the toy driver
 * (fixtures/toy-driver, MM_DRIVERS) narrowed by its catalog to `metrics: [cosine]`, on an
 * inner-product copy of the tiny golden fixture. Every check that stores the dataset's memories is
 * one visible skip naming the metric; C10 (its own metrics at the dataset's dimension) runs; no
 * check fails, so the run exits 0 with the skips listed (a skip changes no exit status).
 * No Docker, no backend server: runs everywhere.
 */
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { CHECKS } from '@memory-matrix/spec';
import { cli, REPO, type CliResult } from './cli-helpers';

const TOY = path.join(__dirname, 'fixtures', 'toy-driver');
const TINY = path.join(REPO, 'packages', 'spec', 'test', 'fixtures', 'golden-tiny');

describe('an ip dataset on a target that declares cosine only', () => {
  const tmp = mkdtempSync(path.join(os.tmpdir(), 'mm-fit-'));
  let r: CliResult;
  beforeAll(() => {
    // The tiny fixture with its manifest's metric set to ip (its vectors are unit length: any metric holds them).
    const ds = path.join(tmp, 'tiny-ip');
    cpSync(TINY, ds, { recursive: true });
    const mf = path.join(ds, 'manifest.json');
    writeFileSync(mf, readFileSync(mf, 'utf8').replace('"metric": "cosine"', '"metric": "ip"').replace('"name": "golden-tiny"', '"name": "tiny-ip"'));
    const catalog = path.join(tmp, 'targets.yaml');
    writeFileSync(catalog, readFileSync(path.join(TOY, 'targets.yaml'), 'utf8').replace('    expect: { toy: "1.0.0" }', '    expect: { toy: "1.0.0" }\n    capabilities: { metrics: [cosine] }'));
    r = cli(['--backend', 'toy@1', '--dataset', ds, '--update-golden'], { env: { MM_DRIVERS: path.join(TOY, 'index.ts'), MM_CATALOG: catalog } });
  }, 240_000);
  afterAll(() => rmSync(tmp, { recursive: true, force: true }));

  test('every vector check is one skip naming capability metrics (ip); C10 passes; exit 0', () => {
    expect(r.report?.error).toBeUndefined();
    expect(r.status).toBe(0);
    const cell = r.report!.cells.find((c) => c.target === 'toy@1')!;
    expect(cell.checks).toHaveLength(CHECKS.length);
    const byId = Object.fromEntries(cell.checks.map((c) => [c.id, c]));
    expect(byId.C10!.status).toBe('passed');
    for (const id of ['C01', 'C02', 'C03', 'C04', 'C06', 'C07', 'C08', 'C09', 'C11', 'C12', 'C13', 'C14', 'C21', 'C25', 'C27', 'C29'])
      expect([id, byId[id]!.status, byId[id]!.skipReason]).toEqual([id, 'skipped', 'capability: metrics (ip)']);
    expect(cell.checks.filter((c) => c.status === 'failed')).toEqual([]);
    expect(r.stdout + r.stderr).toMatch(/C03 topk-exact \[skipped: capability: metrics \(ip\)\]/);
  });
});
