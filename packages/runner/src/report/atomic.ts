import { promises as fsp, renameSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';

/**
 * The temporary name `file` is written under before it is renamed into place: `.<name>.tmp-<pid>`
 * in the same folder (same file system, so the rename is atomic; a dot name, so `*.json` globs and
 * readers of the folder skip it). `file` is a path; the result is a path in the same folder.
 */
export const tempFileOf = (file: string): string => path.join(path.dirname(file), `.${path.basename(file)}.tmp-${process.pid}`);

/**
 * Write `data` to `file` atomically: to `tempFileOf(file)`, then renamed over `file`, so a reader
 * sees the old content or the new, never half of it. The folder must exist (nothing is created).
 * Throws the file system's error, whose message names the path: e.g. ENOENT (the folder is
 * missing), EISDIR (`file` is a directory), ENOTDIR, EACCES, EROFS, ENOSPC. After a failure `file`
 * is as it was (absent, or its previous content) and no temporary file is left.
 */
export function writeFileAtomic(file: string, data: string | Uint8Array): void {
  writeFilesAtomic(path.dirname(file), [[path.basename(file), data]]);
}

/**
 * Write several files of one folder `dir` as a group: every `[name, data]` of `files` (already
 * rendered: nothing is computed between the writes) to its temporary name (`tempFileOf`), then
 * each renamed into place, the last of `files` first and the first — the main file, the one
 * readers and gates look at (report.json, diff.json) — last. `dir` must exist (nothing is created).
 * Throws the file system's error, whose message names the path: e.g. ENOENT (`dir` is missing),
 * EISDIR / ENOTEMPTY / EEXIST (a target name is a directory), EACCES, EROFS, ENOSPC. After a failure
 * no temporary file is left; when a temporary file could not be written none of `files` is
 * replaced; when a rename failed, the files renamed before it (those after it in `files`) have
 * their new content and that one and those before it (the main file among them) are as they were.
 */
export function writeFilesAtomic(dir: string, files: ReadonlyArray<readonly [name: string, data: string | Uint8Array]>): void {
  const temps = files.map(([name]) => tempFileOf(path.join(dir, name)));
  try {
    files.forEach(([, data], i) => writeFileSync(temps[i]!, data));
    for (let i = files.length - 1; i >= 0; i--) renameSync(temps[i]!, path.join(dir, files[i]![0]));
  } catch (e) {
    for (const t of temps) {
      try {
        rmSync(t, { force: true });
      } catch {
        // not ours to remove (a directory in the way of the temporary name): the write's error says enough
      }
    }
    throw e;
  }
}

/**
 * `writeFilesAtomic` on the worker pool (`fs.promises`): the same temporary names, order and
 * outcome (resolves when every file is in place; rejects with the file system's error, after which
 * no temporary file is left), but this process' thread stays free meanwhile, so a signal that comes
 * while a slow or hung file system holds a write is handled (run/interrupt.ts). Two calls for the
 * same `dir` must not overlap (they share the temporary names): callers chain them.
 */
export async function writeFilesAtomicAsync(dir: string, files: ReadonlyArray<readonly [name: string, data: string | Uint8Array]>): Promise<void> {
  const temps = files.map(([name]) => tempFileOf(path.join(dir, name)));
  try {
    for (const [i, [, data]] of files.entries()) await fsp.writeFile(temps[i]!, data);
    for (let i = files.length - 1; i >= 0; i--) await fsp.rename(temps[i]!, path.join(dir, files[i]![0]));
  } catch (e) {
    await Promise.all(temps.map((t) => fsp.rm(t, { force: true }).catch(() => undefined))); // not ours to remove: the write's error says enough
    throw e;
  }
}
