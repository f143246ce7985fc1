import { readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import { MemoryMatrixError, makeDirs } from '@memory-matrix/spec';
import { writeFileAtomic } from '../report/atomic';
import { reportJson } from '../report/write';
import type { Baseline } from './model';

/** Folder of recorded baselines, relative to the working directory: `matrix-baselines/`. */
export const BASELINE_DIR = 'matrix-baselines';

/**
 * Default file of a target's baseline: `matrix-baselines/<target>.json` under `cwd`; characters
 * other than letters, digits, `@ . _ -` (a url target's `/`, `:`, parentheses) become `_`.
 */
export function defaultBaselineFile(target: string, cwd = process.cwd()): string {
  return path.resolve(cwd, BASELINE_DIR, `${target.replace(/[^A-Za-z0-9@._-]/g, '_')}.json`);
}

/**
 * `record --out <file>`, checked before anything starts: a missing file (its folder is created
 * when written) or an existing memory-matrix baseline (its JSON `format` is
 * `memory-matrix-baseline`; replaced atomically) is fine. USAGE naming the file when it is a
 * directory, or an existing file that is not a baseline (not JSON, or another `format`):
 * `refusing to overwrite <file> (not a baseline: …)`.
 */
export function checkOutFile(file: string): void {
  let st;
  try {
    st = statSync(file);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return;
    throw new MemoryMatrixError('USAGE', `--out ${file}: cannot check it: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`, { cause: e });
  }
  if (st.isDirectory()) throw new MemoryMatrixError('USAGE', `--out ${file} is a directory; give a file name, e.g. --out ${path.join(file, 'baseline.json')}`);
  let format: unknown;
  try {
    format = (JSON.parse(readFileSync(file, 'utf8')) as { format?: unknown } | null)?.format;
  } catch (e) {
    throw new MemoryMatrixError('USAGE', `--out: refusing to overwrite ${file} (not a baseline: not JSON)`, { cause: e });
  }
  if (format !== 'memory-matrix-baseline') {
    throw new MemoryMatrixError(
      'USAGE',
      `--out: refusing to overwrite ${file} (not a baseline: its format is ${format === undefined ? 'missing' : JSON.stringify(format)}, not "memory-matrix-baseline")`,
    );
  }
}

/**
 * Write `baseline` to `file` atomically (`writeFileAtomic`): its folder is created if missing, the
 * JSON is written to `.<name>.tmp-<pid>` in that folder (report/atomic.ts `tempFileOf`; removed on Ctrl-C, interrupt.ts), then renamed over `file`, so a reader never
 * sees half a baseline. Throws USAGE `cannot write baseline <file>: <code>` (the file system's code:
 * EISDIR `file` is a directory, ENOTDIR / EEXIST a file in the way of its folder, EACCES, ENOSPC,
 * EROFS). After a failure `file` is as it was and no temporary file is left (a folder made for it stays).
 */
export function writeBaseline(baseline: Baseline, file: string): void {
  try {
    makeDirs(path.dirname(file)); // not mkdirSync recursive: it never returns under /proc (spec fs-dirs.ts)
    writeFileAtomic(file, reportJson(baseline));
  } catch (e) {
    throw new MemoryMatrixError('USAGE', `cannot write baseline ${file}: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`, { cause: e });
  }
}

/** A run's index as the catalog resolved it: `none` or a driver's index type (spec `IndexConfig`) with its parameters. */
const indexSchema = z.object({ type: z.string().min(1) }).catchall(z.union([z.number(), z.string(), z.boolean()]));
const runSchema = z.object({
  scan: z.enum(['exact', 'index']),
  index: indexSchema,
  oracleRecall: z.object({ mean: z.number(), min: z.number() }),
  queries: z.array(
    z
      .object({ query: z.string().min(1), k: z.number().int().min(1), ids: z.array(z.string()), scores: z.array(z.number()), ms: z.number() })
      .refine((q) => q.ids.length === q.scores.length, 'ids and scores differ in length'),
  ),
});
const baselineSchema = z.object({
  format: z.literal('memory-matrix-baseline'),
  version: z.literal(1),
  target: z.string().min(1),
  backend: z.string(),
  provider: z.string(),
  provenance: z.object({ tolerances: z.record(z.number()) }).passthrough(),
  dataset: z.object({ name: z.string(), sha256: z.string().regex(/^[0-9a-f]{64}$/) }).passthrough(),
  runs: z.object({ index: runSchema, exact: runSchema.optional() }),
  clusterQueries: z.array(z.string()).optional(),
  filtered: z
    .object({
      set: z.object({ file: z.string(), derivation: z.string(), k: z.number().int().min(1), queries: z.array(z.string()), cases: z.number().int().min(0) }),
      unsupported: z.array(z.object({ case: z.string(), reason: z.string() })),
      runs: z.object({ index: runSchema.optional(), exact: runSchema.optional() }),
    })
    .optional(),
});

/**
 * Read and validate a baseline file. INVALID_INPUT naming the file when it cannot be read, is not
 * JSON, is a report.json (which keeps per-query figures against the oracle, not every query's
 * top-k, so it cannot stand for a baseline), or breaks the schema (with the field path).
 */
export function readBaseline(file: string, role: 'baseline' | 'candidate' = 'baseline'): Baseline {
  let parsed: unknown;
  try {
    parsed = JSON.parse(readFileSync(file, 'utf8'));
  } catch (e) {
    throw new MemoryMatrixError('INVALID_INPUT', `${role} ${file}: cannot read it: ${(e as Error).message}`, { cause: e });
  }
  const fmt = (parsed as { format?: unknown } | null)?.format;
  if (fmt === 'memory-matrix-report') {
    throw new MemoryMatrixError(
      'INVALID_INPUT',
      `${role} ${file} is a report.json: it keeps each query's figures against the oracle (and the worst queries' lists), not every query's top-k ids and scores; record a baseline instead: memory-matrix record --backend <target> (or pass the target name to diff)`,
    );
  }
  const r = baselineSchema.safeParse(parsed);
  if (!r.success) {
    const issue = r.error.issues[0]!;
    throw new MemoryMatrixError('INVALID_INPUT', `${role} ${file}: ${issue.path.join('.') || '(top level)'}: ${issue.message} (not a memory-matrix baseline of version 1?)`);
  }
  return parsed as Baseline;
}
