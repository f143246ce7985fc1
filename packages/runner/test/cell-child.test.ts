/**
 * The child-cell protocol (src/cell-child): the arguments a child gets, how its report's one cell
 * is checked and taken, and what a child that crashes, writes no JSON, reports another target,
 * cannot be started or is stopped leaves: a CHILD_FAILED error naming the target, never an empty
 * cell. The children here are a real process (test/fixtures/fake-cell-child/child.js) standing in
 * for the CLI; test/cell-child-run.test.ts runs the real CLI as the child.
 */
import { readdirSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { cellFromChildReport, childRunArgs, embeddedMode } from '../src/cell-child/protocol';
import { startChildCell, type ChildCellOptions } from '../src/cell-child/spawn';
import type { MatrixReport } from '../src/report/model';

const FAKE = path.join(__dirname, 'fixtures', 'fake-cell-child', 'child.js');
const want = (target: string) => ({ target, datasetSha256: 'ds-sha', expectationSha256: 'exp-sha' });
const cellDirs = (): string[] => readdirSync(os.tmpdir()).filter((d) => d.startsWith('mm-cell-'));

function fake(target: string, extra: Partial<ChildCellOptions> = {}): { lines: string[]; opts: ChildCellOptions } {
  const lines: string[] = [];
  const opts: ChildCellOptions = {
    spec: { target, datasetDir: '/data/ds', checks: [] },
    want: want(target),
    log: (l) => lines.push(l),
    timeoutMs: 20_000,
    command: { file: process.execPath, args: [FAKE] },
    ...extra,
  };
  return { lines, opts };
}

describe('childRunArgs', () => {
  test('the parent selection for one target, never --update-golden', () => {
    expect(childRunArgs({ target: 'pgvector@pglite-pg18', datasetDir: '/d', reportDir: '/r', checks: ['C01', 'C03'], tierProfile: 'pr-gate', repeat: '3' })).toEqual([
      'run',
      '--backend',
      'pgvector@pglite-pg18',
      '--dataset',
      '/d',
      '--report-dir',
      '/r',
      '--parallel',
      '1',
      '--profile',
      'pr-gate',
      '--check',
      'C01,C03',
      '--repeat',
      '3',
    ]);
    expect(childRunArgs({ target: 'sqlite@x', datasetDir: '/d', reportDir: '/r', checks: [] })).toEqual(['run', '--backend', 'sqlite@x', '--dataset', '/d', '--report-dir', '/r', '--parallel', '1']);
  });

  test("the parent's load-order seed (already drawn for `random`) goes to the child as --load-seed, so every cell loads in the same order", () => {
    expect(childRunArgs({ target: 'sqlite@x', datasetDir: '/d', reportDir: '/r', checks: [], loadSeed: 0 }).slice(-2)).toEqual(['--load-seed', '0']);
    expect(childRunArgs({ target: 'sqlite@x', datasetDir: '/d', reportDir: '/r', checks: [], loadSeed: 4294967295 }).slice(-2)).toEqual(['--load-seed', '4294967295']);
  });
});

describe('cellFromChildReport', () => {
  const base = (): MatrixReport =>
    ({
      cells: [{ target: 'a@1', checks: [] }],
      dataset: { sha256: 'ds-sha' },
      expectation: { sha256: 'exp-sha' },
    }) as unknown as MatrixReport;
  test('takes the one cell of the target', () => {
    expect(cellFromChildReport(base(), want('a@1'), 'exit status 0').target).toBe('a@1');
  });
  test.each<[string, (r: MatrixReport) => void, RegExp]>([
    ['a run error', (r) => (r.error = { code: 'USAGE', message: 'bad --check' }), /a@1: the cell's child process ended with a run error USAGE: bad --check \(exit status 0\)/],
    ['another target', (r) => (r.cells[0]!.target = 'b@1'), /reported cell\(s\) \[b@1\], expected exactly a@1/],
    ['no cell', (r) => (r.cells = []), /reported cell\(s\) \[\], expected exactly a@1/],
    ['another dataset', (r) => (r.dataset!.sha256 = 'x'), /ran dataset sha256 x, the run has ds-sha/],
    ['another expectation', (r) => (r.expectation = null), /expectation sha256 none, the run has exp-sha/],
  ])('CHILD_FAILED on %s', (_, spoil, message) => {
    const r = base();
    spoil(r);
    expect(() => cellFromChildReport(r, want('a@1'), 'exit status 0')).toThrow(expect.objectContaining({ code: 'CHILD_FAILED', message: expect.stringMatching(message) }));
  });
});

describe('embeddedMode', () => {
  test('child processes when more than one cell runs, unless MM_EMBEDDED_INPROCESS says otherwise', () => {
    expect(embeddedMode(3, undefined)).toBe('child');
    expect(embeddedMode(1, undefined)).toBe('inprocess');
    expect(embeddedMode(1, '')).toBe('inprocess');
    expect(embeddedMode(3, '1')).toBe('inprocess');
    expect(embeddedMode(1, '0')).toBe('child');
  });
  test('USAGE on another value', () => {
    expect(() => embeddedMode(2, 'yes')).toThrow(expect.objectContaining({ code: 'USAGE', message: expect.stringContaining('MM_EMBEDDED_INPROCESS "yes"') }));
  });
});

describe('startChildCell (a real child process)', () => {
  test('a child that reports its cell: the cell, its stderr relayed with the target named, its temp dir removed', async () => {
    const before = cellDirs();
    const { lines, opts } = fake('ok@1');
    const cell = await startChildCell(opts).result;
    expect(cell.target).toBe('ok@1');
    expect(cell.checks.map((c) => [c.id, c.status])).toEqual([['C01', 'passed']]);
    expect(lines).toEqual(['✓ ok@1 × ds › C01 write-read', 'ok@1: an unprefixed line']);
    expect(cellDirs()).toEqual(before);
  });
  test.each<[string, RegExp]>([
    ['crash@1', /^crash@1: the cell's child process died \(exit status 3\) during its start; its last output:\n {2}boom: the engine fell over/s],
    ['garbage@1', /^garbage@1: the cell's child process ended \(exit status 1\) without a valid report \(.*report\.json: cannot read a report: .*JSON.*\) during its start/s],
    ['other@1', /^other@1: the cell's child process reported cell\(s\) \[someone@2\], expected exactly other@1/],
  ])('%s: CHILD_FAILED naming the target', async (target, message) => {
    const before = cellDirs();
    await expect(startChildCell(fake(target).opts).result).rejects.toMatchObject({ code: 'CHILD_FAILED', message: expect.stringMatching(message) });
    expect(cellDirs()).toEqual(before);
  });
  test('a program that cannot be started: CHILD_FAILED naming it', async () => {
    const { opts } = fake('ok@1', { command: { file: '/nonexistent/node', args: [] } });
    await expect(startChildCell(opts).result).rejects.toMatchObject({
      code: 'CHILD_FAILED',
      message: expect.stringMatching(/^ok@1: the cell's child process could not be started \(\/nonexistent\/node\): .*ENOENT/),
    });
  });
  test('stop(): SIGTERM to its pid; the partial cell it wrote is the result; the process is gone', async () => {
    const { lines, opts } = fake('hang@1');
    const child = startChildCell(opts);
    while (!lines.length) await new Promise((r) => setTimeout(r, 50)); // it is running
    await child.stop();
    const cell = await child.result;
    expect(cell.target).toBe('hang@1');
    expect(() => process.kill(child.pid!, 0)).toThrow(expect.objectContaining({ code: 'ESRCH' }));
  });
  test('a child past its time limit is stopped: CHILD_FAILED', async () => {
    const before = cellDirs();
    const { opts } = fake('hang@1', { timeoutMs: 500 });
    const child = startChildCell(opts);
    await expect(child.result).rejects.toMatchObject({
      code: 'CHILD_FAILED',
      message: expect.stringMatching(/^hang@1: the cell.s child process was stopped at its time limit of 500 ms \((exit status 143|signal SIGTERM)\) during its start/),
    });
    expect(cellDirs()).toEqual(before);
  });
});
