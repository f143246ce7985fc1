/**
 * Progress without a terminal (a pipe, a CI log): one line when a phase of a cell starts, then at
 * most one every PROGRESS_LINE_MS while it lasts, with done / total and the seconds elapsed — a
 * long golden load is seen moving (issue 35 item 2). A fake clock; the stream is a plain writer.
 */
import { Progress, PROGRESS_LINE_MS } from '../src/progress';

test('a long load prints its start, then a line per PROGRESS_LINE_MS with memories written and elapsed seconds', () => {
  const lines: string[] = [];
  const stream = { isTTY: false, write: (s: string) => lines.push(s) } as unknown as NodeJS.WriteStream;
  let now = 1_000;
  const p = new Progress(stream, () => now);
  p.update('own@1', 'load', 500, 5111);
  now += PROGRESS_LINE_MS - 1;
  p.update('own@1', 'load', 1000, 5111); // within the interval: no line
  now += 1;
  p.update('own@1', 'load', 1500, 5111);
  now += 5_000;
  p.update('own@1', 'load', 2000, 5111);
  now += PROGRESS_LINE_MS;
  p.update('own@1', 'load', 2500, 5111);
  p.update('own@1', 'query-exact', 1, 40); // a new phase: its own start line
  expect(lines).toEqual(['own@1: loading memories (5111)…\n', 'own@1: loading memories 1500/5111, 30 s\n', 'own@1: loading memories 2500/5111, 65 s\n', 'own@1: queries, exact scan (40)…\n']);
});

test('after halt (an interrupt) no progress line is printed, neither its own nor one a child cell relays; other lines are', () => {
  const lines: string[] = [];
  const stream = { isTTY: false, write: (s: string) => lines.push(s) } as unknown as NodeJS.WriteStream;
  let now = 1_000;
  const p = new Progress(stream, () => now);
  p.update('own@1', 'load', 500, 5111);
  p.halt();
  now += PROGRESS_LINE_MS;
  p.update('own@1', 'query-exact', 1, 40);
  p.log('child@1: queries, index scan 177/353, 30 s');
  p.log('child@1: loading memories (5111)…');
  p.log('SIGINT: stopping 1 target backend(s)');
  p.log('✓ child@1 × agent-memories › C01 write-read');
  expect(lines).toEqual(['own@1: loading memories (5111)…\n', 'SIGINT: stopping 1 target backend(s)\n', '✓ child@1 × agent-memories › C01 write-read\n']);
});
