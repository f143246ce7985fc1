/**
 * One form for a folder a command wrote to (shown-dir.ts), in the `reports:` line of a run, its
 * partial report line, merge, diff, selftest and migrate: relative inside the working directory,
 * absolute outside it (it printed `../../../tmp/r1` for `--report-dir /tmp/r1`, and migrate the
 * absolute path where the others printed the relative one).
 */
import os from 'node:os';
import path from 'node:path';
import { shownDir } from '../src/shown-dir';

test('inside the working directory: relative; the directory itself: "."; outside it: absolute', () => {
  const cwd = process.cwd();
  expect(shownDir(path.join(cwd, 'matrix-report'))).toBe('matrix-report');
  expect(shownDir(path.join(cwd, 'out', 'r1'))).toBe(path.join('out', 'r1'));
  expect(shownDir(cwd)).toBe('.');
  const outside = path.join(os.tmpdir(), 'fresh-r1');
  expect(shownDir(outside)).toBe(outside);
  expect(shownDir(path.dirname(cwd))).toBe(path.dirname(cwd));
  expect(shownDir(path.join(cwd, '..', path.basename(cwd) + '-sibling'))).toBe(path.join(path.dirname(cwd), path.basename(cwd) + '-sibling'));
});
