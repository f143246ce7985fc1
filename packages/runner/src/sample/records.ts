/**
 * Turn a source row into a golden `MemoryRecord`: text and metadata redacted (when asked), ids and
 * namespaces that contain a detectable personal detail replaced by a keyed pseudonym, metadata
 * flattened to JSON scalars, the embedding parsed exactly by the source (never changed by redaction).
 */
import { createHash } from 'node:crypto';
import { MemoryMatrixError, type MemoryKind, type MemoryRecord, type Metadata, type SampleRow, type SampleSource } from '@memory-matrix/spec';
import { STRICT, CATEGORIES } from './detectors';
import { redactText, redactValue, type RedactionTally } from './redact';

const KINDS: readonly MemoryKind[] = ['fact', 'preference', 'episode', 'summary'];
/** createdAt of a row without one (the golden format requires an instant). */
export const MISSING_CREATED_AT = '1970-01-01T00:00:00.000Z';

/** Counters of what the conversion changed besides redaction (written to the provenance). */
export interface ConversionStats {
  pseudonymisedIds: number;
  pseudonymisedNamespaces: number;
  kindDefaulted: number;
  createdAtMissing: number;
  metadataFlattened: number;
}

export const newStats = (): ConversionStats => ({ pseudonymisedIds: 0, pseudonymisedNamespaces: 0, kindDefaulted: 0, createdAtMissing: 0, metadataFlattened: 0 });

const hasPersonal = (s: string) => CATEGORIES.some((c) => STRICT[c](s).length > 0);
const pseudonym = (prefix: string, seed: number, s: string) => `${prefix}-${createHash('sha256').update(`${seed}\0${prefix}\0${s}`).digest('hex').slice(0, 12)}`;

/**
 * Flatten a metadata JSON value to an object of scalars: nested objects become dotted keys
 * (`a.b`), arrays become their JSON text, a non-object top level becomes `{ value: … }`.
 */
export function flattenMetadata(v: unknown, stats?: ConversionStats): Metadata {
  const out: Metadata = {};
  const walk = (x: unknown, prefix: string) => {
    if (x !== null && typeof x === 'object' && !Array.isArray(x)) {
      for (const [k, y] of Object.entries(x as Record<string, unknown>)) walk(y, prefix ? `${prefix}.${k}` : k);
      if (prefix && stats) stats.metadataFlattened += 1;
      return;
    }
    const key = prefix || 'value';
    if (Array.isArray(x)) {
      out[key] = JSON.stringify(x);
      if (stats) stats.metadataFlattened += 1;
    } else out[key] = x as string | number | boolean | null;
  };
  if (v === null || v === undefined) return out;
  walk(v, '');
  return out;
}

/**
 * Convert one row. `redact` with a `tally` redacts text and every metadata string;
 * `parseEmbedding` is the source's (`SampleSource.parseEmbedding`).
 * Throws INVALID_INPUT naming the table and id for metadata that is not JSON, INVALID_VECTOR for a bad embedding.
 */
export function toMemory(
  row: SampleRow,
  o: { table: string; seed: number; redact: boolean; tally: RedactionTally; stats: ConversionStats; parseEmbedding: SampleSource['parseEmbedding'] },
): MemoryRecord {
  const where = `${o.table} id ${JSON.stringify(row.id)}`;
  let meta: unknown = null;
  if (row.metadata !== null) {
    try {
      meta = JSON.parse(row.metadata);
    } catch (e) {
      throw new MemoryMatrixError('INVALID_INPUT', `${where}: metadata is not JSON: ${(e as Error).message}`, { cause: e });
    }
  }
  let metadata = flattenMetadata(meta, o.stats);
  let kind = (row.kind ?? '') as MemoryKind;
  if (!KINDS.includes(kind)) {
    if (row.kind !== null) metadata.source_kind = row.kind;
    kind = 'episode';
    o.stats.kindDefaulted += 1;
  }
  let id = row.id;
  let namespace = row.namespace ?? '';
  if (namespace === '') namespace = 'default';
  let text = row.text;
  if (o.redact) {
    text = redactText(text, o.tally);
    metadata = redactValue(metadata, o.tally);
    if (hasPersonal(id)) {
      id = pseudonym('mem', o.seed, id);
      o.stats.pseudonymisedIds += 1;
    }
    if (hasPersonal(namespace)) {
      namespace = pseudonym('ns', o.seed, namespace);
      o.stats.pseudonymisedNamespaces += 1;
    }
  }
  if (!row.createdAt) o.stats.createdAtMissing += 1;
  return { id, namespace, text, kind, createdAt: row.createdAt ?? MISSING_CREATED_AT, metadata, embedding: o.parseEmbedding(row.embedding, `${where}: embedding`) };
}
