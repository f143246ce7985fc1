import { z } from 'zod';
import { metadataValueProblem } from '../metadata-value';
import { identifierProblem, metadataKeyProblem, metadataNumberProblem, stringProblem } from '../stored-values';
import { MEMORY_KINDS, type MemoryKind, type Metadata, type MetadataValue, type RecallFilter } from '../types';
import { GOLDEN_PURPOSES, type GoldenPurpose } from './types';
import { invalidAt, zodMessage } from './where';

/** `YYYY-MM-DDTHH:MM:SS.sssZ`, and a real instant (round-trips through Date). */
export const ISO_MS = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
export function isIsoMs(s: string): boolean {
  if (!ISO_MS.test(s)) return false;
  const t = Date.parse(s);
  return Number.isFinite(t) && new Date(t).toISOString() === s;
}

const timestamp = z.string().refine(isIsoMs, (s) => ({
  message: `bad timestamp ${JSON.stringify(s)}: expected an ISO-8601 UTC instant with milliseconds, YYYY-MM-DDTHH:MM:SS.sssZ`,
}));
const kind = z.string().refine(
  (s) => (MEMORY_KINDS as readonly string[]).includes(s),
  (s) => ({
    message: `unknown kind ${JSON.stringify(s)}; expected one of ${MEMORY_KINDS.join(', ')}`,
  }),
);
const purpose = z.string().refine(
  (s) => (GOLDEN_PURPOSES as readonly string[]).includes(s),
  (s) => ({
    message: `unknown purpose ${JSON.stringify(s)}; expected one of ${GOLDEN_PURPOSES.join(', ')}`,
  }),
);
const scalars = z.record(z.union([z.string(), z.number(), z.boolean(), z.null()], { errorMap: () => ({ message: 'metadata values must be JSON scalars (string, number, boolean, null)' }) }));
/** A memory's metadata values: scalars, arrays and objects (checked by metadata-value.ts in `metadataOf` before this runs). */
const jsonValues = z.record(z.custom<MetadataValue>(() => true));

/** A string field every store keeps (stored-values.ts): no NUL, no lone surrogate; `identifier`: no control character either. */
const stored = (schema: z.ZodString, identifier: boolean) =>
  schema.superRefine((s, ctx) => {
    const p = identifier ? identifierProblem(s) : stringProblem(s);
    if (p !== null) ctx.addIssue({ code: z.ZodIssueCode.custom, message: p });
  });

/**
 * Metadata whose keys and values pass stored-values.ts (the contract's rule). In a query filter
 * (`inFilter`: −0 allowed) values are JSON scalars; in a memory they may also be arrays and
 * objects, checked at every level by metadata-value.ts (golden-data/FORMAT.md "Metadata values"),
 * the problem named by its path (`metadata.src.doc.year`).
 */
const metadataOf = (inFilter: boolean) =>
  // The rule runs on the parsed JSON before zod copies the record: the copy drops a `__proto__` key.
  z
    .unknown()
    .superRefine((m, ctx) => {
      if (typeof m !== 'object' || m === null || Array.isArray(m)) return;
      for (const [key, value] of Object.entries(m)) {
        const kp = metadataKeyProblem(key);
        if (kp !== null) {
          ctx.addIssue({ code: z.ZodIssueCode.custom, path: [key], message: `key ${JSON.stringify(key)} ${kp}` });
          continue;
        }
        if (typeof value === 'object' && value !== null && !inFilter) {
          const p = metadataValueProblem(value, key, ['nested', 'array']);
          if (p !== null) ctx.addIssue({ code: z.ZodIssueCode.custom, path: [key], message: `${p.path} ${p.problem}` });
          continue;
        }
        const vp = typeof value === 'string' ? stringProblem(value) : typeof value === 'number' ? metadataNumberProblem(value, inFilter) : null;
        if (vp !== null) ctx.addIssue({ code: z.ZodIssueCode.custom, path: [key], message: `value ${vp}` });
      }
    })
    .pipe(inFilter ? scalars : jsonValues);
const id = stored(z.string().min(1).max(256), true);

/**
 * One line of memories.jsonl (without its vector). Unknown keys are rejected; strings and metadata
 * follow stored-values.ts, the rule the adapter contract applies (record-validation.ts).
 */
export const memoryLineSchema = z.object({ id, namespace: stored(z.string().min(1), true), text: stored(z.string().min(1), false), kind, createdAt: timestamp, metadata: metadataOf(false) }).strict();

/** One line of queries.jsonl (without its vector). Unknown keys are rejected. */
export const queryLineSchema = z
  .object({
    id,
    k: z.number().int().min(1).max(1000),
    filter: z
      .object({
        namespaces: z
          .array(stored(z.string().min(1), true))
          .min(1)
          .optional(),
        kinds: z.array(kind).min(1).optional(),
        metadata: metadataOf(true).optional(),
      })
      .strict()
      .optional(),
    minScore: z.number().optional(),
    now: timestamp.optional(),
    purpose,
    note: z.string().optional(),
  })
  .strict();

export interface MemoryLine {
  id: string;
  namespace: string;
  text: string;
  kind: MemoryKind;
  createdAt: string;
  metadata: Metadata;
}
export interface QueryLine {
  id: string;
  k: number;
  filter?: RecallFilter;
  minScore?: number;
  now?: string;
  purpose: GoldenPurpose;
  note?: string;
}

/**
 * Parse JSON Lines text into validated records, in line order. Every line must hold one JSON
 * object (no blank lines; the final '\n' may be missing). Ids must be unique within the file.
 * Throws GOLDEN_INVALID `<file>:<line>: …` naming the field (bad JSON, missing / ill-typed /
 * unknown field, unknown kind or purpose, bad timestamp, duplicate id).
 */
export function parseJsonLines<T extends { id: string }>(text: string, file: string, schema: z.ZodTypeAny): T[] {
  const lines = text.split('\n');
  if (lines[lines.length - 1] === '') lines.pop();
  const out: T[] = [];
  const seen = new Map<string, number>();
  lines.forEach((line, i) => {
    const n = i + 1;
    if (line.trim() === '') throw invalidAt(file, n, 'empty line; every line must hold one JSON object');
    let raw: unknown;
    try {
      raw = JSON.parse(line);
    } catch (e) {
      throw invalidAt(file, n, `invalid JSON: ${(e as Error).message}`, e);
    }
    if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) throw invalidAt(file, n, 'expected a JSON object');
    const r = schema.safeParse(raw);
    if (!r.success) {
      const rid = (raw as { id?: unknown }).id;
      throw invalidAt(file, n, `${typeof rid === 'string' ? `(id "${rid}") ` : ''}${zodMessage(r.error)}`, r.error);
    }
    const rec = r.data as T;
    const first = seen.get(rec.id);
    if (first !== undefined) throw invalidAt(file, n, `field "id": duplicate id "${rec.id}" (first on line ${first})`);
    seen.set(rec.id, n);
    out.push(rec);
  });
  return out;
}
