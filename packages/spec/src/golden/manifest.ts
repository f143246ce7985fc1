import { existsSync, readdirSync } from 'node:fs';
import { readGoldenFile } from './read';
import path from 'node:path';
import { z } from 'zod';
import { didYouMean } from '../did-you-mean';
import { MemoryMatrixError } from '../errors';
import { METRICS } from '../types';
import { zodMessage } from './where';

const fileEntry = z.object({ sha256: z.string().regex(/^[0-9a-f]{64}$/, 'expected 64 lowercase hex digits'), bytes: z.number().int().nonnegative() }).strict();
const sourceEntry = z.object({ source: z.string().min(1), licence: z.string().min(1), note: z.string().optional() }).strict();

/** zod schema of manifest.json, format 1 (golden-data/FORMAT.md). Unknown keys are rejected. */
export const goldenManifestSchema = z
  .object({
    format: z.literal(1),
    name: z.string().regex(/^[a-z0-9][a-z0-9._-]{0,63}$/, 'expected [a-z0-9._-], 1..64 chars'),
    version: z.string().min(1),
    dim: z.number().int().min(1).max(16000),
    metric: z.enum(METRICS as unknown as ['cosine', 'ip', 'l2']),
    normalization: z.enum(['unit', 'none']),
    embeddingModel: z.object({ id: z.string().min(1), description: z.string(), source: z.string() }).strict(),
    counts: z.object({ memories: z.number().int().nonnegative(), queries: z.number().int().nonnegative(), namespaces: z.number().int().nonnegative() }).strict(),
    provenance: z.object({ text: z.array(sourceEntry), vectors: sourceEntry, builder: z.string().min(1), seed: z.number().int().nonnegative() }).strict(),
    files: z.object({ 'memories.jsonl': fileEntry, 'memories.f32': fileEntry, 'queries.jsonl': fileEntry, 'queries.f32': fileEntry }).strict(),
  })
  .strict();

/** manifest.json of a golden dataset (format 1). `files` maps each data file to its sha256 (hex) and size in bytes. */
export type GoldenManifest = z.infer<typeof goldenManifestSchema>;

/**
 * Parse and validate manifest.json text. `file` names the file in messages.
 * Throws GOLDEN_INVALID (`<file>: invalid JSON …` or `<file>: field "<path>": …`).
 */
export function parseGoldenManifest(text: string, file: string): GoldenManifest {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (e) {
    throw new MemoryMatrixError('GOLDEN_INVALID', `${file}: invalid JSON: ${(e as Error).message}`, { cause: e });
  }
  const r = goldenManifestSchema.safeParse(raw);
  if (!r.success) throw new MemoryMatrixError('GOLDEN_INVALID', `${file}: ${zodMessage(r.error)}`, { cause: r.error });
  return r.data;
}

/**
 * Read `<dir>/manifest.json` only (nothing else is read): enough for `checkFingerprint` before
 * any data is loaded. Throws GOLDEN_MISSING (folder or manifest absent; a missing folder lists
 * the datasets beside it, e.g. `--dataset <name>` mistyped) or GOLDEN_INVALID.
 */
export function readGoldenManifest(dir: string): GoldenManifest {
  const file = path.join(dir, 'manifest.json');
  if (!existsSync(dir)) throw new MemoryMatrixError('GOLDEN_MISSING', `golden dataset folder ${dir} is missing${datasetsBeside(dir)}`);
  if (!existsSync(file)) throw new MemoryMatrixError('GOLDEN_MISSING', `${file} is missing`);
  return parseGoldenManifest(readGoldenFile(file).toString('utf8'), file);
}

/** The datasets in `dir`: its folders holding a manifest.json, sorted; none when `dir` cannot be read. */
export function datasetNamesIn(dir: string): string[] {
  try {
    return readdirSync(dir, { withFileTypes: true })
      .filter((e) => e.isDirectory() && existsSync(path.join(dir, e.name, 'manifest.json')))
      .map((e) => e.name)
      .sort();
  } catch {
    return [];
  }
}

/**
 * `; [did you mean a?] the datasets in <parent> are a, b` (`datasetNamesIn` of `dir`'s parent), or
 * '' when the parent has none or cannot be read.
 */
function datasetsBeside(dir: string): string {
  const parent = path.dirname(dir);
  const names = datasetNamesIn(parent);
  const hint = didYouMean(path.basename(dir), names);
  return names.length ? `; ${hint ? `${hint} ` : ''}the datasets in ${parent} are ${names.join(', ')}` : '';
}
