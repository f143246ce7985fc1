import { keysetPage, MemoryMatrixError, validateScanOptions, type MemoryRecord, type ScanOptions } from '@memory-matrix/spec';
import type { Collection } from 'chromadb';
import { decodeRecord } from './codec';
import type { StoreContext } from './context';

/**
 * `MemoryCollection.scan` on one Chroma collection. Chroma's `get` pages by `limit`/`offset` in its
 * own storage order and has no id range, so each page:
 * 1. lists every id (`get({ include: [], limit: maxBatch, offset })` until a short page) and checks
 *    the listing against `count()` (a listing that skipped or repeated ids under concurrent writes
 *    is BACKEND_ERROR, never a silently short scan);
 * 2. sorts the ids in UTF-8 byte order and takes the `limit` after `after` (spec `keysetPage`):
 *    O(n) per page over n memories;
 * 3. reads them with `get({ ids, include: documents, metadatas, embeddings })` and decodes each
 *    as `get` does (codec.ts): text, metadata, createdAt as written, the embedding from `mm.vec`
 *    (the float32 written; Chroma's own cosine copy is renormalised, 1 ulp off).
 * A record deleted between listing and reading is left out. Throws INVALID_INPUT, BACKEND_ERROR
 * naming the collection (and the record for one it cannot decode).
 */
export async function scanCollection(ctx: StoreContext, handle: Collection, chromaName: string, name: string, opts: ScanOptions): Promise<MemoryRecord[]> {
  const { after, limit } = validateScanOptions(opts, `chroma: collection ${name}`);
  const listed: string[] = [];
  for (let offset = 0; ; offset += ctx.maxBatch) {
    const r = await ctx.run('scan (list ids)', chromaName, () => handle.get({ include: [], limit: ctx.maxBatch, offset } as never));
    listed.push(...r.ids);
    if (r.ids.length < ctx.maxBatch) break;
  }
  const count = await ctx.run('count', chromaName, () => handle.count());
  const unique = new Set(listed);
  if (unique.size !== count || listed.length !== count) {
    throw new MemoryMatrixError(
      'BACKEND_ERROR',
      `chroma: scan of collection ${chromaName}: listing by offset gave ${listed.length} ids (${unique.size} distinct) but count() is ${count}; written to during the scan?`,
    );
  }
  const page = keysetPage(unique, after, limit);
  if (page.length === 0) return [];
  const out = new Map<string, MemoryRecord>();
  for (let i = 0; i < page.length; i += ctx.maxBatch) {
    const part = page.slice(i, i + ctx.maxBatch);
    const r = await ctx.run('scan (get)', chromaName, () => handle.get({ ids: part, include: ['documents', 'metadatas', 'embeddings'] as never }));
    r.ids.forEach((id, j) => out.set(id, decodeRecord(chromaName, id, { document: r.documents[j], meta: r.metadatas[j] as Record<string, unknown> | null, embedding: r.embeddings[j] })));
  }
  return page.flatMap((id) => (out.has(id) ? [out.get(id)!] : []));
}
