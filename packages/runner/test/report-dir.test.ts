/**
 * The report dir is checked before anything starts (report/dir.ts): created level by level,
 * refused with USAGE naming the flag, the dir and the reason. `/proc/nope/x` is the case where
 * Node 20's own `mkdirSync(…, { recursive: true })` never returns.
 */
import { existsSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ensureWritableDir, makeDirs } from '../src/report/dir';

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
