import { createHash, randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { MemoryMatrixError } from '../errors';
import { makeDirs } from '../fs-dirs';
import type { MemoryRecord } from '../types';
import { loadGoldenDataset } from './load';
import type { GoldenManifest } from './manifest';
import { manifestToText, memoryToLine, queryToLine } from './serialize';
import type { GoldenDataset, GoldenQuery } from './types';
import { encodeF32 } from './vectors';

/** What `writeGoldenDataset` takes: the manifest without `files` (filled here); `counts` optional (computed). */
export interface GoldenDatasetInput {
  manifest: Omit<GoldenManifest, 'files' | 'counts'> & { counts?: GoldenManifest['counts'] };
  memories: MemoryRecord[];
  queries: GoldenQuery[];
}

const sha256 = (b: Buffer) => createHash('sha256').update(b).digest('hex');

/**
 * Write a golden dataset folder atomically: every file goes into a temporary sibling folder,
 * which is validated with `loadGoldenDataset` and then renamed to `dir`. Nothing is left
 * half-written. `opts.overwrite` (default false) replaces an existing dataset folder `dir` whole
 * (including any expected/, since expectations belong to the old fingerprint); anything else at
 * `dir` (a file, a folder without manifest.json) is never replaced.
 * Every `embedding` / `vector` must be a length-`dim` array (Float32Array normally).
 * Throws INVALID_INPUT (dir exists without overwrite, counts given and wrong), DIMENSION_MISMATCH,
 * or the loader's GOLDEN_INVALID naming the record in the temporary folder.
 * Returns the dataset as loaded back from `dir`.
 */
export function writeGoldenDataset(dir: string, input: GoldenDatasetInput, opts: { overwrite?: boolean } = {}): GoldenDataset {
  const root = path.resolve(dir);
  if (existsSync(root) && !opts.overwrite) throw new MemoryMatrixError('INVALID_INPUT', `writeGoldenDataset: ${root} exists; pass { overwrite: true } to replace it`);
  if (existsSync(root) && !(statSync(root).isDirectory() && existsSync(path.join(root, 'manifest.json')))) {
    throw new MemoryMatrixError('INVALID_INPUT', `writeGoldenDataset: ${root} is not a golden dataset folder (no manifest.json); refusing to replace it`);
  }
  const { manifest, memories, queries } = input;
  const dim = manifest.dim;
  memories.forEach((m) => checkDim(m.embedding, dim, `memory "${m.id}" embedding`));
  queries.forEach((q) => checkDim(q.vector, dim, `query "${q.id}" vector`));
  const counts = { memories: memories.length, queries: queries.length, namespaces: new Set(memories.map((m) => m.namespace)).size };
  const given = manifest.counts;
  if (given && (given.memories !== counts.memories || given.queries !== counts.queries || given.namespaces !== counts.namespaces)) {
    throw new MemoryMatrixError('INVALID_INPUT', `writeGoldenDataset: manifest counts ${JSON.stringify(manifest.counts)} differ from the data ${JSON.stringify(counts)}`);
  }
  const data = {
    'memories.jsonl': Buffer.from(memories.map((m) => memoryToLine(m) + '\n').join(''), 'utf8'),
    'memories.f32': encodeF32(
      memories.map((m) => m.embedding),
      dim,
    ),
    'queries.jsonl': Buffer.from(queries.map((q) => queryToLine(q) + '\n').join(''), 'utf8'),
    'queries.f32': encodeF32(
      queries.map((q) => q.vector),
      dim,
    ),
  };
  const files = Object.fromEntries(Object.entries(data).map(([n, b]) => [n, { sha256: sha256(b), bytes: b.length }])) as GoldenManifest['files'];
  const full: GoldenManifest = { ...manifest, counts, files };

  makeDirs(path.dirname(root)); // not mkdirSync recursive: it never returns under /proc (fs-dirs.ts)
  const tmp = path.join(path.dirname(root), `.${path.basename(root)}.tmp-${process.pid}-${randomBytes(4).toString('hex')}`);
  try {
    mkdirSync(tmp);
    for (const [name, bytes] of Object.entries(data)) writeFileSync(path.join(tmp, name), bytes);
    writeFileSync(path.join(tmp, 'manifest.json'), manifestToText(full));
    loadGoldenDataset(tmp);
    if (existsSync(root)) {
      const old = `${tmp}.old`;
      renameSync(root, old);
      renameSync(tmp, root);
      rmSync(old, { recursive: true, force: true });
    } else {
      renameSync(tmp, root);
    }
  } catch (e) {
    rmSync(tmp, { recursive: true, force: true });
    throw e;
  }
  return loadGoldenDataset(root);
}

function checkDim(v: ArrayLike<number>, dim: number, what: string): void {
  if (v.length !== dim) throw new MemoryMatrixError('DIMENSION_MISMATCH', `writeGoldenDataset: ${what} has ${v.length} components, manifest dim is ${dim}`);
}
