import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { MemoryMatrixError } from '../errors';
import type { MemoryRecord } from '../types';
import { datasetSha256 } from './fingerprint';
import { readGoldenManifest, type GoldenManifest } from './manifest';
import { readGoldenFile } from './read';
import { memoryLineSchema, parseJsonLines, queryLineSchema, type MemoryLine, type QueryLine } from './records';
import { GOLDEN_DATA_FILES, type GoldenDataFile, type GoldenDataset, type GoldenQuery } from './types';
import { checkRows, decodeF32 } from './vectors';

/**
 * Load and validate a golden dataset folder (format 1, golden-data/FORMAT.md). Synchronous.
 * `opts.verify` (default true) checks every data file's size and sha256 against the manifest.
 * Errors (MemoryMatrixError):
 * - GOLDEN_MISSING: the folder, manifest.json or a data file is absent;
 * - GOLDEN_CHECKSUM: a file's byte size or sha256 differs from manifest.files;
 * - GOLDEN_INVALID: manifest schema; per line `<file>:<line>` bad JSON, missing / ill-typed /
 *   unknown field, unknown kind, bad timestamp, duplicate id; `.f32` size ≠ records × dim × 4
 *   (naming the record line whose vector is short); NaN/±Infinity or (cosine) zero vector or
 *   (unit) non-unit norm, naming the jsonl line of the record; counts ≠ manifest.counts.
 */
export function loadGoldenDataset(dir: string, opts: { verify?: boolean } = {}): GoldenDataset {
  const root = path.resolve(dir);
  const manifest = readGoldenManifest(root);
  const bytes = readDataFiles(root, manifest, opts.verify ?? true);
  const memFile = path.join(root, 'memories.jsonl');
  const qFile = path.join(root, 'queries.jsonl');
  const memLines = parseJsonLines<MemoryLine>(bytes['memories.jsonl'].toString('utf8'), memFile, memoryLineSchema);
  const qLines = parseJsonLines<QueryLine>(bytes['queries.jsonl'].toString('utf8'), qFile, queryLineSchema);
  const { dim, metric } = manifest;
  const unit = manifest.normalization === 'unit';
  const vectors = decodeF32(bytes['memories.f32'], memLines.length, dim, path.join(root, 'memories.f32'), memFile);
  const queryVectors = decodeF32(bytes['queries.f32'], qLines.length, dim, path.join(root, 'queries.f32'), qFile);
  checkRows(vectors, dim, metric, unit, (r) => `${memFile}:${r + 1} (id "${memLines[r]!.id}", memories.f32 row ${r + 1})`);
  checkRows(queryVectors, dim, metric, unit, (r) => `${qFile}:${r + 1} (id "${qLines[r]!.id}", queries.f32 row ${r + 1})`);
  checkCounts(root, manifest, memLines, qLines.length);

  const memories: MemoryRecord[] = memLines.map((m, i) => ({ ...m, embedding: vectors.subarray(i * dim, (i + 1) * dim) }));
  const queries: GoldenQuery[] = qLines.map((q, i) => ({ ...q, vector: queryVectors.subarray(i * dim, (i + 1) * dim) }));
  return { dir: root, manifest, datasetSha256: datasetSha256(manifest.files), memories, queries, vectors, queryVectors };
}

/** Read the four data files; with `verify`, compare size and sha256 with the manifest. */
function readDataFiles(root: string, manifest: GoldenManifest, verify: boolean): Record<GoldenDataFile, Buffer> {
  const out = {} as Record<GoldenDataFile, Buffer>;
  for (const name of GOLDEN_DATA_FILES) {
    const file = path.join(root, name);
    if (!existsSync(file)) throw new MemoryMatrixError('GOLDEN_MISSING', `${file} is missing (listed in ${path.join(root, 'manifest.json')})`);
    const buf = readGoldenFile(file);
    const want = manifest.files[name];
    if (verify && buf.length !== want.bytes) {
      throw new MemoryMatrixError('GOLDEN_CHECKSUM', `${file}: ${buf.length} bytes, manifest.json files["${name}"].bytes says ${want.bytes}`);
    }
    if (verify) {
      const got = createHash('sha256').update(buf).digest('hex');
      if (got !== want.sha256) {
        throw new MemoryMatrixError('GOLDEN_CHECKSUM', `${file}: sha256 ${got}, manifest.json files["${name}"].sha256 says ${want.sha256}`);
      }
    }
    out[name] = buf;
  }
  return out;
}

function checkCounts(root: string, manifest: GoldenManifest, memLines: MemoryLine[], queries: number): void {
  const file = path.join(root, 'manifest.json');
  const namespaces = new Set(memLines.map((m) => m.namespace)).size;
  const actual = { memories: memLines.length, queries, namespaces };
  for (const key of ['memories', 'queries', 'namespaces'] as const) {
    if (manifest.counts[key] !== actual[key]) {
      const what = key === 'namespaces' ? 'distinct namespaces in memories.jsonl' : `records in ${key}.jsonl`;
      throw new MemoryMatrixError('GOLDEN_INVALID', `${file}: field "counts.${key}" is ${manifest.counts[key]}, but there are ${actual[key]} ${what}`);
    }
  }
}
