import { isHnsw, keepMinScore, KitCollection, MemoryMatrixError, rerankWithDecay, tieCompleteTopK, validateDecay, validateMemoryRecord } from '@memory-matrix/spec';
import type { CollectionSpec, IndexInEffect, MemoryRecord, RecallFilter, RecallHit, RecallQuery, ScanOptions } from '@memory-matrix/spec';
import { matchesNothing, numericKeysOf, recordAttributes } from './attributes';
import { createdAtOf, decodeDoc, encodeDoc, f32Blob } from './codec';
import { ADAPTER, execReplies, unitsFor, type StoreContext } from './context';
import type { collectionKeys } from './keys';
import { compileRecallFilter } from './filter-expr';
import { readNumericKeys, registerNumericKeys, settleNumericKeys } from './numeric-keys';
import { redisVsimToCanonical } from './scores';
import { scanDocs } from './scan';
import { REDIS_RULES, validateFilter, validateQuery } from './validate';

/** Quantization of a collection's vector set: `q8` (int8, the Redis default) or `noquant` (float32). */
export type Quantization = 'q8' | 'noquant';
/** The VADD flag of each quantization. */
export const QUANT_FLAG: Record<Quantization, 'Q8' | 'NOQUANT'> = { q8: 'Q8', noquant: 'NOQUANT' };
/** HNSW parameters when the collection's index is `none` (Redis defaults; every recall is TRUTH then). */
const DEFAULT_M = 16;
const DEFAULT_EF_CONSTRUCTION = 200;

/**
 * A collection on Redis Vector Sets (keys.ts): the vector set answers recall, the `docs` hash
 * keeps each record exactly (get), the marker (`meta`) the spec. Only cosine (Vector Sets
 * normalise at VADD). Recall:
 *   VSIM <vset> FP32 <blob> WITHSCORES COUNT n [TRUTH | EF ef] [FILTER <expr> FILTER-EF f]
 * `scan: 'exact'` (and every recall when the index is `none`) is TRUTH — a linear scan over the
 * stored (possibly int8-quantised) vectors; `'index'` walks the HNSW graph with EF = max(efSearch,
 * n). With a filter, FILTER-EF = max(100·n, VCARD) (8.0.2 rejects FILTER-EF 0), so a selective
 * filter may explore the whole graph. A filtered graph walk can still return fewer than n rows
 * when the graph does not reach every matching node (measured on 8.0.2: 245 of 250 at one C04
 * point); that shortfall is the backend's and is returned as is, for C04 to measure against the
 * target's `annShortfallMax`. Scores: cos = 2s − 1.
 * Order: s descending, then id ascending; n starts at k + 16 and doubles while the k-th score
 * equals the last one fetched, so a tie group cut by k is always ordered by id.
 */
export class RedisVectorCollection extends KitCollection {
  constructor(
    private readonly ctx: StoreContext,
    readonly spec: CollectionSpec,
    private readonly keys: ReturnType<typeof collectionKeys>,
    readonly quantization: Quantization,
  ) {
    const notArray = `${ADAPTER}: upsert into ${spec.name}: records must be an array`;
    super(
      { adapter: ADAPTER, scope: `collection ${spec.name}`, notArray, repeatedIds: 'byId' },
      {
        record: (r, i) => validateMemoryRecord(r, i, spec.dim, 'cosine', `upsert into ${spec.name}`, REDIS_RULES),
        ids: checkIds,
        filter: validateFilter,
        query: (q) => validateQuery(q, spec.dim, spec.name),
      },
    );
  }

  /** Redis words its checks `get from <name>`, `delete from <name>`, `count of <name>`. */
  protected override where(op: 'get' | 'delete' | 'count'): string {
    return op === 'count' ? `count of ${this.spec.name}` : `${op} from ${this.spec.name}`;
  }

  /**
   * All records validated first (the kit's `upsert`; the last record of an id wins, written in id order); then ONE MULTI/EXEC of VADD … SETATTR + HSET per record: atomic
   * (other clients see all or none; a connection lost before EXEC discards it whole; with AOF the
   * transaction is logged whole, a truncated one is dropped at load). Time limit: `StoreContext.execScaled`.
   */
  protected async writeBatch(recs: MemoryRecord[]): Promise<void> {
    const ix = this.spec.index;
    const [m, efc] = isHnsw(ix) ? [ix.m, ix.efConstruction] : [DEFAULT_M, DEFAULT_EF_CONSTRUCTION];
    await this.ctx.run('upsert', this.keys.vset, async () => {
      await this.assertExists();
      const numeric = await registerNumericKeys(this.ctx.client, this.keys, recs.flatMap(numericKeysOf));
      const tx = this.ctx.client.multi();
      for (const r of recs) {
        tx.call('VADD', this.keys.vset, 'FP32', f32Blob(r.embedding), r.id, QUANT_FLAG[this.quantization], 'EF', efc, 'M', m, 'SETATTR', recordAttributes(r, numeric));
        tx.hset(this.keys.docs, r.id, encodeDoc(r));
      }
      execReplies(await this.ctx.execScaled(tx, unitsFor(recs.length)), `upsert of ${recs.length} memories into ${this.keys.vset}`);
      await settleNumericKeys(this.ctx.client, this.keys, numeric);
    });
  }

  /** HMGET on the docs hash (the kit's `get` puts the records in the order asked). */
  protected readByIds(unique: string[]): Promise<MemoryRecord[]> {
    return this.ctx.run('get', this.keys.docs, async () => {
      const raw = await this.ctx.client.hmget(this.keys.docs, ...unique);
      if (raw.every((v) => v === null)) await this.assertExists(); // nothing found: a dropped collection is an error, not []
      const found = new Map<string, MemoryRecord>();
      raw.forEach((v, i) => {
        if (v !== null) found.set(unique[i]!, decodeDoc(unique[i]!, v, this.keys.docs, this.spec.dim));
      });
      return [...found.values()];
    });
  }

  /**
   * One keyset page in UTF-8 byte order of id (scan.ts): records from the docs hash, the
   * embedding as the float32 the adapter wrote (not the vector set's int8 copy under q8).
   */
  scan(opts: ScanOptions): Promise<MemoryRecord[]> {
    return scanDocs(this.ctx, this.keys, this.spec.dim, this.spec.name, opts);
  }

  /** VREM + HDEL in one MULTI/EXEC; returns how many ids were in the vector set. */
  protected removeIds(unique: string[]): Promise<number> {
    return this.ctx.run('delete', this.keys.vset, async () => {
      const tx = this.ctx.client.multi();
      for (const id of unique) tx.call('VREM', this.keys.vset, id);
      tx.hdel(this.keys.docs, ...unique);
      const replies = execReplies(await this.ctx.execScaled(tx, unitsFor(unique.length)), `delete of ${unique.length} ids from ${this.keys.vset}`);
      return replies.slice(0, unique.length).reduce<number>((n, r) => n + Number(r), 0);
    });
  }

  /** VCARD; under a filter, the length of a TRUTH scan with that FILTER (filter-expr.ts) over the whole set (the server's filter, not ours). */
  protected async countWhere(filter: RecallFilter | undefined): Promise<number> {
    if (matchesNothing(filter)) return 0;
    return this.ctx.run('count', this.keys.vset, async () => {
      const card = Number(await this.ctx.client.call('VCARD', this.keys.vset));
      if (card === 0) await this.assertExists(); // Redis deletes an empty vector set: 0 may mean the collection was dropped
      if (card === 0 || filter === undefined) return card;
      const expr = compileRecallFilter(filter, await readNumericKeys(this.ctx.client, this.keys));
      if (expr === null) return card;
      const any = (await this.ctx.client.call('VRANDMEMBER', this.keys.vset)) as string | null;
      if (any === null) return 0;
      const res = (await this.ctx.client.call('VSIM', this.keys.vset, 'ELE', any, 'COUNT', card, 'FILTER', expr, 'TRUTH')) as string[];
      return res.length;
    });
  }

  /** Vector Sets index on write (HNSW insert at VADD): nothing to build. */
  async buildIndex(): Promise<void> {
    await this.assertExists();
  }

  /**
   * Top-k by canonical score (see the class comment). With `decay` (and `now`): the exact decayed
   * top-k by spec `rerankWithDecay` over candidates fetched by similarity on the same scan path,
   * their `createdAt` read from the docs hash (Vector Sets cannot compute it server-side);
   * `minScore` then applies to the decayed score. Throws DIMENSION_MISMATCH, INVALID_VECTOR,
   * INVALID_INPUT, BACKEND_ERROR.
   */
  protected async recallChecked(q: RecallQuery): Promise<RecallHit[]> {
    const decay = validateDecay(q, 'cosine', `${ADAPTER}: recall on ${this.spec.name}`);
    if (matchesNothing(q.filter)) return [];
    return this.ctx.run('recall', this.keys.vset, async () => {
      const card = Number(await this.ctx.client.call('VCARD', this.keys.vset));
      if (card === 0) await this.assertExists(); // as in count: a dropped collection is an error, not []
      if (card === 0) return [];
      if (decay === null) {
        const top = await this.topBySimilarity(q, q.k, card);
        return keepMinScore(top, q.minScore);
      }
      const r = await rerankWithDecay(decay, { k: q.k, minScore: q.minScore, total: card, where: `${ADAPTER}: ${this.keys.docs}` }, async (n) => {
        const top = await this.topBySimilarity(q, n, card);
        const docs = top.length ? await this.ctx.client.hmget(this.keys.docs, ...top.map((h) => h.id)) : [];
        return top.map((h, i) => ({ ...h, createdAt: createdAtOf(docs[i] ?? null, h.id, this.keys.docs) }));
      });
      return r.hits;
    });
  }

  /**
   * The top `k` (any k ≥ 1, may exceed 1000) by canonical similarity under `q`'s filter and scan
   * mode, ordered by score then id: the VSIM loop of the class comment. `card` = VCARD.
   */
  private async topBySimilarity(q: RecallQuery, k: number, card: number): Promise<RecallHit[]> {
    const exact = q.scan === 'exact' || this.spec.index.type !== 'hnsw';
    const expr = q.filter === undefined ? null : compileRecallFilter(q.filter, await readNumericKeys(this.ctx.client, this.keys));
    const blob = f32Blob(q.vector);
    const top = await tieCompleteTopK({ k, key: (h) => h.s, max: card }, async (n: number) => {
      const args: Array<string | number | Buffer> = [this.keys.vset, 'FP32', blob, 'WITHSCORES', 'COUNT', n];
      if (exact) args.push('TRUTH');
      else args.push('EF', Math.max(isHnsw(this.spec.index) ? this.spec.index.efSearch : 0, n));
      if (expr !== null) args.push('FILTER', expr, 'FILTER-EF', Math.max(100 * n, card));
      const hits = parseVsim((await this.ctx.client.call('VSIM', ...args)) as string[], this.keys.vset);
      return hits.sort((a, b) => b.s - a.s || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
    });
    return top.map((h) => ({ id: h.id, score: redisVsimToCanonical(h.s) }));
  }

  /**
   * The vector set's index as the server reports it (`VINFO`): type `hnsw` with `m` = `hnsw-m`,
   * metric cosine (Vector Sets only compare by cosine), `extra.quantization` = `quant-type`.
   * Redis reports neither the EF given at VADD (efConstruction) nor a search EF (EF is a VSIM
   * argument per query), so those are absent. `type: 'none'` when the vector set does not exist
   * (empty: Redis deletes it). `q` is validated as recall validates it. Throws INVALID_INPUT,
   * COLLECTION_MISSING (marker gone), BACKEND_ERROR.
   */
  async indexInEffect(q: RecallQuery): Promise<IndexInEffect> {
    this.checks.query(q);
    return this.ctx.run('VINFO', this.keys.vset, async (): Promise<IndexInEffect> => {
      await this.assertExists();
      const reply = (await this.ctx.client.call('VINFO', this.keys.vset)) as unknown[] | null;
      if (reply === null) return { type: 'none', metric: null, params: {}, source: `VINFO ${this.keys.vset}: no vector set` };
      const info = new Map<string, string>();
      for (let i = 0; i + 1 < reply.length; i += 2) info.set(String(reply[i]), String(reply[i + 1]));
      const m = Number(info.get('hnsw-m'));
      return {
        type: 'hnsw',
        metric: 'cosine',
        params: Number.isInteger(m) ? { m } : {},
        extra: { quantization: info.get('quant-type') ?? '?' },
        source: `VINFO ${this.keys.vset}: ${[...info.entries()]
          .filter(([k]) => ['quant-type', 'hnsw-m', 'vector-dim', 'size'].includes(k))
          .map(([k, v]) => `${k} ${v}`)
          .join(', ')}`,
      };
    });
  }

  /** COLLECTION_MISSING when the marker is gone (dropped by another client). */
  private async assertExists(): Promise<void> {
    if ((await this.ctx.client.exists(this.keys.meta)) === 0) {
      throw new MemoryMatrixError('COLLECTION_MISSING', `${ADAPTER}: collection ${this.spec.name}: marker ${this.keys.meta} is gone (dropped?)`);
    }
  }
}

/** RESP2 `VSIM … WITHSCORES` reply `[id, s, id, s, …]` → pairs; BACKEND_ERROR on a malformed reply. */
export function parseVsim(reply: string[], key: string): Array<{ id: string; s: number }> {
  if (!Array.isArray(reply) || reply.length % 2 !== 0) {
    throw new MemoryMatrixError('BACKEND_ERROR', `${ADAPTER}: VSIM on ${key} returned ${JSON.stringify(reply)?.slice(0, 200)}, not id/score pairs`);
  }
  const out: Array<{ id: string; s: number }> = [];
  for (let i = 0; i < reply.length; i += 2) {
    const s = Number(reply[i + 1]);
    out.push({ id: String(reply[i]), s });
  }
  return out;
}

function checkIds(ids: unknown, where: string): asserts ids is string[] {
  if (!Array.isArray(ids) || ids.some((id) => typeof id !== 'string')) {
    throw new MemoryMatrixError('INVALID_INPUT', `${ADAPTER}: ${where}: ids must be a list of strings`);
  }
}
