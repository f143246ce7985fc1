// A memory as one SQL row of the embedded adapters (issue 33 kit): sqlite and libsql each declared
// the row and read it back the same way.
import { MemoryMatrixError } from '../errors';
import type { MemoryKind, MemoryRecord } from '../types';

/** A memory table row as SELECTed by the embedded SQL adapters: the record's fields, createdAt as `created_at`, metadata as JSON text. */
export interface MemoryRow {
  id: string;
  namespace: string;
  kind: MemoryKind;
  text: string;
  created_at: string;
  metadata: string;
}

/**
 * The memory of `row`. `embedding`: the vector already decoded, or a function decoding it after
 * the metadata is parsed (what fails first is the adapter's order). `where` names the adapter,
 * table and id (`sqlite: table t1 id a`). Throws PAYLOAD_UNSUPPORTED `<where>: metadata is not
 * JSON: …` (the parse error as cause), and what `embedding` throws.
 */
export function recordOfRow(row: MemoryRow, embedding: Float32Array | (() => Float32Array), where: string): MemoryRecord {
  let metadata: MemoryRecord['metadata'];
  try {
    metadata = JSON.parse(row.metadata) as MemoryRecord['metadata'];
  } catch (e) {
    throw new MemoryMatrixError('PAYLOAD_UNSUPPORTED', `${where}: metadata is not JSON: ${(e as Error).message}`, { cause: e });
  }
  return { id: row.id, namespace: row.namespace, kind: row.kind, text: row.text, createdAt: row.created_at, metadata, embedding: typeof embedding === 'function' ? embedding() : embedding };
}
