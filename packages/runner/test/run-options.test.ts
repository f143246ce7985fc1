/**
 * The `run` command's parsed options become `RunOptions` in one place (run/options.ts
 * `runOptionsOf`; cli.ts restated the shape before): flag names to fields, paths resolved from the
 * working directory, absent options left absent.
 */
import path from 'node:path';
import { runOptionsOf } from '../src/run/options';

test('flag names to RunOptions fields; --report-dir and --cell-journal resolved; absent options stay absent', () => {
  const parsed = { backend: ['sqlite@3.53-vec0.1.9'], check: ['C01', 'C03'], dataset: 'agent-memories', reportDir: 'out/r1', updateGolden: false, imageSource: 'auto' as const };
  expect(runOptionsOf(parsed, ['--check', 'C01,C03'])).toEqual({
    backends: ['sqlite@3.53-vec0.1.9'],
    checks: ['C01', 'C03'],
    dataset: 'agent-memories',
    reportDir: path.resolve('out/r1'),
    updateGolden: false,
    imageSource: 'auto',
    argv: ['--check', 'C01,C03'],
  });
  expect(runOptionsOf({ ...parsed, cellJournal: 'j.jsonl', loadSeed: '7', repeat: '3' }, [])).toMatchObject({ cellJournal: path.resolve('j.jsonl'), loadSeed: '7', repeat: '3' });
});
