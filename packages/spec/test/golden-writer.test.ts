import { createHash } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { checkFingerprint, datasetSha256 } from '../src/golden/fingerprint';
import { loadGoldenDataset } from '../src/golden/load';
import { readGoldenManifest } from '../src/golden/manifest';
import { writeGoldenDataset, type GoldenDatasetInput } from '../src/golden/write';
import { TINY, thrown } from './fixtures/golden-helpers';

const FILES = ['manifest.json', 'memories.jsonl', 'memories.f32', 'queries.jsonl', 'queries.f32'];
let tmp: string;
beforeEach(() => {
  tmp = mkdtempSync(path.join(os.tmpdir(), 'mm-golden-w-'));
});
afterEach(() => rmSync(tmp, { recursive: true, force: true }));

function inputFrom(dir: string): GoldenDatasetInput {
  const d = loadGoldenDataset(dir);
  const { files: _files, ...manifest } = d.manifest;
  return { manifest, memories: d.memories, queries: d.queries };
}

describe('datasetSha256', () => {
  test('is sha256 of the sha256sum-style listing of manifest.files, names sorted', () => {
    const m = readGoldenManifest(TINY);
    const listing = ['memories.f32', 'memories.jsonl', 'queries.f32', 'queries.jsonl']
      .map(
        (n) =>
          `${createHash('sha256')
            .update(readFileSync(path.join(TINY, n)))
            .digest('hex')}  ${n}\n`,
      )
      .join('');
    expect(datasetSha256(m.files)).toBe(createHash('sha256').update(listing).digest('hex'));
    expect(loadGoldenDataset(TINY).datasetSha256).toBe(datasetSha256(m.files));
  });
});

describe('checkFingerprint', () => {
  const m = readGoldenManifest(TINY);
  test('passes when dim, metric and model agree (model optional)', () => {
    expect(() => checkFingerprint(m, { dim: 3, metric: 'cosine', embeddingModel: 'hand-made-3d' }, 'pgvector@pg17')).not.toThrow();
    expect(() => checkFingerprint(m, { dim: 3, metric: 'cosine' }, 'pgvector@pg17')).not.toThrow();
  });
  test.each([
    [{ dim: 384, metric: 'cosine' as const }, 'dim 384 ≠ dataset dim 3'],
    [{ dim: 3, metric: 'l2' as const }, 'metric l2 ≠ dataset metric cosine'],
    [{ dim: 3, metric: 'cosine' as const, embeddingModel: 'other' }, 'embedding model "other" ≠ dataset model "hand-made-3d"'],
  ])('FINGERPRINT_MISMATCH %#', (collection, text) => {
    const e = thrown(() => checkFingerprint(m, collection, 'redis@8.0'));
    expect(e.code).toBe('FINGERPRINT_MISMATCH');
    expect(e.message).toContain('redis@8.0');
    expect(e.message).toContain('golden-tiny@1.0.0');
    expect(e.message).toContain(text);
  });
});

describe('writeGoldenDataset', () => {
  test('round-trips the tiny fixture byte for byte', () => {
    const out = path.join(tmp, 'copy');
    const d = writeGoldenDataset(out, inputFrom(TINY));
    for (const f of FILES) expect(readFileSync(path.join(out, f))).toEqual(readFileSync(path.join(TINY, f)));
    expect(d.datasetSha256).toBe(loadGoldenDataset(TINY).datasetSha256);
    expect(readdirSync(tmp)).toEqual(['copy']);
  });
  test('computes counts and rejects wrong ones', () => {
    const input = inputFrom(TINY);
    const e = thrown(() => writeGoldenDataset(path.join(tmp, 'x'), { ...input, manifest: { ...input.manifest, counts: { memories: 9, queries: 3, namespaces: 3 } } }));
    expect(e.code).toBe('INVALID_INPUT');
    expect(existsSync(path.join(tmp, 'x'))).toBe(false);
  });
  test('refuses an existing folder unless overwrite', () => {
    const out = path.join(tmp, 'copy');
    writeGoldenDataset(out, inputFrom(TINY));
    expect(thrown(() => writeGoldenDataset(out, inputFrom(TINY))).code).toBe('INVALID_INPUT');
    const {
      manifest: { counts: _c, ...manifest },
      memories,
      queries,
    } = inputFrom(TINY);
    const d = writeGoldenDataset(out, { manifest, memories: memories.slice(0, 4), queries }, { overwrite: true });
    expect(d.memories).toHaveLength(4);
    expect(d.manifest.counts.namespaces).toBe(2);
    expect(readdirSync(tmp)).toEqual(['copy']);
  });
  test('overwrite never replaces a plain file or a folder without manifest.json', () => {
    const file = path.join(tmp, 'notes.txt');
    writeFileSync(file, 'keep me');
    expect(thrown(() => writeGoldenDataset(file, inputFrom(TINY), { overwrite: true })).message).toMatch(/not a golden dataset folder/);
    expect(readFileSync(file, 'utf8')).toBe('keep me');
    rmSync(file);
  });
  test('wrong dimension → DIMENSION_MISMATCH, nothing written', () => {
    const input = inputFrom(TINY);
    input.memories[1] = { ...input.memories[1]!, embedding: new Float32Array(4) };
    const e = thrown(() => writeGoldenDataset(path.join(tmp, 'x'), input));
    expect(e.code).toBe('DIMENSION_MISMATCH');
    expect(e.message).toContain('memory "m2"');
    expect(readdirSync(tmp)).toEqual([]);
  });
  test('an invalid record fails validation and leaves no folder and no temp folder', () => {
    const input = inputFrom(TINY);
    input.memories[2] = { ...input.memories[2]!, embedding: Float32Array.from([NaN, 0, 1]) };
    const e = thrown(() => writeGoldenDataset(path.join(tmp, 'x'), input));
    expect(e.code).toBe('GOLDEN_INVALID');
    expect(e.message).toContain('memories.jsonl:3 (id "m3"');
    expect(readdirSync(tmp)).toEqual([]);
  });
  test('canonical order: metadata keys sorted, optional query fields omitted', () => {
    const input = inputFrom(TINY);
    input.memories[0] = { ...input.memories[0]!, metadata: { z: 1, a: '' } };
    input.queries[0] = { ...input.queries[0]!, note: undefined, filter: { metadata: { b: false, a: 0 }, namespaces: ['user-a'] } };
    writeGoldenDataset(path.join(tmp, 'x'), input);
    const mem = readFileSync(path.join(tmp, 'x', 'memories.jsonl'), 'utf8').split('\n')[0];
    expect(mem).toContain('"metadata":{"a":"","z":1}');
    const q = readFileSync(path.join(tmp, 'x', 'queries.jsonl'), 'utf8').split('\n')[0];
    expect(q).toBe('{"id":"q1","k":2,"filter":{"namespaces":["user-a"],"metadata":{"a":0,"b":false}},"purpose":"held-out"}');
  });
});
