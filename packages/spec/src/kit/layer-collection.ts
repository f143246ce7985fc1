// The collection base of a layer driver (issue 33): a collection whose every call goes through a
// client library's API (LangChain.js, Mastra, mem0) and measures what that library does, so it has
// no KitCollection pipeline of its own. What those drivers each wrote again: the prologues of
// upsert, get and delete (checks, empty calls answered without the layer, asked order) and the
// k / decay checks of recall.
import type { MemoryCollection } from '../adapter';
import { MemoryMatrixError } from '../errors';
import { inAskedOrder } from '../get-order';
import { validateIdList, type InputRules } from '../record-validation';
import { MAX_RECALL_K, type CollectionSpec, type MemoryRecord, type RecallFilter, type RecallHit, type RecallQuery } from '../types';

/**
 * A layer driver's input checks: `records` checks an upsert call (INVALID_INPUT…; `where` is the
 * collection's `where`); `ids` the ids of get / delete, either spec `validateIdList` under these
 * rules (`<where>: <op>`) or the driver's own check.
 */
export interface LayerChecks {
  records(records: unknown, where: string): void;
  ids: InputRules | ((ids: unknown, op: 'get' | 'delete') => void);
}

/**
 * Base of a layer driver's collection (implements `MemoryCollection`): `upsert`, `get` and
 * `delete` as the driver's checks (`LayerChecks`), then nothing for an empty call, then the
 * driver's primitive (`writeRecords`, `readByIds`, `removeIds`). The driver implements those,
 * `count`, `recall`, `buildIndex` and `where` (`collection c1`, what its messages name), and
 * declares `spec`. Throws what the checks and primitives throw.
 */
export abstract class LayerCollection implements MemoryCollection {
  abstract readonly spec: CollectionSpec;

  constructor(private readonly checks: LayerChecks) {}

  /** What the collection's messages name (`collection c1 (index mm_c1)`, `table mm_t1`). */
  protected abstract get where(): string;

  /** Write checked records (at least one) through the layer. */
  protected abstract writeRecords(records: MemoryRecord[]): Promise<void>;
  /** The stored records of `unique` (the ids asked, each once, at least one; `asked` as given), keyed by id; missing ids left out. */
  protected abstract readByIds(unique: string[], asked: string[]): Promise<Map<string, MemoryRecord>>;
  /** Remove `unique` (each once, at least one) through the layer; returns how many were stored. */
  protected abstract removeIds(unique: string[]): Promise<number>;

  abstract count(filter?: RecallFilter): Promise<number>;
  abstract recall(q: RecallQuery): Promise<RecallHit[]>;
  abstract buildIndex(): Promise<void>;

  /** Checked records written through the layer; an empty call writes nothing. */
  async upsert(records: MemoryRecord[]): Promise<void> {
    this.checks.records(records, this.where);
    if (records.length === 0) return;
    await this.writeRecords(records);
  }

  /** `checks.ids` of the ids of `op` (INVALID_INPUT). */
  private checkIds(ids: unknown, op: 'get' | 'delete'): asserts ids is string[] {
    const c = this.checks.ids;
    if (typeof c === 'function') c(ids, op);
    else validateIdList(ids, `${this.where}: ${op}`, c);
  }

  /** Records by id in the order asked, each id once (first occurrence), missing ids left out (spec `inAskedOrder`). */
  async get(ids: string[]): Promise<MemoryRecord[]> {
    this.checkIds(ids, 'get');
    if (ids.length === 0) return [];
    return inAskedOrder(ids, await this.readByIds([...new Set(ids)], ids));
  }

  /** Delete by id; returns how many were stored, each id counted once. */
  async delete(ids: string[]): Promise<number> {
    this.checkIds(ids, 'delete');
    if (ids.length === 0) return 0;
    return this.removeIds([...new Set(ids)]);
  }
}

/**
 * The recall checks a layer driver makes before calling its layer: k an integer in
 * 1..MAX_RECALL_K (INVALID_INPUT `<at>: k must be an integer in 1..1000, got <k>`), no `decay`
 * (CAPABILITY_MISSING `<at>: <noDecay> (capability timeDecay)`). `at` names the adapter and the call.
 */
export function checkLayerQuery(q: RecallQuery, at: string, noDecay: string): void {
  if (!Number.isInteger(q.k) || q.k < 1 || q.k > MAX_RECALL_K) throw new MemoryMatrixError('INVALID_INPUT', `${at}: k must be an integer in 1..${MAX_RECALL_K}, got ${String(q.k)}`);
  if (q.decay !== undefined) throw new MemoryMatrixError('CAPABILITY_MISSING', `${at}: ${noDecay} (capability timeDecay)`);
}
