/**
 * The real material every user-data fixture is derived from: the committed golden dataset
 * golden-data/agent-memories (real SOTU / Moby-Dick sentences, 384-d unit float32 vectors from the
 * wink word vectors; see golden-data/build/build.mjs). Nothing here draws a random number.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';

const jsonl = (file) =>
  readFileSync(file, 'utf8')
    .split('\n')
    .filter((l) => l !== '')
    .map((l) => JSON.parse(l));

/** Rows of a little-endian float32 file as Float32Arrays of length `dim`. */
function f32Rows(file, dim, rows) {
  const buf = readFileSync(file);
  if (buf.length !== rows * dim * 4) throw new Error(`${file}: ${buf.length} bytes, expected ${rows} × ${dim} × 4`);
  return Array.from({ length: rows }, (_, i) => {
    const v = new Float32Array(dim);
    for (let j = 0; j < dim; j += 1) v[j] = buf.readFloatLE((i * dim + j) * 4);
    return v;
  });
}

/**
 * Read agent-memories from `dir`. Returns `{ manifest, memories, heldOut }`: `memories` are the
 * memory lines with their `vector` (Float32Array, 384); `heldOut` are the unfiltered held-out
 * queries as `{ text, ref, vector }` (the sentence comes from the query's note: "held-out <ref>: <text>").
 */
export function readSource(dir) {
  const manifest = JSON.parse(readFileSync(path.join(dir, 'manifest.json'), 'utf8'));
  const mems = jsonl(path.join(dir, 'memories.jsonl'));
  const mvec = f32Rows(path.join(dir, 'memories.f32'), manifest.dim, mems.length);
  const qs = jsonl(path.join(dir, 'queries.jsonl'));
  const qvec = f32Rows(path.join(dir, 'queries.f32'), manifest.dim, qs.length);
  const memories = mems.map((m, i) => ({ ...m, vector: mvec[i] }));
  const heldOut = [];
  qs.forEach((q, i) => {
    const m = q.purpose === 'held-out' && q.filter === undefined && /^held-out (\S+): ([\s\S]*)$/.exec(q.note ?? '');
    if (m) heldOut.push({ ref: m[1], text: m[2], vector: qvec[i] });
  });
  return { manifest, memories, heldOut };
}
