/**
 * The report dir's lock (report/lock.ts): a second run given the same --report-dir stops at once
 * (exit 2 naming the pid of the run that holds it) and leaves the first run's reports as they were;
 * a lock left by a process that is gone is taken over. Real processes, real files.
 */
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { lockReportDir, REPORT_LOCK } from '../src/report/lock';
import { cli } from './cli-helpers';

const dirs: string[] = [];
const tmpDir = (): string => {
  const d = mkdtempSync(path.join(os.tmpdir(), 'mm-lock-'));
  dirs.push(d);
  return d;
};
afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

/** A pid that certainly belongs to no process any more: a child that has exited and been reaped. */
function deadPid(): number {
  const r = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], { encoding: 'utf8' });
  return Number(r.stdout);
}

test('taken, held against a live owner (USAGE naming its pid), released; a dead owner’s lock is taken over', () => {
  const dir = tmpDir();
  const release = lockReportDir(dir);
  expect(readFileSync(path.join(dir, REPORT_LOCK), 'utf8')).toBe(`${process.pid}\n`);
  release();
  expect(existsSync(path.join(dir, REPORT_LOCK))).toBe(false);

  writeFileSync(path.join(dir, REPORT_LOCK), `${deadPid()}\n`);
  lockReportDir(dir)();
  expect(existsSync(path.join(dir, REPORT_LOCK))).toBe(false);
});

test('a second run into a report dir a live run holds: exit 2 naming that pid, the first run’s report untouched', async () => {
  const dir = tmpDir();
  const holder = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 60000)'], { stdio: 'ignore' });
  try {
    writeFileSync(path.join(dir, REPORT_LOCK), `${holder.pid}\n`);
    writeFileSync(path.join(dir, 'report.json'), '{"the":"first run"}\n');
    const r = cli(['--backend', 'sqlite@3.53-vec0.1.9', '--check', 'C01', '--report-dir', dir]);
    expect(r.status).toBe(2);
    expect(r.stdout + r.stderr).toContain(`--report-dir ${dir}: another memory-matrix run (pid ${holder.pid}) is writing its reports there`);
    expect(readFileSync(path.join(dir, 'report.json'), 'utf8')).toBe('{"the":"first run"}\n');
    expect(readFileSync(path.join(dir, REPORT_LOCK), 'utf8')).toBe(`${holder.pid}\n`);
  } finally {
    holder.kill('SIGKILL');
  }
});
