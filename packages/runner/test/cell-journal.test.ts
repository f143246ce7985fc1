/** The child cell's journal (cell-child/journal.ts): appended line by line, read back whole after a death that tore its last line. */
import { appendFileSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { CellJournal, phaseText, readJournal } from '../src/cell-child/journal';

const dir = mkdtempSync(path.join(os.tmpdir(), 'mm-journal-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const result = (id: string, status: 'passed' | 'failed') => ({ id, name: 'x', status, figures: {}, failures: [], notes: [], durationMs: 1 });

test('steps, the start and results read back; the first result of an id is the verdict; a torn last line is left out', () => {
  const file = path.join(dir, 'a.jsonl');
  const j = new CellJournal(file);
  j.append({ phase: { kind: 'setup', hook: 0 } });
  j.append({ started: { serverVersion: 'toy 1.0.0', components: { toy: '1.0.0' }, image: null, imageId: null, startMs: 3 } });
  j.append({ phase: { kind: 'test', title: 'C01 write-read' } });
  j.append({ result: result('C01', 'passed') });
  j.append({ result: result('C01', 'failed') });
  j.append({ phase: { kind: 'test', title: 'C08 score-canonical' } });
  appendFileSync(file, '{"result":{"id":"C08","na');
  const r = readJournal(file);
  expect(r.results.map((x) => [x.id, x.status])).toEqual([['C01', 'passed']]);
  expect(r.started?.serverVersion).toBe('toy 1.0.0');
  expect(phaseText(r.phase)).toBe('C08 score-canonical');
});

test('a missing journal is an empty one (the child died before its first step); the steps in words', () => {
  expect(readJournal(path.join(dir, 'none.jsonl'))).toEqual({ results: [] });
  expect([undefined, { kind: 'setup', hook: 0 }, { kind: 'setup', hook: 1 }, { kind: 'teardown' }].map((p) => phaseText(p as never))).toEqual([
    'its start',
    'the start of its backend',
    'the golden load (its shared fixtures)',
    'its teardown',
  ]);
});
