import { decodeChatMessage, MemoryMatrixError, outsideWindow, rowAppend, rowHistoryKeys, rowHistorySession, rowRawAppend, validateHistoryWindow, validateReadLast } from '@memory-matrix/spec';
import type { ChatHistory, ChatMessage, HistoryKey, HistoryOptions, HistoryWindow } from '@memory-matrix/spec';
import { ADAPTER, type StoreContext } from './context';
import { SQLITE_RULES } from './validate';

/**
 * Chat history on SQLite: the conversations table of a local agent store, one row per turn:
 *   mm_history (prefix, session, turn, payload, chars), PRIMARY KEY (prefix, session, turn)
 * `payload` is a versioned JSON message (spec history-payload.ts, the Redis and LanceDB adapters' format), `chars` its content's code points
 * (for character windows), `turn` 1, 2, … per session (a new turn = max + 1 inside the append's
 * transaction, so concurrent writers never collide). A row's key, as `keys()` lists it, is
 * `<prefix><session>#<turn, 10 digits>`. SQLite rows have no TTL: `ttlMs` is CAPABILITY_MISSING.
 * Every write is ONE `BEGIN IMMEDIATE` transaction (append + window; a rollback's delete + insert),
 * so another process sees the before or the after, never a mix; SQLITE_BUSY beyond `busy_timeout`
 * surfaces as BACKEND_ERROR with the code in the message.
 *
 * Snapshots (the spec's `SessionSnapshots`, snapshots.ts) live in
 *   mm_history_snapshots (prefix, session, snapshot, seq, state)
 * `snapshot` = `snap-<seq, 6 digits>` (seq = 1, 2, … per session), `state` = the session's rows
 * (turn, payload, chars) as JSON. `rollback` replaces the session's rows with the snapshot's in one
 * transaction and never touches the snapshots table.
 */

/** Default prefix (the `prefix` column) when `HistoryOptions.keyPrefix` is absent (spec history-rows.ts). */
export { DEFAULT_HISTORY_PREFIX } from '@memory-matrix/spec';

/** Created (IF NOT EXISTS) by every store on open, in one transaction with the marker table. */
export const HISTORY_TABLES_SQL = [
  `CREATE TABLE IF NOT EXISTS mm_history (prefix TEXT NOT NULL, session TEXT NOT NULL, turn INTEGER NOT NULL, payload TEXT NOT NULL, chars INTEGER NOT NULL, PRIMARY KEY (prefix, session, turn)) WITHOUT ROWID`,
  `CREATE TABLE IF NOT EXISTS mm_history_snapshots (prefix TEXT NOT NULL, session TEXT NOT NULL, snapshot TEXT NOT NULL, seq INTEGER NOT NULL, state TEXT NOT NULL, PRIMARY KEY (prefix, session, snapshot)) WITHOUT ROWID`,
];

/** One snapshot as `listSnapshots` reports it: id, its position (1, 2, …) and how many messages it holds. */
export interface SqliteSnapshotInfo {
  id: string;
  seq: number;
  messages: number;
}

interface TurnRow {
  turn: number;
  payload: string;
  chars: number;
}

function invalid(why: string): MemoryMatrixError {
  return new MemoryMatrixError('INVALID_INPUT', `${ADAPTER}: ${why}`);
}

/** The turns a window drops (spec `outsideWindow`: newest maxMessages, then newest within maxChars, the newest always kept). */
export function turnsOutsideWindow(rows: Array<Pick<TurnRow, 'turn' | 'chars'>>, w: HistoryWindow): number[] {
  return outsideWindow(rows, w).map((r) => r.turn);
}

/** One session's chat history (spec `ChatHistory`) plus snapshots (spec `SessionSnapshots`). */
export class SqliteChatHistory implements ChatHistory {
  readonly sessionId: string;
  readonly keyPrefix: string;
  private readonly window: HistoryWindow | undefined;
  private readonly where: string;

  constructor(
    private readonly ctx: StoreContext,
    opts: HistoryOptions,
  ) {
    ({ sessionId: this.sessionId, keyPrefix: this.keyPrefix, window: this.window, where: this.where } = rowHistorySession(opts, ADAPTER, 'SQLite rows'));
  }

  /** Append in order in one transaction (turns max+1 …), then apply the window in the same transaction. Throws INVALID_INPUT, BACKEND_ERROR. */
  async append(messages: ChatMessage[]): Promise<void> {
    const batch = rowAppend(messages, this.where, SQLITE_RULES);
    if (batch) await this.write('append', batch.payloads, batch.chars, this.window);
  }

  /** All messages oldest first, or the newest `last`. Throws INVALID_INPUT, PAYLOAD_UNSUPPORTED (naming session and turn), BACKEND_ERROR. */
  async read(opts: { last?: number } = {}): Promise<ChatMessage[]> {
    const last = opts.last;
    validateReadLast(last, `read of ${this.where}`, ADAPTER);
    const rows = await this.ctx.run('read history', 'mm_history', () => {
      const all = this.rows();
      return last === undefined ? all : all.slice(-last);
    });
    return rows.map((r) => decodeChatMessage(r.payload, `${this.where} turn ${r.turn}`, SQLITE_RULES));
  }

  length(): Promise<number> {
    return this.ctx.run('length of history', 'mm_history', () =>
      Number((this.ctx.db.prepare('SELECT count(*) AS n FROM mm_history WHERE prefix = ? AND session = ?').get(this.keyPrefix, this.sessionId) as { n: number }).n),
    );
  }

  /** Trim to `window` now (one transaction); returns how many messages were removed. */
  async trim(window: HistoryWindow): Promise<number> {
    validateHistoryWindow(window, `trim of ${this.where}: window`, ADAPTER);
    return this.write('trim', [], [], window);
  }

  /** Delete the session's rows and its snapshots. */
  async clear(): Promise<void> {
    await this.ctx.run('clear history', 'mm_history', () => {
      const db = this.ctx.db;
      db.transaction(() => {
        db.prepare('DELETE FROM mm_history WHERE prefix = ? AND session = ?').run(this.keyPrefix, this.sessionId);
        db.prepare('DELETE FROM mm_history_snapshots WHERE prefix = ? AND session = ?').run(this.keyPrefix, this.sessionId);
      }).immediate();
    });
  }

  /** Every row the session owns, as `<prefix><session>#<turn>` (sorted), TTL null; snapshot rows as `<prefix><session>@<snapshot>`. */
  keys(): Promise<HistoryKey[]> {
    return this.ctx.run('list history keys', 'mm_history', () => {
      const turns = this.rows().map((r) => String(r.turn).padStart(10, '0'));
      const snaps = this.ctx.db.prepare('SELECT snapshot FROM mm_history_snapshots WHERE prefix = ? AND session = ?').all(this.keyPrefix, this.sessionId) as Array<{ snapshot: string }>;
      return rowHistoryKeys(
        `${this.keyPrefix}${this.sessionId}`,
        turns,
        snaps.map((s) => s.snapshot),
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
    return this.ctx.run('read raw history', 'mm_history', () => this.rows().map((r) => r.payload));
  }

  /** Save the session's current rows as a new snapshot `snap-<seq>`; returns its id. One transaction. */
  saveSnapshot(): Promise<string> {
    return this.ctx.run('save snapshot', 'mm_history_snapshots', () => {
      const db = this.ctx.db;
      return db
        .transaction(() => {
          const seq = Number((db.prepare('SELECT coalesce(max(seq), 0) + 1 AS s FROM mm_history_snapshots WHERE prefix = ? AND session = ?').get(this.keyPrefix, this.sessionId) as { s: number }).s);
          const id = `snap-${String(seq).padStart(6, '0')}`;
          db.prepare('INSERT INTO mm_history_snapshots (prefix, session, snapshot, seq, state) VALUES (?, ?, ?, ?, ?)').run(this.keyPrefix, this.sessionId, id, seq, JSON.stringify(this.rows()));
          return id;
        })
        .immediate();
    });
  }

  /** The session's snapshots, oldest first (by seq). */
  listSnapshots(): Promise<SqliteSnapshotInfo[]> {
    return this.ctx.run('list snapshots', 'mm_history_snapshots', () =>
      (
        this.ctx.db
          .prepare('SELECT snapshot, seq, json_array_length(state) AS n FROM mm_history_snapshots WHERE prefix = ? AND session = ? ORDER BY seq')
          .all(this.keyPrefix, this.sessionId) as Array<{ snapshot: string; seq: number; n: number }>
      ).map((r) => ({ id: r.snapshot, seq: Number(r.seq), messages: Number(r.n) })),
    );
  }

  /** The messages a snapshot holds, oldest first. Throws INVALID_INPUT (no such snapshot), PAYLOAD_UNSUPPORTED. */
  async readSnapshot(id: string): Promise<ChatMessage[]> {
    const rows = await this.ctx.run('read snapshot', 'mm_history_snapshots', () => this.snapshotRows(id));
    return rows.map((r) => decodeChatMessage(r.payload, `${this.where} snapshot ${id} turn ${r.turn}`, SQLITE_RULES));
  }

  /**
   * Replace the session's rows by snapshot `id`'s, in ONE transaction (delete the session's rows,
   * insert the snapshot's); every snapshot stays. Throws INVALID_INPUT (no such snapshot, naming
   * session and id), BACKEND_ERROR.
   */
  async rollback(id: string): Promise<void> {
    if (typeof id !== 'string') throw invalid(`rollback of ${this.where}: snapshot id must be a string`);
    await this.ctx.run(`rollback to ${id}`, 'mm_history', () => {
      const db = this.ctx.db;
      db.transaction(() => {
        const rows = this.snapshotRows(id);
        db.prepare('DELETE FROM mm_history WHERE prefix = ? AND session = ?').run(this.keyPrefix, this.sessionId);
        const ins = db.prepare('INSERT INTO mm_history (prefix, session, turn, payload, chars) VALUES (?, ?, ?, ?, ?)');
        for (const r of rows) ins.run(this.keyPrefix, this.sessionId, r.turn, r.payload, r.chars);
      }).immediate();
    });
  }

  private rows(): TurnRow[] {
    return this.ctx.db.prepare('SELECT turn, payload, chars FROM mm_history WHERE prefix = ? AND session = ? ORDER BY turn').all(this.keyPrefix, this.sessionId) as TurnRow[];
  }

  private snapshotRows(id: string): TurnRow[] {
    const row = this.ctx.db.prepare('SELECT state FROM mm_history_snapshots WHERE prefix = ? AND session = ? AND snapshot = ?').get(this.keyPrefix, this.sessionId, id) as
      { state: string } | undefined;
    if (!row) throw invalid(`${this.where}: snapshot ${JSON.stringify(id)} does not exist`);
    return JSON.parse(row.state) as TurnRow[];
  }

  /** Insert `payloads` as new turns and/or apply `window`, in one BEGIN IMMEDIATE transaction; returns how many turns the window removed. */
  private write(mode: 'append' | 'trim' | 'raw', payloads: string[], chars: number[], window: HistoryWindow | undefined): Promise<number> {
    return this.ctx.run(`${mode} history`, 'mm_history', () => {
      const db = this.ctx.db;
      return db
        .transaction(() => {
          const next = Number((db.prepare('SELECT coalesce(max(turn), 0) + 1 AS t FROM mm_history WHERE prefix = ? AND session = ?').get(this.keyPrefix, this.sessionId) as { t: number }).t);
          const ins = db.prepare('INSERT INTO mm_history (prefix, session, turn, payload, chars) VALUES (?, ?, ?, ?, ?)');
          payloads.forEach((p, i) => ins.run(this.keyPrefix, this.sessionId, next + i, p, chars[i]!));
          if (!window || (window.maxMessages === undefined && window.maxChars === undefined)) return 0;
          const drop = turnsOutsideWindow(this.rows(), window);
          const del = db.prepare('DELETE FROM mm_history WHERE prefix = ? AND session = ? AND turn = ?');
          for (const t of drop) del.run(this.keyPrefix, this.sessionId, t);
          return drop.length;
        })
        .immediate();
    });
  }
}
