import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync, renameSync, rmSync, statSync } from 'node:fs';
import path from 'node:path';
import { MemoryMatrixError } from '@memory-matrix/spec';

/**
 * Where `sample --out` may write. Checked before the store is read: an existing path is replaced
 * only with `--overwrite` AND only when it is a dataset folder an earlier `sample` made (a
 * directory holding manifest.json and sample-provenance.json of kind `memory-matrix-sample`) —
 * never a plain file, another folder (a web app's manifest.json is not enough), or a folder holding
 * the working directory. Throws USAGE naming the path.
 */
export function checkSampleOut(out: string, overwrite: boolean, cwd = process.cwd()): string {
  const root = path.resolve(out);
  if (!existsSync(root)) return root;
  if (!overwrite) throw new MemoryMatrixError('USAGE', `--out ${root} exists; pass --overwrite to replace it (only a dataset folder made by \`sample\` is replaced)`);
  if (!madeBySample(root))
    throw new MemoryMatrixError(
      'USAGE',
      `--out ${root}: refusing to replace it with --overwrite: it is not a dataset folder made by \`sample\` (no manifest.json + sample-provenance.json of kind memory-matrix-sample)`,
    );
  const rel = path.relative(root, path.resolve(cwd));
  if (rel === '' || (!rel.startsWith('..') && !path.isAbsolute(rel))) throw new MemoryMatrixError('USAGE', `--out ${root}: refusing to replace the folder that holds the working directory ${cwd}`);
  return root;
}

/** A directory holding manifest.json and a sample-provenance.json whose `kind` is `memory-matrix-sample`. */
function madeBySample(dir: string): boolean {
  if (!statSync(dir).isDirectory() || !existsSync(path.join(dir, 'manifest.json'))) return false;
  try {
    return (JSON.parse(readFileSync(path.join(dir, 'sample-provenance.json'), 'utf8')) as { kind?: unknown }).kind === 'memory-matrix-sample';
  } catch {
    return false;
  }
}

/**
 * Build a dataset in a hidden sibling of `root` with `fill(staging)`, then move it into place in
 * one rename (replacing an old dataset folder, checked by `checkSampleOut`). On any error the
 * staging folder is removed and `root` is untouched: nothing half-written.
 */
export async function writeStaged<T>(root: string, fill: (staging: string) => Promise<T> | T): Promise<T> {
  const staging = path.join(path.dirname(root), `.${path.basename(root)}.staging-${process.pid}-${randomBytes(4).toString('hex')}`);
  try {
    const result = await fill(staging);
    if (existsSync(root)) {
      const old = `${staging}.old`;
      renameSync(root, old);
      renameSync(staging, root);
      rmSync(old, { recursive: true, force: true });
    } else renameSync(staging, root);
    return result;
  } catch (e) {
    rmSync(staging, { recursive: true, force: true });
    throw e;
  }
}
