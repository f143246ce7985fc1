// The golden filter set (golden-data/filters/, FORMAT.md "Filter sets"): the builder refuses a
// vacuous case; a malformed file is GOLDEN_INVALID naming file:line; the committed set is exactly
// what a rebuild from its cases file and the dataset gives (a drift test).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { DEFAULT_TOLERANCES } from '../src/capabilities';
import { evaluateFilter } from '../src/filter-lang/evaluate';
import { buildFilterSet, filterSetDocuments, readFilterCases } from '../src/filter-set/build';
import { deriveFilterFields } from '../src/filter-set/derive';
import { loadFilterSet, parseFilterSet, serializeFilterSet } from '../src/filter-set/file';
import { loadGoldenDataset } from '../src/golden/load';
import { failure } from './thrown';

const ROOT = path.join(__dirname, '..', '..', '..');
const TINY = path.join(__dirname, 'fixtures', 'golden-tiny');
const SET_FILE = path.join(ROOT, 'golden-data', 'filters', 'agent-memories.jsonl');
const CASES_FILE = path.join(ROOT, 'golden-data', 'filters', 'agent-memories.cases.jsonl');

function casesFile(lines: string[]): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mm-filter-cases-'));
  const file = path.join(dir, 'cases.jsonl');
  fs.writeFileSync(file, lines.join('\n') + '\n');
  return file;
}

describe('the builder', () => {
  const tiny = loadGoldenDataset(TINY);
  const build = (lines: string[]) => {
    const file = casesFile(lines);
    return buildFilterSet(tiny, readFilterCases(file), { casesFile: file, queries: ['q1'], k: 2, tieEpsilon: 1e-5 });
  };

  test('records matching, selectivity and the filtered top-k', () => {
    const set = build(['{"name":"pinned","filter":{"metadata.pinned":true}}']);
    const c = set.cases[0]!;
    const docs = filterSetDocuments(tiny);
    expect(c.matching).toBe(docs.filter((d) => evaluateFilter(c.expr, d)).length);
    expect(c.selectivity).toBe(c.matching / tiny.memories.length);
    expect(c.topk.q1!.length).toBe(Math.min(2, c.matching));
    expect(c.topk.q1!.every((h) => docs[tiny.memories.findIndex((m) => m.id === h.id)]!.metadata.pinned === true)).toBe(true);
    expect(parseFilterSet(serializeFilterSet(set), 'x.jsonl').cases[0]).toEqual(c);
  });

  test.each([
    ['{"name":"none","filter":{"metadata.importance":{"$gt":1000}}}', 'cases.jsonl:2: case "none" matches no memory: a vacuous test'],
    ['{"name":"all","filter":{"metadata.words":{"$gte":1}}}', 'cases.jsonl:2: case "all" matches every memory'],
    ['{"name":"all-ne","filter":{"metadata.missing":{"$ne":1}}}', 'cases.jsonl:2: case "all-ne" matches every memory'],
  ])('refuses a vacuous case: %s', (line, message) => {
    const e = failure(() => build(['{"name":"ok","filter":{"kind":"fact"}}', line]));
    expect(e.code).toBe('GOLDEN_INVALID');
    expect(e.message).toContain(message);
  });

  test.each([
    ['{"name":"bad","filter":{"metadata.importance":{"$gte":"high"}}}', 'cases.jsonl:1: case "bad": filter: metadata.importance.$gte: expected a number or instant, got "high"'],
    ['{"name":"Bad Name","filter":{"kind":"fact"}}', 'cases.jsonl:1: field "name"'],
    ['{"name":"x","filter":{"kind":"fact"},"k":3}', 'cases.jsonl:1: unknown field "k"'],
    ['{"name":"x",', 'cases.jsonl:1: not JSON'],
  ])('refuses a malformed case naming file:line: %s', (line, message) => {
    const e = failure(() => build([line]));
    expect(e.code).toBe('GOLDEN_INVALID');
    expect(e.message).toContain(message);
  });

  test('refuses a repeated name', () => {
    expect(failure(() => build(['{"name":"a","filter":{"kind":"fact"}}', '{"name":"a","filter":{"kind":"episode"}}'])).message).toContain('cases.jsonl:2: case "a" repeats the name of line 1');
  });
});

describe('the derived metadata shapes', () => {
  test('are derived from real fields only', () => {
    const base = { text: '  two  words ', kind: 'episode' as const };
    expect(deriveFilterFields({ ...base, metadata: { corpus: 'sotu', year: 1851, speaker: 'M F', tag: '', lang: 'en', pinned: true, importance: 2, confidence: 0.5 } })).toEqual({
      words: 2,
      stance: null,
      src: { corpus: 'sotu', doc: { year: 1851, speaker: 'M F' } },
      labels: ['en', 'episode', 'pinned'],
      scores: [2, 0.5],
    });
    expect(deriveFilterFields({ text: 'x', kind: 'preference', metadata: { polarity: '', corpus: 'moby-dick', chapter: 3, tag: 'work', lang: 'en', pinned: false, importance: 0 } })).toEqual({
      words: 1,
      stance: '',
      src: { corpus: 'moby-dick', doc: { chapter: 3, speaker: null } },
      labels: ['work', 'en', 'preference'],
      scores: [0],
    });
    expect(deriveFilterFields({ text: 'x', kind: 'fact', metadata: {} })).not.toHaveProperty('stance');
  });
});

describe('a malformed filter-set file is GOLDEN_INVALID naming file:line', () => {
  const text = fs.readFileSync(SET_FILE, 'utf8');
  const lines = text.split('\n');
  const edit = (i: number, f: (o: Record<string, unknown>) => void): string => {
    const copy = [...lines];
    const o = JSON.parse(copy[i]!) as Record<string, unknown>;
    f(o);
    copy[i] = JSON.stringify(o);
    return copy.join('\n');
  };
  test.each([
    ['header kind', () => edit(0, (o) => (o.kind = 'x')), 'set.jsonl:1: header: field "kind"'],
    ['bad filter', () => edit(4, (o) => (o.filter = { 'metadata.importance': { $gte: 'high' } })), 'set.jsonl:5: case "'],
    ['operators disagree', () => edit(3, (o) => (o.operators = ['$ne'])), 'set.jsonl:4: case "eq-false": field "operators" is ["$ne"] but the filter uses ["$eq"]'],
    ['selectivity', () => edit(2, (o) => (o.selectivity = 0.5)), 'set.jsonl:3: case "eq-negative-zero": selectivity 0.5 ≠ matching / rows'],
    ['vacuous', () => edit(2, (o) => ((o.matching = 5111), (o.selectivity = 0.999))), 'set.jsonl:3: case "eq-negative-zero": matching 5111 is every row (5111): a vacuous case'],
    [
      'missing query',
      () => edit(2, (o) => delete (o.topk as Record<string, unknown>)['q-0002']),
      'set.jsonl:3: case "eq-negative-zero": topk must have exactly the header\'s queries (missing ["q-0002"]',
    ],
    ['repeated name', () => edit(3, (o) => (o.name = 'eq-number-zero')), 'set.jsonl:4: case "eq-number-zero" repeats the name of line 2'],
    ['not JSON', () => lines.map((l, i) => (i === 6 ? l.slice(0, 20) : l)).join('\n'), 'set.jsonl:7: not JSON'],
    ['blank line', () => lines.map((l, i) => (i === 6 ? ' ' : l)).join('\n'), 'set.jsonl:7: blank line'],
  ])('%s', (_what, make, message) => {
    const e = failure(() => parseFilterSet(make(), 'set.jsonl'));
    expect(e.code).toBe('GOLDEN_INVALID');
    expect(e.message).toContain(message);
  });
  test('a missing file is GOLDEN_MISSING', () => {
    expect(failure(() => loadFilterSet(path.join(os.tmpdir(), 'no-such-filter-set.jsonl'))).code).toBe('GOLDEN_MISSING');
  });
});

describe('the committed agent-memories filter set', () => {
  const set = loadFilterSet(SET_FILE);

  test('covers every operator, the shapes and selectivities from ~0.1 % to ~90 %, never vacuous', () => {
    expect(set.cases.length).toBeGreaterThanOrEqual(80);
    const ops = new Set(set.cases.flatMap((c) => c.operators));
    expect([...ops].sort()).toEqual(['$and', '$contains', '$eq', '$exists', '$gt', '$gte', '$in', '$lt', '$lte', '$ne', '$nin', '$not', '$or']);
    expect(new Set(set.cases.flatMap((c) => c.shapes))).toEqual(new Set(['nested', 'array']));
    const sel = set.cases.map((c) => c.selectivity);
    expect(Math.min(...sel)).toBeLessThanOrEqual(0.001);
    expect(Math.max(...sel)).toBeGreaterThanOrEqual(0.9);
    expect(set.cases.every((c) => c.matching > 0 && c.matching < set.header.rows)).toBe(true);
  });

  test('is exactly what a rebuild from the cases file and the dataset gives (drift)', () => {
    const dataset = loadGoldenDataset(path.join(ROOT, 'golden-data', 'agent-memories'));
    expect(set.header.datasetSha256).toBe(dataset.datasetSha256);
    const rebuilt = buildFilterSet(dataset, readFilterCases(CASES_FILE), { casesFile: CASES_FILE, tieEpsilon: DEFAULT_TOLERANCES.tieEpsilon });
    expect(serializeFilterSet(rebuilt)).toBe(fs.readFileSync(SET_FILE, 'utf8'));
  }, 120_000);
});
