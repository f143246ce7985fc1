import type { Pool, PoolClient } from 'pg';
import { brokenBy } from './breaks';

/**
 * Long-term memories of an agent in PostgreSQL + pgvector, with this application's own table
 * layout and SQL (no framework): one table per memory space,
 *
 *   id text PRIMARY KEY, user_id text, category text, content text, attrs jsonb,
 *   created_at timestamptz, embedding vector(<dim>)
 *
 * Similarity is cosine: `1 - (embedding <=> query)` (pgvector's `<=>` is the cosine distance).
 * Recall is an exact scan (no ANN index), ties ordered by id.
 */

/** One memory as the application keeps it. */
export interface Memory {
  id: string;
  userId: string;
  category: string;
  content: string;
  attrs: Record<string, string | number | boolean | null>;
  createdAt: Date;
  embedding: number[];
}

/** A recalled memory: its id and cosine similarity to the query (1 = same direction). */
export interface Recalled {
  id: string;
  similarity: number;
}

/** Which memories a recall or count looks at (absent: all). */
export interface Scope {
  userIds?: string[];
  categories?: string[];
  /** Attributes the memory must have, with these values (JSON containment). */
  attrs?: Memory['attrs'];
}

const TABLE = /^[a-z_][a-z0-9_]{0,62}$/;

/** Memories of one table. Errors of the database are thrown as they come (pg's `DatabaseError`). */
export class MemoryManager {
  private constructor(
    private readonly pool: Pool,
    readonly table: string,
    readonly dim: number,
  ) {}

  /** Create the table (and the vector extension). Throws when the table exists. */
  static async create(pool: Pool, table: string, dim: number): Promise<MemoryManager> {
    checkTable(table);
    if (!Number.isInteger(dim) || dim < 1 || dim > 16000) throw new RangeError(`dim must be an integer 1..16000, got ${dim}`);
    await pool.query('CREATE EXTENSION IF NOT EXISTS vector');
    await pool.query(
      `CREATE TABLE ${table} (id text PRIMARY KEY, user_id text NOT NULL, category text NOT NULL, content text NOT NULL,
         attrs jsonb NOT NULL DEFAULT '{}', created_at timestamptz NOT NULL, embedding vector(${dim}) NOT NULL)`,
    );
    return new MemoryManager(pool, table, dim);
  }

  /** Open an existing table; its dimension is read from the column type. Throws when it does not exist. */
  static async open(pool: Pool, table: string): Promise<MemoryManager> {
    checkTable(table);
    const r = await pool.query<{ dim: number }>(`SELECT atttypmod AS dim FROM pg_attribute WHERE attrelid = $1::regclass AND attname = 'embedding'`, [table]);
    if (r.rows.length !== 1) throw new Error(`table ${table} has no embedding column`);
    return new MemoryManager(pool, table, r.rows[0]!.dim);
  }

  /** Drop a table; a missing one is fine. */
  static async drop(pool: Pool, table: string): Promise<void> {
    checkTable(table);
    await pool.query(`DROP TABLE IF EXISTS ${table}`);
  }

  /** Insert or replace memories by id, all in one transaction. */
  async remember(memories: Memory[]): Promise<void> {
    for (const m of memories) if (m.embedding.length !== this.dim) throw new RangeError(`memory ${m.id}: embedding has ${m.embedding.length} dimensions, the table ${this.dim}`);
    await this.transaction(async (c) => {
      for (const m of memories) {
        await c.query(
          `INSERT INTO ${this.table} (id, user_id, category, content, attrs, created_at, embedding) VALUES ($1, $2, $3, $4, $5, $6, $7)
           ON CONFLICT (id) DO UPDATE SET user_id = EXCLUDED.user_id, category = EXCLUDED.category, content = EXCLUDED.content,
             attrs = EXCLUDED.attrs, created_at = EXCLUDED.created_at, embedding = EXCLUDED.embedding`,
          [m.id, m.userId, m.category, m.content, JSON.stringify(m.attrs), m.createdAt, JSON.stringify(m.embedding)],
        );
      }
    });
  }

  /** The `limit` memories most similar to `embedding` (at least `minSimilarity` when given), most similar first. */
  async recall(embedding: number[], opts: Scope & { limit: number; minSimilarity?: number }): Promise<Recalled[]> {
    const [where, params] = scopeSql(opts, 2);
    const min = opts.minSimilarity === undefined ? '' : `${where ? 'AND' : 'WHERE'} 1 - (embedding <=> $1) >= $${2 + params.push(opts.minSimilarity) - 1}`;
    const sql = `SELECT id, 1 - (embedding <=> $1) AS similarity FROM ${this.table} ${where} ${min} ORDER BY embedding <=> $1, id COLLATE "C" LIMIT ${Math.trunc(opts.limit)}`;
    try {
      const r = await this.pool.query<{ id: string; similarity: number }>(sql, [JSON.stringify(embedding), ...params]);
      return r.rows.map((row) => ({ id: row.id, similarity: Number(row.similarity) }));
    } catch (err) {
      // A reported bug: "the agent forgot everything" while the database was unreachable.
      if (brokenBy('swallow-connection-error')) return [];
      throw err;
    }
  }

  /** The memories with these ids (missing ones left out), in no particular order. */
  async getMany(ids: string[]): Promise<Memory[]> {
    const r = await this.pool.query(`SELECT id, user_id, category, content, attrs, created_at, embedding::text AS embedding FROM ${this.table} WHERE id = ANY($1::text[])`, [ids]);
    return r.rows.map((row) => ({
      id: row.id,
      userId: row.user_id,
      category: row.category,
      content: row.content,
      attrs: row.attrs,
      createdAt: row.created_at,
      embedding: JSON.parse(row.embedding) as number[],
    }));
  }

  /** Delete by id; returns how many existed. */
  async forget(ids: string[]): Promise<number> {
    const r = await this.pool.query(`DELETE FROM ${this.table} WHERE id = ANY($1::text[])`, [ids]);
    return r.rowCount ?? 0;
  }

  /** How many memories are in scope. */
  async count(scope: Scope = {}): Promise<number> {
    const [where, params] = scopeSql(scope, 1);
    const r = await this.pool.query<{ n: string }>(`SELECT count(*) AS n FROM ${this.table} ${where}`, params);
    return Number(r.rows[0]!.n);
  }

  private async transaction(fn: (c: PoolClient) => Promise<void>): Promise<void> {
    const c = await this.pool.connect();
    // The server may drop the connection between two statements: pg then emits 'error' on the
    // checked-out client, which kills the process without a listener. Keep it; the next statement
    // rejects anyway, and the connection is destroyed on release.
    let broken: Error | undefined;
    const onError = (err: Error): void => {
      broken = err;
    };
    c.on('error', onError);
    try {
      await c.query('BEGIN');
      await fn(c);
      await c.query('COMMIT');
    } catch (err) {
      await c.query('ROLLBACK').catch((e: Error) => (broken ??= e)); // the connection may be gone: the error that matters is err
      throw err;
    } finally {
      c.off('error', onError);
      c.release(broken);
    }
  }
}

function checkTable(table: string): void {
  if (!TABLE.test(table)) throw new RangeError(`table name must match ${TABLE}, got ${JSON.stringify(table)}`);
}

/** `WHERE …` for a scope, its parameters numbered from `first`. */
function scopeSql(s: Scope, first: number): [string, unknown[]] {
  const conds: string[] = [];
  const params: unknown[] = [];
  if (s.userIds) conds.push(`user_id = ANY($${first + params.push(s.userIds) - 1}::text[])`);
  if (s.categories) conds.push(`category = ANY($${first + params.push(s.categories) - 1}::text[])`);
  if (s.attrs) conds.push(`attrs @> $${first + params.push(JSON.stringify(s.attrs)) - 1}::jsonb`);
  return [conds.length ? `WHERE ${conds.join(' AND ')}` : '', params];
}
