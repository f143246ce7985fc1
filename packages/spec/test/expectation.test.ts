import { parseExpectation, serializeExpectation, type ExpectationEntry, type ExpectationMeta } from '../src/expectation';

const SHA = 'ab'.repeat(32);
const meta: ExpectationMeta = { dataset: 'agent-memories', datasetSha256: SHA, source: 'oracle', metric: 'cosine', tieEpsilon: 1e-5 };
const HEADER = `{"kind":"memory-matrix-expectation","version":1,"dataset":"agent-memories","datasetSha256":"${SHA}","source":"oracle","metric":"cosine","tieEpsilon":0.00001}`;

function thrown(fn: () => unknown): { code?: string; message: string } {
  try {
    fn();
  } catch (e) {
    return e as { code?: string; message: string };
  }
  throw new Error('expected a throw');
}

describe('serializeExpectation', () => {
  test('writes deterministic bytes: header, one line per query in order, final newline', () => {
    const entries: ExpectationEntry[] = [
      {
        query: 'q0001',
        k: 2,
        matching: 3,
        hits: [
          { id: 'm00012', score: 0.1 + 0.2 },
          { id: 'm00007', score: 0.1 },
        ],
      },
      { query: 'q0002', k: 1, matching: 0, hits: [] },
    ];
    const text = serializeExpectation(meta, entries);
    expect(text).toBe(`${HEADER}\n` + '{"query":"q0001","k":2,"matching":3,"hits":[["m00012",0.30000000000000004],["m00007",0.1]]}\n' + '{"query":"q0002","k":1,"matching":0,"hits":[]}\n');
    expect(
      serializeExpectation(
        { ...meta },
        entries.map((e) => ({ ...e })),
      ),
    ).toBe(text);
  });

  test('round trip keeps every float64 bit', () => {
    const scores = [1 / 3, 0.1 + 0.2, 1e-300, -12.345678901234567, -1e-7];
    const sorted = [...scores].sort((a, b) => b - a);
    const entries: ExpectationEntry[] = [{ query: 'q0001', k: 5, matching: 4000, hits: sorted.map((score, i) => ({ id: `m${i}`, score })) }];
    const back = parseExpectation(serializeExpectation(meta, entries), 'x.jsonl');
    expect(back.header).toEqual({ kind: 'memory-matrix-expectation', version: 1, ...meta });
    expect(back.entries).toEqual(entries);
    back.entries[0]!.hits.forEach((h, i) => expect(Object.is(h.score, sorted[i])).toBe(true));
  });

  test('refuses what the parser would reject (NaN score, bad sha, unsorted hits)', () => {
    const nan = thrown(() => serializeExpectation(meta, [{ query: 'q1', k: 1, matching: 1, hits: [{ id: 'm1', score: NaN }] }]));
    expect(nan.code).toBe('INVALID_INPUT');
    expect(nan.message).toContain('query q1: hit 0 (m1) has non-finite score NaN');
    expect(thrown(() => serializeExpectation({ ...meta, datasetSha256: 'xyz' }, [])).message).toContain('header: field "datasetSha256"');
    const unsorted = thrown(() =>
      serializeExpectation(meta, [
        {
          query: 'q9',
          k: 2,
          matching: 2,
          hits: [
            { id: 'a', score: 0.1 },
            { id: 'b', score: 0.2 },
          ],
        },
      ]),
    );
    expect(unsorted.code).toBe('INVALID_INPUT');
    expect(unsorted.message).toContain('query q9: field "hits[1][1]"');
  });
});

describe('parseExpectation errors name file:line and field', () => {
  const ok = '{"query":"q0001","k":1,"matching":1,"hits":[["m1",0.5]]}';
  const parse = (text: string) => thrown(() => parseExpectation(text, 'golden-data/agent-memories/expected.jsonl'));

  test('malformed JSON on line 3', () => {
    const e = parse(`${HEADER}\n${ok}\n{"query":"q0002","k":1,\n`);
    expect(e.code).toBe('GOLDEN_INVALID');
    expect(e.message).toMatch(/^golden-data\/agent-memories\/expected\.jsonl:3: not valid JSON/);
  });
  test('missing, extra and mistyped fields', () => {
    expect(parse(`${HEADER}\n{"query":"q0001","matching":1,"hits":[]}\n`).message).toBe('golden-data/agent-memories/expected.jsonl:2: field "k" is missing');
    expect(parse(`${HEADER}\n${ok}\n{"query":"q2","k":1,"matching":1,"hits":[],"extra":1}\n`).message).toContain(':3: field "extra" is not part of the format');
    expect(parse(`${HEADER}\n{"query":"q0001","k":0,"matching":1,"hits":[]}\n`).message).toContain(':2: field "k": expected an integer ≥ 1, got 0');
    expect(parse(`${HEADER}\n{"query":"q0001","k":1,"matching":1,"hits":[["m1","0.5"]]}\n`).message).toContain(':2: field "hits[0][1]": expected a finite score, got "0.5"');
    expect(parse(`${HEADER}\n{"query":"q0001","k":1,"matching":1,"hits":[["m1",0.5,1]]}\n`).message).toContain(':2: field "hits[0]"');
  });
  test('header: kind, version, metric, sha', () => {
    expect(parse('{"kind":"other"}\n').message).toContain('expected.jsonl:1: field "kind"');
    expect(parse(HEADER.replace('"version":1', '"version":2') + '\n').message).toContain(':1: field "version": this build reads version 1, got 2');
    expect(parse(HEADER.replace('"cosine"', '"dot"') + '\n').message).toContain(':1: field "metric": expected one of cosine, ip, l2, got "dot"');
    expect(parse(HEADER.replace(SHA, 'AB'.repeat(32)) + '\n').message).toContain(':1: field "datasetSha256"');
  });
  test('duplicate query, duplicate hit, unsorted hits, too many hits', () => {
    expect(parse(`${HEADER}\n${ok}\n${ok}\n`).message).toContain(':3: field "query": q0001 already appears on line 2');
    expect(parse(`${HEADER}\n{"query":"q1","k":2,"matching":2,"hits":[["m1",0.5],["m1",0.4]]}\n`).message).toContain(':2: field "hits[1][0]": id m1 appears twice');
    expect(parse(`${HEADER}\n{"query":"q1","k":2,"matching":2,"hits":[["m1",0.4],["m2",0.5]]}\n`).message).toContain(':2: field "hits[1][1]": score 0.5 is higher than the previous hit\'s 0.4');
    expect(parse(`${HEADER}\n{"query":"q1","k":2,"matching":1,"hits":[["m1",0.5],["m2",0.4]]}\n`).message).toContain(':2: field "hits": 2 hits but only 1 rows qualify');
  });
  test('empty file and blank lines', () => {
    expect(parse('').message).toBe('golden-data/agent-memories/expected.jsonl:1: file is empty; expected the header line');
    expect(parse(`${HEADER}\n\n${ok}\n`).message).toContain(':2: blank line');
  });
  test('CRLF line ends and a missing final newline are read', () => {
    const e = parseExpectation(`${HEADER}\r\n${ok}`, 'f.jsonl');
    expect(e.entries).toEqual([{ query: 'q0001', k: 1, matching: 1, hits: [{ id: 'm1', score: 0.5 }] }]);
  });
});
