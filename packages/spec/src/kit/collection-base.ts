// The collection base of the adapter kit (issue 33): the parts of `MemoryCollection` every adapter
// wrote again (input checks, last-write-wins, asked order, recall's decay / minScore / top-k
// pipeline), with the store's own primitives left abstract — a base with defaults, as Kysely's dialects.
import type { MemoryCollection } from '../adapter';
import { validateDecay, type DecayRequest } from '../decay';
import { rerankWithDecay, type DecayCandidate } from '../decay-rerank';
import { MemoryMatrixError } from '../errors';
import { inAskedOrder } from '../get-order';
import type { CollectionSpec, MemoryRecord, RecallFilter, RecallHit, RecallQuery } from '../types';
import { keepMinScore, lastWriteWins, TIE_MARGIN, tieCompleteTopK } from './top-k';
import type { RecordValidators } from './validate';

/**
 * An adapter's own input checks, bound to the collection (its scope and rules), as its validate.ts
 * builds them: each throws the adapter's INVALID_INPUT / DIMENSION_MISMATCH / INVALID_VECTOR /
 * CAPABILITY_MISSING and returns nothing. `where` is the text the base passes for the call
 * (`<scope>: get`, `<scope>: count`…, see `KitCollection.where`).
 */
export interface CollectionChecks {
  /** Record `index` of an upsert call (spec `validateMemoryRecord` with the collection's dim and metric). */
  record(r: MemoryRecord, index: number): void;
  /** Ids of get/delete: an array of strings. */
  ids(ids: unknown, where: string): void;
  /** A count filter (recall's filter rules). */
  filter(f: RecallFilter | undefined, where: string): void;
  /** A recall query (vector, k, minScore, scan, filter) against the collection's dim and metric. */
  query(q: RecallQuery): void;
}

/**
 * `CollectionChecks` from an adapter's validators (spec kit `recordValidators`, or its validate.ts
 * functions of the same shapes) bound to `spec`'s dim and metric and to `scope`, the argument its
 * record and query checks name the collection by. Pure; throws nothing itself.
 */
export function checksFrom(v: Pick<RecordValidators, 'validateRecord' | 'validateIds' | 'validateFilter' | 'validateQuery'>, spec: CollectionSpec, scope: string): CollectionChecks {
  return {
    record: (r, i) => v.validateRecord(r, i, spec.dim, spec.metric, scope),
    ids: (ids, where) => v.validateIds(ids, where),
    filter: (f, where) => v.validateFilter(f, where),
    query: (q) => v.validateQuery(q, spec.dim, spec.metric, scope),
  };
}

/**
 * How one adapter's collection words its messages and treats repeated ids; every field keeps a
 * difference the adapters had (none is unified away).
 */
export interface CollectionStyle {
  /** Adapter name, the prefix of every message. */
  adapter: string;
  /** `table t1` / `collection c1`: what messages name (`<adapter>: <scope>: …`) and the base's `where` texts start with. */
  scope: string;
  /** Verb of the not-an-array message: `upsert expects an array of records` (default) or `upsert needs …`. */
  arrayVerb?: 'expects' | 'needs';
  /** The whole INVALID_INPUT message when upsert gets no array, for an adapter that words it otherwise (Redis). */
  notArray?: string;
  /**
   * Which record of a repeated id `writeBatch` receives: `first` (default) the last record at its
   * id's first position, `last` at its own position (spec kit `lastWriteWins`), `none` every
   * record as given (the store's upsert applies them in order, so the last one wins there), `byId`
   * the winners sorted by id (UTF-16 code units; Redis writes them in that order).
   */
  repeatedIds?: 'first' | 'last' | 'none' | 'byId';
}

/** What `rankOrDecay` needs from a store for one recall. */
export interface RankSource {
  /**
   * The store's `n` nearest under the recall's filter, canonical scores sorted by score then id;
   * with `withCreatedAt`, each hit's stored createdAt (ISO-8601, as written).
   */
  nearest(n: number, withCreatedAt: boolean): Promise<DecayCandidate[]>;
  /** Rows the decayed re-rank may have to read (spec `rerankWithDecay`'s `total`). */
  total(): Promise<number>;
  /** The `where` of `rerankWithDecay`'s messages (`<adapter>: collection mm_c1`); default `<adapter>: <scope>`. */
  where?: string;
  /**
   * How the undecayed top k is taken: `margin` (default) one fetch of k + TIE_MARGIN, minScore,
   * cut at k; `widen` spec kit `tieCompleteTopK` on the score (the fetch doubles while the tie
   * group at rank k is cut), then minScore.
   */
  topK?: 'margin' | 'widen';
}

/**
 * Base of an adapter's collection (implements `MemoryCollection`). It implements `upsert`, `get`,
 * `delete`, `count` and `recall` as: the adapter's checks (`checks`), the common step (last write
 * wins, empty calls answered without the store, asked order), then the store primitive. Throws
 * what the checks and the primitives throw, and INVALID_INPUT `<adapter>: <scope>: upsert
 * expects an array of records` itself. Subclasses pass `style` and `checks` to the constructor,
 * declare `spec`, and implement the primitives `writeBatch`, `readByIds`, `removeIds`, `countWhere`, `recallChecked`, `buildIndex`.
 */
export abstract class KitCollection implements MemoryCollection {
  abstract readonly spec: CollectionSpec;

  /** `style`: the adapter's wording and repeated-id rule; `checks`: its input checks bound to this collection. */
  constructor(
    protected readonly style: CollectionStyle,
    protected readonly checks: CollectionChecks,
  ) {}

  /**
   * Write validated records, each id at most once (unless `repeatedIds: 'none'`), at least one;
   * `positions[i]` is the index of `records[i]` in the upsert call (for messages).
   */
  protected abstract writeBatch(records: MemoryRecord[], positions: number[]): Promise<void>;
  /** The stored records of `ids` (each id once, at least one), in any order; missing ids left out. */
  protected abstract readByIds(ids: string[]): Promise<MemoryRecord[]>;
  /** Remove `ids` (each once, at least one); returns how many existed. */
  protected abstract removeIds(ids: string[]): Promise<number>;
  /** Number of memories under a validated filter (undefined: all). */
  protected abstract countWhere(filter: RecallFilter | undefined): Promise<number>;
  /** Recall of a validated query (see `rankOrDecay` for the common pipeline). */
  protected abstract recallChecked(q: RecallQuery): Promise<RecallHit[]>;
  abstract buildIndex(): Promise<void>;

  /** The text passed to the checks for operation `op`: `<scope>: <op>` (Redis words it `<op> from <name>`). */
  protected where(op: 'get' | 'delete' | 'count'): string {
    return `${this.style.scope}: ${op}`;
  }

  /**
   * Insert or replace by id: an array is required, every record is checked before anything is
   * written (so a bad record fails the call with nothing written, C11), the last record with an
   * id wins (C21, `repeatedIds`), and an empty call writes nothing.
   */
  async upsert(records: MemoryRecord[]): Promise<void> {
    if (!Array.isArray(records))
      throw new MemoryMatrixError('INVALID_INPUT', this.style.notArray ?? `${this.style.adapter}: ${this.style.scope}: upsert ${this.style.arrayVerb ?? 'expects'} an array of records`);
    records.forEach((r, i) => this.checks.record(r, i));
    const repeated = this.style.repeatedIds ?? 'first';
    if (records.length === 0) return;
    if (repeated === 'none')
      return this.writeBatch(
        records,
        records.map((_, i) => i),
      );
    const at = new Map<string, number>();
    records.forEach((r, i) => at.set(r.id, i));
    const list = repeated === 'byId' ? lastWriteWins(records).sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0)) : lastWriteWins(records, repeated);
    await this.writeBatch(
      list,
      list.map((r) => at.get(r.id)!),
    );
  }

  /** Records by id in the order asked, each id once (first occurrence), missing ids left out (spec `inAskedOrder`). */
  async get(ids: string[]): Promise<MemoryRecord[]> {
    this.checks.ids(ids, this.where('get'));
    if (ids.length === 0) return [];
    const found = await this.readByIds([...new Set(ids)]);
    return inAskedOrder(ids, new Map(found.map((r) => [r.id, r])));
  }

  /** Delete by id; returns how many existed, each id counted once. */
  async delete(ids: string[]): Promise<number> {
    this.checks.ids(ids, this.where('delete'));
    if (ids.length === 0) return 0;
    return this.removeIds([...new Set(ids)]);
  }

  /** Number of memories, optionally under a filter (recall's semantics). */
  async count(filter?: RecallFilter): Promise<number> {
    this.checks.filter(filter, this.where('count'));
    return this.countWhere(filter);
  }

  /** Top-k by canonical score, non-increasing, ties by id (C07): the query checked, then `recallChecked`. */
  async recall(q: RecallQuery): Promise<RecallHit[]> {
    this.checks.query(q);
    return this.recallChecked(q);
  }

  /** Spec `validateDecay` of `q` under the collection's metric, messages `<adapter>: <scope>: recall: …`; null without decay. */
  protected decayOf(q: RecallQuery, scope = this.style.scope): DecayRequest | null {
    return validateDecay(q, this.spec.metric, `${this.style.adapter}: ${scope}: recall`);
  }

  /**
   * The common recall pipeline over a store's nearest-neighbour fetch: with `decay`, the exact
   * decayed top k (spec `rerankWithDecay` over `src.nearest(n, true)`, minScore on the decayed
   * score); without, the top k by `src.topK` with minScore on the canonical score (spec kit
   * `keepMinScore`). Throws what `src` throws.
   */
  protected async rankOrDecay(q: RecallQuery, decay: DecayRequest | null, src: RankSource): Promise<RecallHit[]> {
    if (decay !== null) {
      const total = await src.total();
      const r = await rerankWithDecay(decay, { k: q.k, minScore: q.minScore, total, where: src.where ?? `${this.style.adapter}: ${this.style.scope}` }, (n) => src.nearest(n, true));
      return r.hits;
    }
    if (src.topK === 'widen') return keepMinScore(await tieCompleteTopK({ k: q.k, key: (h) => h.score }, (n) => src.nearest(n, false)), q.minScore);
    return keepMinScore(await src.nearest(q.k + TIE_MARGIN, false), q.minScore).slice(0, q.k);
  }
}
