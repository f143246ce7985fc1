/**
 * Serialisation of a golden dataset, byte for byte the same as packages/spec/src/golden/write.ts:
 * JSON Lines with a fixed key order and '\n' after every line; vectors as little-endian float32,
 * row after row, no header; manifest.json as JSON.stringify(manifest, null, 2) + '\n'.
 * Each file is written to a temporary name and renamed into place.
 */
import { createHash } from 'node:crypto';
import { mkdirSync, renameSync, writeFileSync } from 'node:fs';
import path from 'node:path';

export const memoryLine = (r) => JSON.stringify({ id: r.id, namespace: r.namespace, text: r.text, kind: r.kind, createdAt: r.createdAt, metadata: r.metadata });

export function queryLine(q) {
  const o = { id: q.id, k: q.k };
  if (q.filter !== undefined) o.filter = q.filter;
  if (q.minScore !== undefined) o.minScore = q.minScore;
  if (q.now !== undefined) o.now = q.now;
  o.purpose = q.purpose;
  if (q.note !== undefined) o.note = q.note;
  return JSON.stringify(o);
}

/** Rows' vectors as one little-endian float32 buffer. */
export function f32Bytes(vectors, dim) {
  const buf = Buffer.alloc(vectors.length * dim * 4);
  vectors.forEach((v, i) => {
    if (v.length !== dim) throw new Error(`vector ${i} has ${v.length} components, expected ${dim}`);
    for (let j = 0; j < dim; j += 1) buf.writeFloatLE(v[j], (i * dim + j) * 4);
  });
  return buf;
}

const sha256 = (buf) => createHash('sha256').update(buf).digest('hex');

/**
 * Write manifest.json and the four data files into `dir` (created if needed; other entries such
 * as expected/ are left alone). `manifest` has every field but `files`, which is filled here.
 */
export function writeDataset(dir, manifest, memories, queries) {
  const files = {
    'memories.jsonl': Buffer.from(memories.map((r) => memoryLine(r) + '\n').join(''), 'utf8'),
    'memories.f32': f32Bytes(
      memories.map((r) => r.vector),
      manifest.dim,
    ),
    'queries.jsonl': Buffer.from(queries.map((q) => queryLine(q) + '\n').join(''), 'utf8'),
    'queries.f32': f32Bytes(
      queries.map((q) => q.vector),
      manifest.dim,
    ),
  };
  const entries = Object.fromEntries(Object.entries(files).map(([n, b]) => [n, { sha256: sha256(b), bytes: b.length }]));
  const all = { ...files, 'manifest.json': Buffer.from(JSON.stringify({ ...manifest, files: entries }, null, 2) + '\n', 'utf8') };
  mkdirSync(dir, { recursive: true });
  for (const [name, bytes] of Object.entries(all)) {
    const tmp = path.join(dir, `.${name}.tmp-${process.pid}`);
    writeFileSync(tmp, bytes);
    renameSync(tmp, path.join(dir, name));
  }
  return entries;
}

/**
 * datasetSha256: sha256 (hex) of the UTF-8 text made of one line `<sha256>  <name>\n` per entry
 * of manifest.files, names sorted by code unit — the same text `sha256sum` prints for the files.
 */
export function datasetSha256(files) {
  const text = Object.keys(files)
    .sort()
    .map((n) => `${files[n].sha256}  ${n}\n`)
    .join('');
  return sha256(Buffer.from(text, 'utf8'));
}
