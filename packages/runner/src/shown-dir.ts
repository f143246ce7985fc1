import path from 'node:path';

/**
 * How every command prints a folder it wrote to (the reports' `--report-dir`): relative to the
 * working directory when it lies inside it (`matrix-report`, `.` for the folder itself), else its
 * absolute path (`/srv/r1`, never `../../../srv/r1`). `dir` is absolute (the CLI resolves it).
 */
export function shownDir(dir: string): string {
  const rel = path.relative(process.cwd(), dir);
  if (rel === '') return '.';
  return rel.startsWith('..') || path.isAbsolute(rel) ? path.resolve(dir) : rel;
}
