import type { MemoryRecord } from '@memory-matrix/spec';
import { vectorToLiteral } from '@memory-matrix/adapter-pgvector';

/**
 * The text-format encoder of the bench's `COPY … FROM STDIN` contender, in the column order of
 * the adapter's table (id, namespace, kind, text, created_at, metadata, embedding). The binary
 * format is the adapter's own bulk path (`encodeCopyBinary` of @memory-matrix/adapter-pgvector,
 * copy-binary.ts), used by the bench's binary contender as it is.
 */

/** COPY text-format escaping of one field: backslash, tab, newline and carriage return. */
export function escapeCopyText(s: string): string {
  return s.replace(/[\\\t\n\r]/g, (c) => (c === '\\' ? '\\\\' : c === '\t' ? '\\t' : c === '\n' ? '\\n' : '\\r'));
}

/** One COPY text line (tab-separated, newline-terminated); the vector is the adapter's own text literal. */
export function encodeRowText(r: MemoryRecord): string {
  return [r.id, r.namespace, r.kind, r.text, r.createdAt, JSON.stringify(r.metadata), vectorToLiteral(r.embedding)].map(escapeCopyText).join('\t') + '\n';
}

/** A whole COPY text payload for `records`. */
export function encodeCopyText(records: MemoryRecord[]): string {
  return records.map(encodeRowText).join('');
}
