import type { Table } from '@lancedb/lancedb';
import type { Table as ArrowTable } from 'apache-arrow';
import { decodeChatMessage, MemoryMatrixError, outsideWindow, rowAppend, rowHistoryKeys, rowHistorySession, rowRawAppend, validateHistoryWindow, validateReadLast } from '@memory-matrix/spec';
import type { ChatHistory, ChatMessage, HistoryKey, HistoryOptions, HistoryWindow } from '@memory-matrix/spec';
import { ADAPTER, type StoreContext } from './context';
import { quoteString } from './sql';
import { LANCEDB_RULES } from './validate';
import { arrowOf, ensureTable, HISTORY_TABLE, nextStamp, SNAPSHOT_SCHEMA, SNAPSHOT_TABLE, TURN_SCHEMA, type TurnRow } from './history-tables';

/**
 * Chat history on LanceDB: two tables of the database directory, created on first use. `payload` is
 * a versioned JSON message (spec history-payload.ts, the Redis and SQLite adapters' format).
 *   mm_history (key PK, prefix, session, turn, payload, chars)
 *   mm_history_snapshots (key PK, prefix, session, snapshot, state)
 * `turn` is a sortable stamp `<ms since epoch, 15 digits>.<counter, 6>.<writer, 8 hex>.<index, 5>`
 * unique by construction (this process's writer id and a counter that never goes back), so
 * concurrent appends of several clients or processes never collide and need no read of the
 * session first; messages are read in `turn` order (one call's messages are contiguous: they share
 * everything but the index). `key` = `<prefix>\0<session>\0<turn>` is the tables' unenforced
 * primary key. Each write is ONE Lance commit, so another client sees the before or the after:
 * an append with its window is one `mergeInsert` that inserts the new rows and deletes the
 * rows the window drops (`whenNotMatchedBySourceDelete` naming their keys); a rollback is one
 * `mergeInsert` that makes the session's rows the snapshot's. Lance rows have no TTL: `ttlMs` is
 * CAPABILITY_MISSING. Not atomic: `clear` (two tables, two commits). Windows are computed from the
 * session as this client read it just before its commit; an append another client commits in
 * between is not counted by that window (it is by the next).
 *
 * Snapshots (spec `SessionSnapshots`): `snap-<stamp>` ids, oldest first; `state` = the session's
 * rows (turn, payload, chars) as JSON.
 */

/** Default prefix when `HistoryOptions.keyPrefix` is absent (spec history-rows.ts). */
export { DEFAULT_HISTORY_PREFIX, outsideWindow } from '@memory-matrix/spec';
export { HISTORY_TABLE, nextStamp, SNAPSHOT_TABLE } from './history-tables';

function invalid(why: string): MemoryMatrixError {
  return new MemoryMatrixError('INVALID_INPUT', `${ADAPTER}: ${why}`);
}

/** One session's chat history (spec `ChatHistory`) plus snapshots (spec `SessionSnapshots`). */
export class LancedbChatHistory implements ChatHistory {
  readonly sessionId: string;
  readonly keyPrefix: string;
  private readonly window: HistoryWindow | undefined;
  private readonly where: string;
  private readonly scope: string;
  private tables?: Promise<{ turns: Table; snaps: Table }>;

  constructor(
    private readonly ctx: StoreContext,
    opts: HistoryOptions,
  ) {
    ({ sessionId: this.sessionId, keyPrefix: this.keyPrefix, window: this.window, where: this.where } = rowHistorySession(opts, ADAPTER, 'LanceDB rows'));
    this.scope = `prefix = ${quoteString(this.keyPrefix)} AND session = ${quoteString(this.sessionId)}`;
  }

  /** Append in order as ONE commit (with the window's deletions). Throws INVALID_INPUT, BACKEND_ERROR. */
  async append(messages: ChatMessage[]): Promise<void> {
    const batch = rowAppend(messages, this.where, LANCEDB_RULES);
    if (batch) await this.write('append', batch.payloads, batch.chars, this.window);
  }

  /** All messages oldest first, or the newest `last`. Throws INVALID_INPUT, PAYLOAD_UNSUPPORTED (naming session and turn), BACKEND_ERROR. */
  async read(opts: { last?: number } = {}): Promise<ChatMessage[]> {
    const last = opts.last;
    validateReadLast(last, `read of ${this.where}`, ADAPTER);
    const rows = await this.ctx.run('read history', HISTORY_TABLE, () => this.rows());
    return (last === undefined ? rows : rows.slice(-last)).map((r) => decodeChatMessage(r.payload, `${this.where} turn ${r.turn}`, LANCEDB_RULES));
  }

  length(): Promise<number> {
    return this.ctx.run('length of history', HISTORY_TABLE, async () => Number(await (await this.t()).turns.countRows(this.scope)));
  }

  /** Trim to `window` now (one delete commit); returns how many messages were removed. */
  async trim(window: HistoryWindow): Promise<number> {
    validateHistoryWindow(window, `trim of ${this.where}: window`, ADAPTER);
    return this.write('trim', [], [], window);
  }

  /** Delete the session's rows, then its snapshots (two commits). */
  async clear(): Promise<void> {
    await this.ctx.run('clear history', HISTORY_TABLE, async () => {
      const { turns, snaps } = await this.t();
      await turns.delete(this.scope);
      await snaps.delete(this.scope);
    });
  }

  /** Every row the session owns, as `<prefix><session>#<turn>` (sorted), TTL null; snapshots as `<prefix><session>@<snapshot>`. */
  keys(): Promise<HistoryKey[]> {
    return this.ctx.run('list history keys', HISTORY_TABLE, async () => {
      const turns = (await this.rows()).map((r) => r.turn);
      return rowHistoryKeys(
        `${this.keyPrefix}${this.sessionId}`,
        turns,
        (await this.snapshots()).map((s) => s.snapshot),
      );
    });
  }

  /** Store payloads verbatim as new turns (C20), no window. */
  async writeRaw(payloads: string[]): Promise<void> {
    const batch = rowRawAppend(payloads, this.where, ADAPTER);
    if (batch) await this.write('raw', batch.payloads, batch.chars, undefined);
  }

  /** The stored payloads verbatim, oldest first. */
  readRaw(): Promise<string[]> {
    return this.ctx.run('read raw history', HISTORY_TABLE, async () => (await this.rows()).map((r) => r.payload));
  }

  /** Save the session's current rows as a new snapshot `snap-<stamp>` (one commit); returns its id. */
  saveSnapshot(): Promise<string> {
    return this.ctx.run('save snapshot', SNAPSHOT_TABLE, async () => {
      const state = JSON.stringify(await this.rows());
      const id = `snap-${nextStamp()}`;
      const { snaps } = await this.t();
      await snaps.add(arrowOf(SNAPSHOT_SCHEMA, { key: [this.keyOf(id)], prefix: [this.keyPrefix], session: [this.sessionId], snapshot: [id], state: [state] }, 1));
      return id;
    });
  }

  /** The session's snapshots, oldest first. */
  listSnapshots(): Promise<Array<{ id: string; messages: number }>> {
    return this.ctx.run('list snapshots', SNAPSHOT_TABLE, async () => (await this.snapshots()).map((s) => ({ id: s.snapshot, messages: (JSON.parse(s.state) as unknown[]).length })));
  }

  /** The messages a snapshot holds, oldest first. Throws INVALID_INPUT (no such snapshot), PAYLOAD_UNSUPPORTED. */
  async readSnapshot(id: string): Promise<ChatMessage[]> {
    const rows = await this.ctx.run('read snapshot', SNAPSHOT_TABLE, () => this.snapshotRows(id));
    return rows.map((r) => decodeChatMessage(r.payload, `${this.where} snapshot ${id} turn ${r.turn}`, LANCEDB_RULES));
  }

  /**
   * Replace the session's rows by snapshot `id`'s in ONE commit: `mergeInsert('key')` of the
   * snapshot's rows, deleting every other row of the session (`whenNotMatchedBySourceDelete`);
   * every snapshot stays. Throws INVALID_INPUT (no such snapshot, naming session and id), BACKEND_ERROR.
   */
  async rollback(id: string): Promise<void> {
    if (typeof id !== 'string') throw invalid(`rollback of ${this.where}: snapshot id must be a string`);
    await this.ctx.run(`rollback to ${id}`, HISTORY_TABLE, async () => {
      const rows = await this.snapshotRows(id);
      const { turns } = await this.t();
      if (rows.length === 0) {
        await turns.delete(this.scope);
        return;
      }
      await turns.mergeInsert('key').whenMatchedUpdateAll().whenNotMatchedInsertAll().whenNotMatchedBySourceDelete({ where: this.scope }).execute(this.turnTable(rows));
    });
  }

  private t(): Promise<{ turns: Table; snaps: Table }> {
    this.tables ??= (async () => ({ turns: await ensureTable(this.ctx, HISTORY_TABLE, TURN_SCHEMA), snaps: await ensureTable(this.ctx, SNAPSHOT_TABLE, SNAPSHOT_SCHEMA) }))();
    this.tables.catch(() => (this.tables = undefined));
    return this.tables;
  }

  private keyOf(turn: string): string {
    return `${this.keyPrefix}\u0000${this.sessionId}\u0000${turn}`;
  }

  private turnTable(rows: TurnRow[]): ArrowTable {
    return arrowOf(
      TURN_SCHEMA,
      {
        key: rows.map((r) => this.keyOf(r.turn)),
        prefix: rows.map(() => this.keyPrefix),
        session: rows.map(() => this.sessionId),
        turn: rows.map((r) => r.turn),
        payload: rows.map((r) => r.payload),
        chars: rows.map((r) => r.chars),
      },
      rows.length,
    );
  }

  private async rows(): Promise<TurnRow[]> {
    const { turns } = await this.t();
    const rows = (await turns.query().where(this.scope).select(['turn', 'payload', 'chars']).toArray()) as TurnRow[];
    return rows.map((r) => ({ turn: String(r.turn), payload: String(r.payload), chars: Number(r.chars) })).sort((a, b) => (a.turn < b.turn ? -1 : a.turn > b.turn ? 1 : 0));
  }

  private async snapshots(): Promise<Array<{ snapshot: string; state: string }>> {
    const { snaps } = await this.t();
    const rows = (await snaps.query().where(this.scope).select(['snapshot', 'state']).toArray()) as Array<{ snapshot: string; state: string }>;
    return rows.map((r) => ({ snapshot: String(r.snapshot), state: String(r.state) })).sort((a, b) => (a.snapshot < b.snapshot ? -1 : a.snapshot > b.snapshot ? 1 : 0));
  }

  private async snapshotRows(id: string): Promise<TurnRow[]> {
    const { snaps } = await this.t();
    const found = (await snaps
      .query()
      .where(`${this.scope} AND snapshot = ${quoteString(id)}`)
      .select(['state'])
      .toArray()) as Array<{ state: string }>;
    if (found.length === 0) throw invalid(`${this.where}: snapshot ${JSON.stringify(id)} does not exist`);
    return JSON.parse(String(found[0]!.state)) as TurnRow[];
  }

  /**
   * Insert `payloads` as new turns and/or apply `window`, as ONE commit: the window is computed over
   * the session's rows (read first) plus the new ones; new rows outside it are not written, old rows
   * outside it are deleted by the same `mergeInsert` (`whenNotMatchedBySourceDelete` naming their
   * keys), or by one `delete` when nothing is inserted. Returns how many stored turns were removed.
   */
  private write(mode: 'append' | 'trim' | 'raw', payloads: string[], chars: number[], window: HistoryWindow | undefined): Promise<number> {
    return this.ctx.run(`${mode} history`, HISTORY_TABLE, async () => {
      const { turns } = await this.t();
      const stamp = payloads.length ? nextStamp() : '';
      const fresh: Array<TurnRow & { isNew: boolean }> = payloads.map((p, i) => ({ turn: `${stamp}.${String(i).padStart(5, '0')}`, payload: p, chars: chars[i]!, isNew: true }));
      const windowed = window && (window.maxMessages !== undefined || window.maxChars !== undefined);
      const dropped = windowed ? outsideWindow([...(await this.rows()).map((r) => ({ ...r, isNew: false })), ...fresh], window) : [];
      const dropOld = dropped.filter((r) => !r.isNew).map((r) => r.turn);
      const droppedNew = new Set(dropped.filter((r) => r.isNew).map((r) => r.turn));
      const insert = fresh.filter((r) => !droppedNew.has(r.turn));
      const dropWhere = dropOld.length ? `${this.scope} AND turn IN (${dropOld.map(quoteString).join(', ')})` : undefined;
      if (insert.length === 0) {
        if (dropWhere) await turns.delete(dropWhere);
        return dropOld.length;
      }
      let m = turns.mergeInsert('key').whenNotMatchedInsertAll();
      if (dropWhere) m = m.whenNotMatchedBySourceDelete({ where: dropWhere });
      await m.execute(this.turnTable(insert));
      return dropOld.length;
    });
  }
}
