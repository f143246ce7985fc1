/**
 * `memory-matrix merge`: three shard runs of the embedded profile (3 targets, one per shard)
 * merged into one report have the same verdict, per cell per check, as the unsharded run;
 * inputs that disagree (dataset sha256, a lost shard, a target twice) exit 2 naming the files,
 * and the exit status follows the merged verdicts.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { loadCatalog } from '@memory-matrix/targets';
import type { MatrixReport } from '../src/report/model';
import { cli, REPO, RUNNER_DIR } from './cli-helpers';

const CHECKS = ['--check', 'C11', '--check', 'C21'];

/** `memory-matrix merge <files…> --report-dir <new dir>` as a child process, like `pnpm matrix merge`. */
function merge(files: string[]): { status: number | null; stdout: string; stderr: string; dir: string; report: MatrixReport } {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'mm-merged-'));
  const env: NodeJS.ProcessEnv = { ...process.env, FORCE_COLOR: '0' };
  delete env.JEST_WORKER_ID;
  const r = spawnSync(process.execPath, [require.resolve('tsx/cli'), path.join(RUNNER_DIR, 'src', 'cli.ts'), 'merge', ...files, '--report-dir', dir], {
    cwd: REPO,
    encoding: 'utf8',
    env,
    timeout: 60_000,
  });
  const report = JSON.parse(readFileSync(path.join(dir, 'report.json'), 'utf8')) as MatrixReport;
  return { status: r.status, stdout: r.stdout, stderr: r.stderr, dir, report };
}

/** target → check id → status, the verdicts a merge must keep. */
const verdicts = (r: MatrixReport): Record<string, Record<string, string>> => Object.fromEntries(r.cells.map((c) => [c.target, Object.fromEntries(c.checks.map((k) => [k.id, k.status]))]));

/** A copy of a report.json with a change, in a new temp file. */
function variant(file: string, change: (r: MatrixReport) => void): string {
  const r = JSON.parse(readFileSync(file, 'utf8')) as MatrixReport;
  change(r);
  const out = path.join(mkdtempSync(path.join(os.tmpdir(), 'mm-variant-')), 'report.json');
  writeFileSync(out, JSON.stringify(r));
  return out;
}

let whole: MatrixReport;
let shards: string[];

beforeAll(() => {
  const w = cli(['--profile', 'embedded', ...CHECKS]);
  expect(w.status).toBe(0);
  whole = w.report!;
  shards = ['1/3', '2/3', '3/3'].map((s) => {
    const r = cli(['--profile', 'embedded', '--shard', s, ...CHECKS]);
    expect(r.status).toBe(0);
    expect(r.report!.shard).toBe(s);
    return path.join(r.reportDir, 'report.json');
  });
}, 480_000);

describe('memory-matrix merge', () => {
  test('three shards merged = the unsharded run: same cells in target order, same verdicts, summary, exit 0', () => {
    const m = merge(shards);
    expect(m.status).toBe(0);
    // The embedded profile as targets.yaml lists it today (a target joining it joins here too).
    expect(m.report.cells.map((c) => c.target)).toEqual([...loadCatalog().profiles.get('embedded')!.targets].sort());
    expect(m.report.cells.map((c) => c.target)).toEqual(whole.cells.map((c) => c.target).sort());
    expect(verdicts(m.report)).toEqual(verdicts(whole));
    expect(Object.keys(verdicts(m.report)['pgvector@pglite-pg18']!)).toEqual(['C11', 'C21']);
    expect(m.report.summary).toEqual(whole.summary);
    expect(m.report.exitCode).toBe(whole.exitCode);
    // The merge orders cells by target name; the unsharded run keeps the profile's order.
    const byName = (cm: MatrixReport['capabilityMatrix']) => cm && { ...cm, targets: [...cm.targets].sort((a, b) => a.target.localeCompare(b.target)) };
    expect(byName(m.report.capabilityMatrix)).toEqual(byName(whole.capabilityMatrix));
    expect(m.report.dataset).toEqual(whole.dataset);
    expect(m.report.mergedFrom!.map((x) => x.shard)).toEqual(['1/3', '2/3', '3/3']);
    expect(m.report.shard).toBeNull();
    for (const f of ['report.json', 'junit.xml', 'report.md', 'report.html']) expect(existsSync(path.join(m.dir, f))).toBe(true);
    expect(readFileSync(path.join(m.dir, 'junit.xml'), 'utf8')).toContain('tests="8"');
    expect(m.stdout).toContain('8 passed, 0 failed, 0 known, 0 skipped');
  });

  test('the exit status is recomputed: a failed check in one shard makes the merge exit 1', () => {
    const failed = variant(shards[1]!, (r) => {
      const c = r.cells[0]!.checks[0]!;
      c.status = 'failed';
      c.failures = [{ dataset: 'agent-memories', target: r.cells[0]!.target, queryId: '-', kind: 'roundtrip', message: 'changed for the test' }];
      r.exitCode = 1;
    });
    const m = merge([shards[0]!, failed, shards[2]!]);
    expect(m.status).toBe(1);
    expect(m.report.summary).toMatchObject({ passed: 7, failed: 1 });
  });

  test('a different dataset sha256 exits 2 naming both files', () => {
    const other = variant(shards[1]!, (r) => (r.dataset!.sha256 = '0'.repeat(64)));
    const m = merge([shards[0]!, other, shards[2]!]);
    expect(m.status).toBe(2);
    expect(m.report.error!.message).toContain('different datasets');
    expect(m.report.error!.message).toContain(shards[0]!);
    expect(m.report.error!.message).toContain(other);
    expect(m.stdout).toContain(other);
    expect(m.report.cells).toEqual([]);
  });

  test('a lost shard, a shard given twice, or a target in two reports exits 2 naming the files', () => {
    const lost = merge([shards[0]!, shards[2]!]);
    expect(lost.status).toBe(2);
    expect(lost.report.error!.message).toContain('2/3 missing');
    const twice = merge([shards[0]!, shards[1]!, shards[1]!, shards[2]!]);
    expect(twice.status).toBe(2);
    expect(twice.report.error!.message).toMatch(/shard 2\/3 is given twice/);
    const dup = variant(shards[1]!, (r) => (r.shard = null));
    const both = merge([...shards, dup]);
    expect(both.status).toBe(2);
    expect(both.report.error!.message).toContain(`is in both ${shards[1]} and ${dup}`);
    const same = merge([dup, dup]); // an unsharded report given twice: said as such (was "is in both X and X")
    expect(same.status).toBe(2);
    expect(same.report.error!.message).toContain(`${dup} is given twice; give each report.json once`);
  });

  test('a file that is not a report exits 2 naming it', () => {
    const bad = path.join(mkdtempSync(path.join(os.tmpdir(), 'mm-bad-')), 'report.json');
    writeFileSync(bad, '{"format":"something-else"}');
    const m = merge([shards[0]!, bad]);
    expect(m.status).toBe(2);
    expect(m.report.error).toMatchObject({ code: 'INVALID_INPUT' });
    expect(m.report.error!.message).toContain(bad);
    expect(m.stdout).toMatch(/^nothing merged \(INVALID_INPUT\); the report of the refusal: .*report\.json/m);
    expect(m.stdout).not.toMatch(/^merged /m);
  });
});
