import { existsSync, renameSync, rmdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { MemoryMatrixError, makeDirs } from '@memory-matrix/spec';

/** One file to write: absolute path and its text (UTF-8). */
export interface FileToWrite {
  file: string;
  content: string;
}

/**
 * Write every file or none. Without `force`, any file that exists already stops everything before
 * a byte is written: USAGE naming each existing file. Each file is first written in full to a
 * temporary file beside it (`.<name>.<pid>.tmp`, so the rename stays on one file system), then the
 * temporaries are renamed into place; an existing file being replaced (`force`) is first moved
 * aside and put back if a later step fails. On any failure the temporaries, the moved-aside copies
 * and the folders this call created are removed or restored and the error is rethrown
 * (the file system's error). An existing path that is not a file is USAGE, also with `force`.
 * `check` runs on the staged temporaries (path of each, in order) before anything is renamed:
 * throwing there leaves nothing behind either.
 */
export function writeAllOrNone(files: FileToWrite[], opts: { force: boolean; check?: (staged: string[]) => void }): void {
  const existing = files.filter((f) => existsSync(f.file)).map((f) => f.file);
  const notFiles = existing.filter((f) => !statSync(f).isFile());
  if (notFiles.length) throw new MemoryMatrixError('USAGE', `${notFiles.join(', ')}: exists and is not a file; nothing was written`);
  if (existing.length && !opts.force) {
    throw new MemoryMatrixError('USAGE', `refusing to overwrite ${existing.join(', ')}: ${existing.length > 1 ? 'they exist' : 'it exists'} (nothing was written; --force replaces them)`);
  }
  const createdDirs: string[] = [];
  const staged: string[] = [];
  const asides: Array<{ file: string; aside: string }> = [];
  const placed: string[] = [];
  const tmpOf = (f: string, what: string): string => path.join(path.dirname(f), `.${path.basename(f)}.${process.pid}.${what}`);
  try {
    for (const f of files) {
      for (let d = path.dirname(f.file); !existsSync(d); d = path.dirname(d)) createdDirs.push(d);
      makeDirs(path.dirname(f.file)); // not mkdirSync recursive: it never returns under /proc (spec fs-dirs.ts)
      const tmp = tmpOf(f.file, 'tmp');
      writeFileSync(tmp, f.content, { flag: 'wx' });
      staged.push(tmp);
    }
    opts.check?.(staged);
    files.forEach((f, i) => {
      if (existsSync(f.file)) {
        const aside = tmpOf(f.file, 'old');
        renameSync(f.file, aside);
        asides.push({ file: f.file, aside });
      }
      renameSync(staged[i]!, f.file);
      placed.push(f.file);
    });
  } catch (err) {
    for (const f of placed) rmSync(f, { force: true });
    for (const a of asides) renameSync(a.aside, a.file);
    for (const t of staged) rmSync(t, { force: true });
    for (const d of [...new Set(createdDirs)].sort((a, b) => b.length - a.length)) {
      try {
        rmdirSync(d); // only when empty: never a folder with someone else's files
      } catch {
        // not empty or already gone: leave it
      }
    }
    throw err;
  }
  for (const a of asides) rmSync(a.aside, { force: true });
}
