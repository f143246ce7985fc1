import { readFileSync, rmSync, truncateSync, appendFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { loadGoldenDataset } from '../src/golden/load';
import { readGoldenManifest } from '../src/golden/manifest';
import { TINY, cleanup, editLine, editManifest, reseal, setComponent, thrown, tinyCopy } from './fixtures/golden-helpers';

afterAll(cleanup);

describe('loadGoldenDataset on the valid tiny fixture', () => {
  test('returns manifest, fingerprint, records and shared vectors', () => {
    const d = loadGoldenDataset(TINY);
    expect(d.dir).toBe(path.resolve(TINY));
    expect(d.manifest.dim).toBe(3);
    expect(d.datasetSha256).toMatch(/^[0-9a-f]{64}$/);
    expect(d.memories.map((m) => m.id)).toEqual(['m1', 'm2', 'm3', 'm4', 'm5']);
    expect(d.vectors).toHaveLength(15);
    expect(d.memories[2]!.embedding.buffer).toBe(d.vectors.buffer);
    expect(Array.from(d.memories[2]!.embedding)).toEqual([Math.fround(0.6), Math.fround(0.8), 0]);
    expect(d.memories[1]!.metadata).toEqual({ importance: 0, lang: 'en', pinned: false, source: 'chat', tag: '' });
    expect(d.memories[2]!.text).toBe('Had sushi in Tokyo 寿司 🍣');
    const q3 = d.queries[2]!;
    expect(q3).toMatchObject({ id: 'q3', k: 5, minScore: 0.5, purpose: 'filter', filter: { namespaces: ['user-b'], metadata: { pinned: false } } });
    expect(q3.vector.buffer).toBe(d.queryVectors.buffer);
    expect(d.queries[1]!.now).toBe('2024-06-01T00:00:00.000Z');
  });
});

describe('GOLDEN_MISSING', () => {
  test('missing folder', () => {
    const e = thrown(() => loadGoldenDataset(path.join(TINY, 'nope')));
    expect(e.code).toBe('GOLDEN_MISSING');
    expect(e.message).toContain('nope');
  });
  test('missing manifest.json', () => {
    const dir = tinyCopy();
    rmSync(path.join(dir, 'manifest.json'));
    const e = thrown(() => loadGoldenDataset(dir));
    expect(e.code).toBe('GOLDEN_MISSING');
    expect(e.message).toContain('manifest.json');
  });
  test('missing data file', () => {
    const dir = tinyCopy();
    rmSync(path.join(dir, 'queries.f32'));
    const e = thrown(() => loadGoldenDataset(dir));
    expect(e.code).toBe('GOLDEN_MISSING');
    expect(e.message).toContain(path.join(dir, 'queries.f32'));
  });
});

describe('manifest schema (GOLDEN_INVALID)', () => {
  /* eslint-disable @typescript-eslint/no-explicit-any -- each case edits the parsed manifest JSON into an invalid shape */
  test.each([
    [
      'dim as a string',
      (m: any) => {
        m.dim = '3';
      },
      'field "dim"',
    ],
    [
      'unknown metric',
      (m: any) => {
        m.metric = 'dot';
      },
      'field "metric"',
    ],
    [
      'missing embeddingModel.id',
      (m: any) => {
        delete m.embeddingModel.id;
      },
      'field "embeddingModel.id": missing',
    ],
    [
      'unknown top-level key',
      (m: any) => {
        m.extra = 1;
      },
      'unknown field "extra"',
    ],
    [
      'format 2',
      (m: any) => {
        m.format = 2;
      },
      'field "format"',
    ],
    [
      'bad sha256',
      (m: any) => {
        m.files['memories.f32'].sha256 = 'XYZ';
      },
      'field "files.memories.f32.sha256"',
    ],
    [
      'a data file not listed',
      (m: any) => {
        delete m.files['queries.f32'];
      },
      'field "files.queries.f32": missing',
    ],
  ])('%s', (_name, fn, field) => {
    const dir = tinyCopy();
    editManifest(dir, fn);
    const e = thrown(() => loadGoldenDataset(dir));
    expect(e.code).toBe('GOLDEN_INVALID');
    expect(e.message).toContain(path.join(dir, 'manifest.json'));
    expect(e.message).toContain(field);
  });
  /* eslint-enable @typescript-eslint/no-explicit-any */
  test('manifest that is not JSON', () => {
    const dir = tinyCopy();
    appendFileSync(path.join(dir, 'manifest.json'), '}');
    const e = thrown(() => readGoldenManifest(dir));
    expect(e.code).toBe('GOLDEN_INVALID');
    expect(e.message).toContain('manifest.json: invalid JSON');
  });
});

describe('GOLDEN_CHECKSUM', () => {
  test('a changed byte fails the sha256 and names the file', () => {
    const dir = tinyCopy();
    const f = path.join(dir, 'memories.jsonl');
    const text = readFileSync(f, 'utf8').replace('Lisbon', 'Lisbom');
    writeFileSync(f, text);
    const e = thrown(() => loadGoldenDataset(dir));
    expect(e.code).toBe('GOLDEN_CHECKSUM');
    expect(e.message).toContain(f);
    expect(e.message).toContain('sha256');
    expect(loadGoldenDataset(dir, { verify: false }).memories[0]!.text).toBe('The user lives in Lisbom.');
  });
  test('a changed size names the byte counts', () => {
    const dir = tinyCopy();
    appendFileSync(path.join(dir, 'queries.jsonl'), '\n');
    const e = thrown(() => loadGoldenDataset(dir));
    expect(e.code).toBe('GOLDEN_CHECKSUM');
    expect(e.message).toContain('queries.jsonl: 277 bytes');
  });
});

describe('JSON Lines records (GOLDEN_INVALID with file:line and field)', () => {
  const cases: Array<[string, string, number, (l: string) => string, string[]]> = [
    ['bad JSON', 'memories.jsonl', 3, (l) => l.slice(0, -1), ['invalid JSON']],
    ['not an object', 'memories.jsonl', 2, () => '[1,2]', ['expected a JSON object']],
    ['missing text', 'memories.jsonl', 2, (l) => l.replace('"text":"Prefers tea over coffee.",', ''), ['field "text": missing']],
    ['ill-typed namespace', 'memories.jsonl', 1, (l) => l.replace('"namespace":"user-a"', '"namespace":7'), ['field "namespace"']],
    ['unknown kind', 'memories.jsonl', 4, (l) => l.replace('"summary"', '"diary"'), ['field "kind"', 'unknown kind "diary"']],
    ['bad timestamp (no ms)', 'memories.jsonl', 2, (l) => l.replace('04:05:06.007Z', '04:05:06Z'), ['field "createdAt"', 'bad timestamp']],
    ['bad timestamp (no such day)', 'memories.jsonl', 2, (l) => l.replace('2024-02-03', '2023-02-29'), ['field "createdAt"', 'bad timestamp']],
    ['duplicate id', 'memories.jsonl', 5, (l) => l.replace('"m5"', '"m1"'), ['field "id"', 'duplicate id "m1" (first on line 1)']],
    ['unknown field', 'memories.jsonl', 3, (l) => l.replace('"id":"m3"', '"id":"m3","score":1'), ['unknown field "score"']],
    ['-0 inside nested metadata', 'memories.jsonl', 4, (l) => l.replace('{"covers":12}', '{"covers":{"n":[1,-0]}}'), ['field "metadata.covers"', 'covers.n[1] is -0']],
    ['empty key inside nested metadata', 'memories.jsonl', 4, (l) => l.replace('{"covers":12}', '{"covers":{"":1}}'), ['field "metadata.covers"', 'covers[""] key "" is empty']],
    ['non-scalar filter metadata', 'queries.jsonl', 3, (l) => l.replace('"pinned":false', '"pinned":[false]'), ['field "filter.metadata.pinned"', 'JSON scalars']],
    ['blank line', 'memories.jsonl', 3, () => '', ['empty line']],
    ['ill-typed k', 'queries.jsonl', 1, (l) => l.replace('"k":2', '"k":"2"'), ['field "k"']],
    ['k of 0', 'queries.jsonl', 2, (l) => l.replace('"k":1', '"k":0'), ['field "k"']],
    ['unknown purpose', 'queries.jsonl', 1, (l) => l.replace('held-out', 'random'), ['field "purpose"', 'unknown purpose']],
    ['unknown filter kind', 'queries.jsonl', 3, (l) => l.replace('"namespaces":["user-b"]', '"kinds":["diary"]'), ['field "filter.kinds.0"']],
    ['bad now', 'queries.jsonl', 2, (l) => l.replace('2024-06-01T00:00:00.000Z', 'yesterday'), ['field "now"', 'bad timestamp']],
    ['duplicate query id', 'queries.jsonl', 3, (l) => l.replace('"q3"', '"q2"'), ['duplicate id "q2"']],
  ];
  test.each(cases)('%s', (_name, file, line, fn, parts) => {
    const dir = tinyCopy();
    editLine(dir, file, line, fn);
    const e = thrown(() => loadGoldenDataset(dir));
    expect(e.code).toBe('GOLDEN_INVALID');
    expect(e.message).toContain(`${path.join(dir, file)}:${line}:`);
    for (const p of parts) expect(e.message).toContain(p);
  });
  test('nested objects and arrays in a memory load as written (golden-data/FORMAT.md "Metadata values")', () => {
    const dir = tinyCopy();
    editLine(dir, 'memories.jsonl', 4, (l) => l.replace('{"covers":12}', '{"covers":{"n":[1,0,false,"",null,[],{}],"ключ":{"a.b":1.5}}}'));
    expect(loadGoldenDataset(dir).memories[3]!.metadata).toEqual({ covers: { n: [1, 0, false, '', null, [], {}], ключ: { 'a.b': 1.5 } } });
  });
});

describe('vectors (GOLDEN_INVALID)', () => {
  test('.f32 shorter than records × dim × 4 names the file and the short record line', () => {
    const dir = tinyCopy();
    truncateSync(path.join(dir, 'memories.f32'), 56);
    reseal(dir);
    const e = thrown(() => loadGoldenDataset(dir));
    expect(e.code).toBe('GOLDEN_INVALID');
    expect(e.message).toContain(`${path.join(dir, 'memories.f32')}: 56 bytes, expected 5 records × 3 dims × 4 = 60 bytes`);
    expect(e.message).toContain(`${path.join(dir, 'memories.jsonl')}:5 is short`);
  });
  test('a missing whole row names that row', () => {
    const dir = tinyCopy();
    truncateSync(path.join(dir, 'queries.f32'), 12);
    reseal(dir);
    const e = thrown(() => loadGoldenDataset(dir));
    expect(e.message).toContain(`${path.join(dir, 'queries.jsonl')}:2 is short (0 of 12 bytes)`);
  });
  test('.f32 longer than expected', () => {
    const dir = tinyCopy();
    appendFileSync(path.join(dir, 'queries.f32'), Buffer.alloc(12));
    reseal(dir);
    const e = thrown(() => loadGoldenDataset(dir));
    expect(e.code).toBe('GOLDEN_INVALID');
    expect(e.message).toContain('12 bytes after the vector of the last record');
    expect(e.message).toContain(`${path.join(dir, 'queries.jsonl')}:3`);
  });
  test.each([
    ['NaN', 'memories.f32', 2, NaN, 'memories.jsonl:3 (id "m3"', 'component 1 is NaN'],
    ['Infinity', 'queries.f32', 1, Infinity, 'queries.jsonl:2 (id "q2"', 'component 1 is Infinity'],
  ])('%s component names the jsonl line of the record', (_n, file, row, value, where, what) => {
    const dir = tinyCopy();
    setComponent(dir, file, 3, row, 1, value);
    const e = thrown(() => loadGoldenDataset(dir));
    expect(e.code).toBe('GOLDEN_INVALID');
    expect(e.message).toContain(path.join(dir, where));
    expect(e.message).toContain(what);
    expect(e.message).toContain('field "embedding"');
  });
  test('zero vector under cosine', () => {
    const dir = tinyCopy();
    setComponent(dir, 'memories.f32', 3, 3, 2, 0);
    const e = thrown(() => loadGoldenDataset(dir));
    expect(e.code).toBe('GOLDEN_INVALID');
    expect(e.message).toContain(`${path.join(dir, 'memories.jsonl')}:4 (id "m4"`);
    expect(e.message).toContain('zero vector under the cosine metric');
  });
  test('zero vector is accepted under l2 without unit normalisation', () => {
    const dir = tinyCopy();
    setComponent(dir, 'memories.f32', 3, 3, 2, 0);
    editManifest(dir, (m) => {
      m.metric = 'l2';
      m.normalization = 'none';
    });
    expect(loadGoldenDataset(dir).memories[3]!.embedding).toEqual(new Float32Array(3));
  });
  test('non-unit norm under normalization "unit"', () => {
    const dir = tinyCopy();
    setComponent(dir, 'memories.f32', 3, 0, 0, 2);
    const e = thrown(() => loadGoldenDataset(dir));
    expect(e.code).toBe('GOLDEN_INVALID');
    expect(e.message).toContain(`${path.join(dir, 'memories.jsonl')}:1 (id "m1"`);
    expect(e.message).toContain('normalization is "unit"');
  });
});

describe('counts (GOLDEN_INVALID)', () => {
  test.each([
    ['memories', 6, 'field "counts.memories" is 6, but there are 5 records in memories.jsonl'],
    ['queries', 2, 'field "counts.queries" is 2, but there are 3 records in queries.jsonl'],
    ['namespaces', 50, 'field "counts.namespaces" is 50, but there are 3 distinct namespaces'],
  ])('counts.%s', (key, value, text) => {
    const dir = tinyCopy();
    editManifest(dir, (m) => {
      m.counts[key] = value;
    });
    const e = thrown(() => loadGoldenDataset(dir));
    expect(e.code).toBe('GOLDEN_INVALID');
    expect(e.message).toContain(`${path.join(dir, 'manifest.json')}: ${text}`);
  });
});
