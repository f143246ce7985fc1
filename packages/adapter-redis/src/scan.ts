import type Redis from 'ioredis';
import { keysetPage, MemoryMatrixError, validateScanOptions, type MemoryRecord, type ScanOptions } from '@memory-matrix/spec';
import { decodeDoc } from './codec';
import { ADAPTER, type StoreContext } from './context';
import type { collectionKeys } from './keys';

/**
 * `MemoryCollection.scan` on a Vector Sets collection. Neither the vector set (VRANDMEMBER is a
 * sample, VLINKS a graph walk) nor a hash can range-scan ids, so each page:
 * 1. lists every id of the `docs` hash with `HSCAN … NOVALUES` (Redis ≥ 7.4; field names only,
 *    never KEYS), sorts them in UTF-8 byte order and takes the `limit` after `after`
 *    (spec `keysetPage`): O(n) per page over n memories;
 * 2. reads those records with HMGET (`decodeDoc`: text, metadata, createdAt as written, the
 *    embedding as the float32 bytes the adapter wrote — NOT the vector set's copy, which is
 *    int8-quantized and normalised under `q8`: that one serves recall, VEMB would approximate it);
 * 3. checks the two structures agree: VISMEMBER for each id of the page (a doc without a vector
 *    could never be recalled) and VCARD = number of docs (a vector without a doc could not be read).
 * A doc deleted between the listing and the read is left out. Throws INVALID_INPUT,
 * PAYLOAD_UNSUPPORTED (undecodable doc, or docs and vector set disagree: key and id named),
 * BACKEND_ERROR.
 */
export async function scanDocs(ctx: StoreContext, keys: ReturnType<typeof collectionKeys>, dim: number, name: string, opts: ScanOptions): Promise<MemoryRecord[]> {
  const { after, limit } = validateScanOptions(opts, `${ADAPTER}: collection ${name}`);
  return ctx.run('scan', keys.docs, async () => {
    const ids = await hashFields(ctx.client, keys.docs);
    const page = keysetPage(ids, after, limit);
    const pipe = ctx.client.pipeline();
    pipe.call('VCARD', keys.vset);
    if (page.length) pipe.hmget(keys.docs, ...page);
    for (const id of page) pipe.call('VISMEMBER', keys.vset, id);
    const replies = (await pipe.exec()) ?? [];
    const failed = replies.find(([e]) => e !== null);
    if (failed) throw failed[0];
    const card = Number(replies[0]![1]);
    if (card !== ids.length) {
      throw new MemoryMatrixError(
        'PAYLOAD_UNSUPPORTED',
        `${ADAPTER}: collection ${name}: vector set ${keys.vset} has ${card} elements but ${keys.docs} has ${ids.length} documents; the two disagree (a vector without its document, or the reverse)`,
      );
    }
    if (page.length === 0) return [];
    const docs = replies[1]![1] as Array<string | null>;
    const out: MemoryRecord[] = [];
    page.forEach((id, i) => {
      const raw = docs[i];
      if (raw === null || raw === undefined) return; // deleted since the listing
      if (Number(replies[2 + i]![1]) !== 1) {
        throw new MemoryMatrixError('PAYLOAD_UNSUPPORTED', `${ADAPTER}: ${keys.docs} field ${JSON.stringify(id)}: no element in vector set ${keys.vset} (recall can never return this memory)`);
      }
      out.push(decodeDoc(id, raw, keys.docs, dim));
    });
    return out;
  });
}

/** Every field name of hash `key`, by `HSCAN … NOVALUES` in steps of 1,000 (the server's listing; fields written during it may or may not appear). */
export async function hashFields(client: Redis, key: string): Promise<string[]> {
  const found: string[] = [];
  let cursor = '0';
  do {
    const [next, fields] = (await client.call('HSCAN', key, cursor, 'COUNT', '1000', 'NOVALUES')) as [string, string[]];
    found.push(...fields);
    cursor = next;
  } while (cursor !== '0');
  return found;
}
