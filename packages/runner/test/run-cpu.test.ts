/**
 * The run's CPU figure (report/cpu.ts): this process, its ended child processes (/proc/self/stat
 * cutime + cstime) and its containers. A real child process that burns CPU; no backend.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { cpuLine, endedChildrenCpuS, measureRunCpu } from '../src/report/cpu';

const linux = process.platform === 'linux';

(linux ? test : test.skip)('an ended child process that burned CPU is in the figure (Linux /proc)', () => {
  const before = endedChildrenCpuS()!;
  // About 0.3 s of CPU in a child, reaped by spawnSync.
  spawnSync(process.execPath, ['-e', 'const t = Date.now(); let x = 0; while (Date.now() - t < 300) x += Math.sqrt(x + 1);'], { stdio: 'ignore' });
  const after = endedChildrenCpuS()!;
  expect(after - before).toBeGreaterThanOrEqual(0.05);
  const cpu = measureRunCpu(1000);
  expect(cpu.totalS).toBeCloseTo(cpu.runnerS + cpu.childProcessesS! + cpu.containersS, 0);
  expect(cpu.coresBusy).toBeGreaterThan(0);
});

test('the stat line is read after the command name, whatever it holds', () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'mm-cpu-'));
  const f = path.join(dir, 'stat');
  // pid (comm) state ppid pgrp session tty tpgid flags minflt cminflt majflt cmajflt utime stime cutime cstime …
  writeFileSync(f, '4242 (node ) (x) S 1 4242 4242 0 -1 4194560 100 200 0 0 150 30 1234 66 20 0 11 0\n');
  expect(endedChildrenCpuS(f)).toBe(13);
  expect(endedChildrenCpuS(path.join(dir, 'absent'))).toBeNull();
});

test('the console line names each part and the cores kept busy', () => {
  const line = cpuLine({ totalS: 30, runnerS: 10, childProcessesS: 15, containersS: 5, containerSegmentsUnread: 1, coresBusy: 1.5 }, 20_000);
  expect(line).toBe('CPU 30 s (this process 10, ended child processes 15, containers 5 (1 counter(s) unread: at least)) in 20.0 s wall: 1.5 cores busy on average');
});
