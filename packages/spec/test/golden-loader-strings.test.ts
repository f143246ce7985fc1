import path from 'node:path';
import { loadGoldenDataset } from '../src/golden/load';
import { validateMemoryRecord, validateRecallFilter, type InputRules } from '../src/record-validation';
import type { MemoryRecord, RecallFilter } from '../src/types';
import { cleanup, editLine, thrown, tinyCopy } from './fixtures/golden-helpers';

/*
 * Issue 31, kind 5: the golden format and the adapter contract forbid the same strings and values
 * (packages/spec/src/stored-values.ts). Each case edits one field of the tiny fixture and expects
 * the loader's GOLDEN_INVALID naming `<file>:<line>` and the field, and the same value in a record
 * (or a filter) handed to an adapter's validation to be INVALID_INPUT.
 */

afterAll(cleanup);

const RULES: InputRules = { adapter: 'toy' };
const base = (): MemoryRecord => ({
  id: 'm1',
  namespace: 'user-a',
  text: 'The user lives in Lisbon.',
  kind: 'fact',
  createdAt: '2024-01-02T03:04:05.006Z',
  metadata: { tag: 'home' },
  embedding: Float32Array.from([0.6, 0.8, 0]),
});

/** [what, field as the loader names it, edit of the parsed line, the same edit of a record]. */
type Case = [string, string, (o: Record<string, any>) => void]; // eslint-disable-line @typescript-eslint/no-explicit-any -- parsed JSON lines and records alike

const MEMORY_CASES: Case[] = [
  ['U+0000 in text', 'text', (o) => void (o.text = 'a\u0000b')],
  ['U+0000 in the id', 'id', (o) => void (o.id = 'm\u00001')],
  ['U+0000 in the namespace', 'namespace', (o) => void (o.namespace = 'user\u0000a')],
  ['U+0000 in a metadata key', 'metadata.k\u0000', (o) => void (o.metadata = { 'k\u0000': 1 })],
  ['U+0000 in a metadata value', 'metadata.tag', (o) => void (o.metadata = { tag: 'x\u0000y' })],
  ['a lone high surrogate in text', 'text', (o) => void (o.text = 'broken \uD83D emoji')],
  ['a lone low surrogate in a metadata value', 'metadata.tag', (o) => void (o.metadata = { tag: '\uDC00' })],
  ['a lone surrogate in a metadata key', 'metadata.\uD800', (o) => void (o.metadata = { '\uD800': 1 })],
  ['an empty metadata key', 'metadata.', (o) => void (o.metadata = { '': 'x' })],
  ['a metadata key beginning with $', 'metadata.$set', (o) => void (o.metadata = { $set: 1 })],
  ['a metadata key that is just $', 'metadata.$', (o) => void (o.metadata = { $: 'x' })],
  ['the metadata key __proto__', 'metadata.__proto__', (o) => void (o.metadata = JSON.parse('{"__proto__":"x","tag":"home"}'))],
  ['a line feed in the id', 'id', (o) => void (o.id = 'm\n1')],
  ['a tab in the namespace', 'namespace', (o) => void (o.namespace = 'user\ta')],
  ['a control character in a metadata key', 'metadata.a\u0001b', (o) => void (o.metadata = { 'a\u0001b': 1 })],
  ['DEL in a metadata key', 'metadata.a\u007f', (o) => void (o.metadata = { 'a\u007f': 1 })],
  ['−0 as a metadata number', 'metadata.z', (o) => void (o.metadata = { z: -0 })],
];

/** JSON text of `o`, keeping −0 (JSON.stringify prints it as 0). */
const jsonKeepingNegativeZero = (o: unknown) => JSON.stringify(o, (_k, v) => (Object.is(v, -0) ? '__NEG_ZERO__' : v)).replace(/"__NEG_ZERO__"/g, '-0');

describe('memories.jsonl: what the contract refuses is refused at load (GOLDEN_INVALID, file:line, field)', () => {
  test.each(MEMORY_CASES)('%s', (_what, field, edit) => {
    const dir = tinyCopy();
    editLine(dir, 'memories.jsonl', 2, (line) => {
      const o = JSON.parse(line);
      edit(o);
      return jsonKeepingNegativeZero(o);
    });
    const e = thrown(() => loadGoldenDataset(dir));
    expect(e.code).toBe('GOLDEN_INVALID');
    expect(e.message).toContain(`${path.join(dir, 'memories.jsonl')}:2:`);
    expect(e.message).toContain(`field "${field}"`);
  });
});

describe('the adapter contract refuses the same values (INVALID_INPUT)', () => {
  test.each(MEMORY_CASES)('%s', (_what, _field, edit) => {
    const r = base();
    edit(r);
    const e = thrown(() => validateMemoryRecord(r, 0, 3, 'cosine', 'collection toy', RULES));
    expect(e.code).toBe('INVALID_INPUT');
    expect(e.message).toMatch(/^toy: collection toy: record /);
  });
  test('the base record itself passes', () => {
    expect(() => validateMemoryRecord(base(), 0, 3, 'cosine', 'collection toy', RULES)).not.toThrow();
  });
});

const FILTER_CASES: [string, string, RecallFilter][] = [
  ['U+0000 in a filter namespace', 'filter.namespaces.0', { namespaces: ['user\u0000a'] }],
  ['a line feed in a filter namespace', 'filter.namespaces.0', { namespaces: ['user\na'] }],
  ['a metadata filter key beginning with $', 'filter.metadata.$eq', { metadata: { $eq: 1 } }],
  ['an empty metadata filter key', 'filter.metadata.', { metadata: { '': 1 } }],
  ['a lone surrogate in a metadata filter value', 'filter.metadata.tag', { metadata: { tag: '\uD800' } }],
];

describe('queries.jsonl filters follow the same rule', () => {
  test.each(FILTER_CASES)('%s', (_what, field, filter) => {
    const dir = tinyCopy();
    editLine(dir, 'queries.jsonl', 3, (line) => JSON.stringify({ ...JSON.parse(line), filter }));
    const e = thrown(() => loadGoldenDataset(dir));
    expect(e.code).toBe('GOLDEN_INVALID');
    expect(e.message).toContain(`${path.join(dir, 'queries.jsonl')}:3:`);
    expect(e.message).toContain(`field "${field}"`);
    expect(thrown(() => validateRecallFilter(filter, 'recall', RULES)).code).toBe('INVALID_INPUT');
  });

  test('−0 in a metadata filter equals 0 and is accepted by both', () => {
    const dir = tinyCopy();
    editLine(dir, 'queries.jsonl', 3, (line) => jsonKeepingNegativeZero({ ...JSON.parse(line), filter: { metadata: { importance: -0 } } }));
    expect(() => loadGoldenDataset(dir)).not.toThrow();
    expect(() => validateRecallFilter({ metadata: { importance: -0 } }, 'recall', RULES)).not.toThrow();
  });
});

describe('what every store must keep is accepted by both', () => {
  const odd: Record<string, unknown> = {
    text: 'tab\tnew\nline \u0001 \u2028 👩‍👩‍👧‍👦 e\u0301 שלום 𠮷 \uFEFF \\ "q" \u{10FFFF}',
    id: 'mem 🧠/é:"x"',
    metadata: { 'a.b': 'x\ny', 'key with space': '\u0007', price$: 1e-300, é: 9007199254740991, '🔑': null },
  };
  test('odd but allowed strings and numbers', () => {
    const dir = tinyCopy();
    editLine(dir, 'memories.jsonl', 2, (line) => JSON.stringify({ ...JSON.parse(line), ...odd }));
    const d = loadGoldenDataset(dir);
    expect(d.memories[1]).toMatchObject(odd);
    expect(() => validateMemoryRecord({ ...base(), ...odd } as MemoryRecord, 0, 3, 'cosine', 'collection toy', RULES)).not.toThrow();
  });
});
