/**
 * The report dir is checked before anything starts (report/dir.ts): created level by level,
 * refused with USAGE naming the flag, the dir and the reason. `/proc/nope/x` is the case where
 * Node 20's own `mkdirSync(…, { recursive: true })` never returns. Every report and baseline is
 * written through report/atomic.ts (temporary name, rename): a write that fails leaves the old
 * file and no temporary file.
 */
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { writeBaseline } from '../src/baseline/file';
import type { Baseline } from '../src/baseline/model';
import { writeMigrationReports, type MigrationReport } from '../src/migrate/report';
import { tempFileOf, writeFileAtomic, writeFilesAtomic } from '../src/report/atomic';
import { makeDirs } from '@memory-matrix/spec';
import { ensureWritableDir } from '../src/report/dir';
import { emptyReport } from '../src/report/model';
import { settleReport } from '../src/report/settle';
import { reportView } from '../src/report/view';
import { writeReports } from '../src/report/write';
import { summarize, type SelftestReport } from '../src/selftest/model';
import { writeSelftestReports } from '../src/selftest/run';

let tmp: string;
beforeAll(() => (tmp = mkdtempSync(path.join(os.tmpdir(), 'mm-report-dir-'))));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

describe('report dir (report/dir.ts)', () => {
  test('missing levels are created; an existing dir is fine', () => {
    const dir = path.join(tmp, 'a', 'b', 'c');
    makeDirs(dir);
    expect(statSync(dir).isDirectory()).toBe(true);
    expect(() => ensureWritableDir(dir, 'reports')).not.toThrow();
  });

  test('a file in the way or as a parent is USAGE naming the dir and the reason', () => {
    const file = path.join(tmp, 'file');
    writeFileSync(file, 'x');
    expect(() => ensureWritableDir(file, 'reports')).toThrow(expect.objectContaining({ code: 'USAGE' }));
    expect(() => ensureWritableDir(file, 'reports')).toThrow(`--report-dir ${file}: cannot write reports there: it is a file, not a directory`);
    expect(() => ensureWritableDir(path.join(file, 'sub'), 'the diff')).toThrow(/cannot write the diff there: a parent of it is a file, not a directory \(ENOTDIR\)$/);
  });

  (existsSync('/proc/self') ? test : test.skip)('a parent that refuses children (/proc) is refused at once, not a loop', () => {
    const t0 = performance.now();
    expect(() => ensureWritableDir('/proc/nope/x', 'reports')).toThrow(/^--report-dir \/proc\/nope\/x: cannot write reports there: .*\(ENOENT\)$/);
    expect(performance.now() - t0).toBeLessThan(1000);
    expect(existsSync('/proc/nope')).toBe(false);
  });
});

describe('writeReports (report/write.ts): all four or none', () => {
  test('a rename that fails (report.html is a directory) leaves no temp file and report.json as it was', () => {
    const dir = path.join(tmp, 'html-is-a-dir');
    mkdirSync(path.join(dir, 'report.html'), { recursive: true });
    const view = reportView(settleReport(emptyReport([], '2026-12-01T00:00:00.000Z')));
    expect(() => writeReports(view, dir)).toThrow(/EISDIR|EEXIST|ENOTEMPTY/);
    expect(readdirSync(dir).sort()).toEqual(['report.html']);
  });

  test('writes the four files and nothing else', () => {
    const dir = path.join(tmp, 'ok');
    writeReports(reportView(settleReport(emptyReport([], '2026-12-01T00:00:00.000Z'))), dir);
    expect(readdirSync(dir).sort()).toEqual(['junit.xml', 'report.html', 'report.json', 'report.md']);
  });
});

/** A new empty dir under the test's temp dir. */
const newDir = (name: string): string => {
  const d = path.join(tmp, name);
  mkdirSync(d, { recursive: true });
  return d;
};

describe('writeFileAtomic / writeFilesAtomic (report/atomic.ts): a failed write leaves no temporary file', () => {
  test('the temporary name is a dot file beside the target', () => {
    expect(tempFileOf(path.join('a', 'b', 'report.json'))).toBe(path.join('a', 'b', `.report.json.tmp-${process.pid}`));
  });

  test('writes and replaces; nothing else is left', () => {
    const dir = newDir('atomic-ok');
    writeFileAtomic(path.join(dir, 'a.txt'), 'one');
    writeFileAtomic(path.join(dir, 'a.txt'), Buffer.from('two'));
    expect(readFileSync(path.join(dir, 'a.txt'), 'utf8')).toBe('two');
    expect(readdirSync(dir)).toEqual(['a.txt']);
  });

  test('the target is a directory (EISDIR): it stays, no temporary file', () => {
    const dir = newDir('atomic-isdir');
    mkdirSync(path.join(dir, 'a.txt'));
    expect(() => writeFileAtomic(path.join(dir, 'a.txt'), 'x')).toThrow(expect.objectContaining({ code: 'EISDIR' }));
    expect(readdirSync(dir)).toEqual(['a.txt']);
    expect(statSync(path.join(dir, 'a.txt')).isDirectory()).toBe(true);
  });

  test('the folder is missing (ENOENT): nothing is created', () => {
    const dir = path.join(tmp, 'atomic-missing');
    expect(() => writeFileAtomic(path.join(dir, 'a.txt'), 'x')).toThrow(expect.objectContaining({ code: 'ENOENT' }));
    expect(existsSync(dir)).toBe(false);
  });

  test('a directory in the way of the temporary name: the write fails, that directory is not removed', () => {
    const dir = newDir('atomic-tmp-in-way');
    mkdirSync(tempFileOf(path.join(dir, 'b.txt')));
    writeFileSync(path.join(dir, 'a.txt'), 'old a');
    expect(() =>
      writeFilesAtomic(dir, [
        ['a.txt', 'new a'],
        ['b.txt', 'new b'],
      ]),
    ).toThrow(expect.objectContaining({ code: 'EISDIR' }));
    expect(readdirSync(dir).sort()).toEqual([path.basename(tempFileOf('b.txt')), 'a.txt'].sort());
    expect(readFileSync(path.join(dir, 'a.txt'), 'utf8')).toBe('old a');
  });

  test('group: a rename that fails (the 2nd name is a directory) leaves the main file as it was, the 3rd renamed, no temporary file', () => {
    const dir = newDir('atomic-group');
    writeFileSync(path.join(dir, 'main.json'), 'old main');
    mkdirSync(path.join(dir, 'two.md'));
    expect(() =>
      writeFilesAtomic(dir, [
        ['main.json', 'new main'],
        ['two.md', 'new two'],
        ['three.html', 'new three'],
      ]),
    ).toThrow(/EISDIR|EEXIST|ENOTEMPTY/);
    expect(readdirSync(dir).sort()).toEqual(['main.json', 'three.html', 'two.md']);
    expect(readFileSync(path.join(dir, 'main.json'), 'utf8')).toBe('old main');
    expect(readFileSync(path.join(dir, 'three.html'), 'utf8')).toBe('new three');
  });
});

describe('the other writers use it: a failed write leaves the old file and no temporary file', () => {
  test('writeSelftestReports: selftest.md a directory', () => {
    const dir = newDir('selftest');
    writeFileSync(path.join(dir, 'selftest.json'), '{"the":"previous"}\n');
    mkdirSync(path.join(dir, 'selftest.md'));
    const report: SelftestReport = {
      format: 'memory-matrix-selftest',
      version: 1,
      tool: 'test',
      argv: [],
      startedAt: '2026-12-01T00:00:00.000Z',
      durationMs: 0,
      first: false,
      dataset: null,
      targets: [],
      summary: summarize([]),
      exitCode: 0,
    };
    expect(() => writeSelftestReports(report, dir)).toThrow(/EISDIR|EEXIST|ENOTEMPTY/);
    expect(readdirSync(dir).sort()).toEqual(['selftest.json', 'selftest.md']);
    expect(readFileSync(path.join(dir, 'selftest.json'), 'utf8')).toBe('{"the":"previous"}\n');
    rmSync(path.join(dir, 'selftest.md'), { recursive: true });
    writeSelftestReports(report, dir);
    expect(readdirSync(dir).sort()).toEqual(['selftest.json', 'selftest.md']);
  });

  test('writeMigrationReports: migrate.json a directory', () => {
    const dir = newDir('migrate');
    mkdirSync(path.join(dir, 'migrate.json'));
    const side = (target: string) => ({ target, serverVersion: null, components: {}, image: null, imageId: null });
    const report: MigrationReport = {
      format: 'memory-matrix-migration',
      version: 1,
      tool: { name: 'memory-matrix', version: 'test', node: process.version },
      startedAt: '2026-12-01T00:00:00.000Z',
      finishedAt: '2026-12-01T00:00:00.000Z',
      durationMs: 0,
      argv: [],
      from: side('a'),
      to: side('b'),
      dataset: null,
      tamper: null,
      result: null,
      verdict: 'error',
      exitCode: 2,
    };
    expect(() => writeMigrationReports(report, dir)).toThrow(/EISDIR|EEXIST|ENOTEMPTY/);
    // migrate.md is renamed first (it is new now); migrate.json, renamed last, failed: it is as it was
    expect(readdirSync(dir).sort()).toEqual(['migrate.json', 'migrate.md']);
    expect(statSync(path.join(dir, 'migrate.json')).isDirectory()).toBe(true);
  });

  test('writeBaseline: the file a directory is USAGE naming it, no temporary file', () => {
    const dir = newDir('baseline');
    const file = path.join(dir, 'b.json');
    mkdirSync(file);
    const baseline = { format: 'memory-matrix-baseline', version: 1 } as unknown as Baseline;
    expect(() => writeBaseline(baseline, file)).toThrow(expect.objectContaining({ code: 'USAGE', message: `cannot write baseline ${file}: EISDIR` }));
    expect(readdirSync(dir)).toEqual(['b.json']);
    writeBaseline(baseline, path.join(dir, 'sub', 'ok.json'));
    expect(readdirSync(path.join(dir, 'sub'))).toEqual(['ok.json']);
  });
});
