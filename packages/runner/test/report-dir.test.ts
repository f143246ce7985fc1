/**
 * The report dir is checked before anything starts (report/dir.ts): created level by level,
 * refused with USAGE naming the flag, the dir and the reason. `/proc/nope/x` is the case where
 * Node 20's own `mkdirSync(…, { recursive: true })` never returns.
 */
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ensureWritableDir, makeDirs } from '../src/report/dir';
import { emptyReport } from '../src/report/model';
import { settleReport } from '../src/report/settle';
import { reportView } from '../src/report/view';
import { writeReports } from '../src/report/write';

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
