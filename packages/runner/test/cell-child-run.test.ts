/**
 * An embedded cell run in a child process by the real CLI (src/cell-child) records the same cell
 * as the same cell run in the runner's process: same checks, verdicts, figures and notes (times
 * aside), and the console names the child. Needs no Docker (SQLite in process).
 */
import type { CellReport } from '../src/report/model';
import { cli } from './cli-helpers';

const TARGET = 'sqlite@3.53-vec0.1.9';
const ARGS = ['--backend', TARGET, '--check', 'C01,C03,C18'];

/** A cell without what varies from run to run (times). */
function stable(c: CellReport): unknown {
  return JSON.parse(JSON.stringify(c, (k, v: unknown) => (k === 'durationMs' || k === 'timings' || /Ms$/.test(k) ? undefined : v)));
}

test('MM_EMBEDDED_INPROCESS=0 (child) and =1 (in process) record the same cell', () => {
  const child = cli(ARGS, { env: { MM_EMBEDDED_INPROCESS: '0' } });
  expect(child.stderr).toContain(`${TARGET}: running in a child process (pid `);
  expect(child.stderr).toContain(`✓ ${TARGET} × agent-memories › C01 write-read`);
  expect(child.status).toBe(0);
  const inproc = cli(ARGS, { env: { MM_EMBEDDED_INPROCESS: '1' } });
  expect(inproc.stderr).not.toContain('child process');
  expect(inproc.status).toBe(0);
  const [a, b] = [child.report!, inproc.report!];
  expect(a.cells).toHaveLength(1);
  expect(a.cells[0]!.checks.map((c) => [c.id, c.status])).toEqual([
    ['C01', 'passed'],
    ['C03', 'passed'],
    ['C18', 'skipped'],
  ]);
  expect(a.cells[0]!.timings.startMs).toEqual(expect.any(Number));
  expect(stable(a.cells[0]!)).toEqual(stable(b.cells[0]!));
  expect(a.summary).toEqual(b.summary);
  expect(a.capabilityMatrix).toEqual(b.capabilityMatrix);
}, 480_000);
