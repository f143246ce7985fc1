/**
 * The command line a report dir's lock records (report/lock.ts `lockCommandLine`), which the
 * "locked" message of a second run names: pure, no process started.
 */
import { lockCommandLine } from '../src/report/lock';

test('the command line a lock records: shell-quoted where needed, URL passwords redacted, one line, bounded', () => {
  expect(lockCommandLine(['--backend', 'sqlite@3.53-vec0.1.9', '--check', 'C01,C02', '--report-dir', '/tmp/r 1'])).toBe(
    "memory-matrix --backend sqlite@3.53-vec0.1.9 --check C01,C02 --report-dir '/tmp/r 1'",
  );
  expect(lockCommandLine(['--backend', 'pgvector@url=postgres://me:s3cret@db:5432/x', "it's\nodd"])).toBe(
    "memory-matrix --backend 'pgvector@url=postgres://me:***@db:5432/x' 'it'\\''s odd'", // '*' is quoted: the line pastes into a shell as it was
  );
  const long = lockCommandLine(['--check', 'C01'.repeat(200)]);
  expect(long).toHaveLength(300);
  expect(long.endsWith('…')).toBe(true);
});
