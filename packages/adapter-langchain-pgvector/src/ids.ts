import { createHash } from 'node:crypto';

/**
 * The namespace UUID of memory ids (RFC 4122 §4.3 name-based UUIDs), fixed for memory-matrix: the
 * same memory id maps to the same row id in every run, every process and every client.
 */
export const MEMORY_ID_NAMESPACE = '218ac321-644a-4fad-b17c-65cfe43145d5';

const NAMESPACE_BYTES = Buffer.from(MEMORY_ID_NAMESPACE.replace(/-/g, ''), 'hex');

/**
 * The row id LangChain.js's PGVectorStore stores for memory `id`: PGVectorStore's table has
 * `id uuid PRIMARY KEY` (`ensureTableInDatabase`, @langchain/community 1.1.29
 * dist/vectorstores/pgvector.cjs) and `deleteById` casts `$1::uuid[]`, so an id that is not a UUID
 * (`mem-00001`, or the `"1"` of its own docs example) is refused by the server (SQLSTATE 22P02,
 * `invalid input syntax for type uuid`). A memory id therefore becomes the version-5 UUID of its
 * UTF-8 bytes in `MEMORY_ID_NAMESPACE` (RFC 4122 §4.3: SHA-1 of namespace ‖ name, first 16 bytes,
 * version nibble 5, variant bits 10); the memory id itself is kept in the document's metadata
 * (documents.ts). Pure; any string in, a lower-case `xxxxxxxx-xxxx-5xxx-yxxx-xxxxxxxxxxxx` out.
 */
export function rowIdOf(id: string): string {
  const h = createHash('sha1').update(NAMESPACE_BYTES).update(Buffer.from(id, 'utf8')).digest();
  h[6] = (h[6]! & 0x0f) | 0x50;
  h[8] = (h[8]! & 0x3f) | 0x80;
  const x = h.subarray(0, 16).toString('hex');
  return `${x.slice(0, 8)}-${x.slice(8, 12)}-${x.slice(12, 16)}-${x.slice(16, 20)}-${x.slice(20, 32)}`;
}
