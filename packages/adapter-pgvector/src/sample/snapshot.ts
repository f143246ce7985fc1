/**
 * The pgvector sample snapshot: memories from a user's own PostgreSQL + pgvector table, read-only,
 * in one REPEATABLE READ READ ONLY transaction (one snapshot for the scan and the fetch): a
 * server-side cursor streams only (id, stratum) in batches of `SCAN_BATCH` rows for the sampler,
 * then the chosen rows are fetched whole (text, embedding, metadata, …) by id in batches. Never all
 * rows in memory. The contract is `SampleSnapshot` (packages/spec/src/driver.ts).
 */
import { escapeIdentifier, escapeLiteral, type Client } from 'pg';
import {
  isMemoryMatrixError,
  MemoryMatrixError,
  sampleMappedColumns,
  type SampleColumnMapping,
  type SampleFieldSource,
  type SampleRow,
  type SampleSnapshot,
  type SampleSourceInfo,
  type SampleStratify,
} from '@memory-matrix/spec';
import { connectSample, tableOid } from './connect';

export const SCAN_BATCH = 2000;
const FETCH_BATCH = 500;

/** Column types an embedding may have: pgvector `vector(n)`, or a float array (parsed by parseVectorText). */
const EMBEDDING_TYPE = /^(vector\b|real\[\]|double precision\[\])/;

const qname = (table: string) =>
  table
    .split('.')
    .map((p) => escapeIdentifier(p))
    .join('.');
const iso = (expr: string) => `to_char((${expr})::timestamptz AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;

/** An open read-only snapshot of the user's table. Call `close()` in every case. */
export class PgSampleSnapshot implements SampleSnapshot {
  private constructor(
    private readonly client: Client,
    private readonly from: string,
    private readonly m: SampleColumnMapping,
    readonly info: SampleSourceInfo,
  ) {}

  /**
   * Connect, check the table and every mapped column (USAGE naming the field and column when one
   * is missing or of an unusable type), and open the snapshot.
   * Throws TARGET_UNAVAILABLE when the server does not answer (message names `label`).
   */
  static async open(url: string, label: string, table: string, m: SampleColumnMapping): Promise<PgSampleSnapshot> {
    const client = await connectSample(url, label, table);
    try {
      const reg = await tableOid(client, label, table);
      const cols = (
        await client.query<{ name: string; type: string }>(
          'SELECT attname AS name, format_type(atttypid, atttypmod) AS type FROM pg_attribute WHERE attrelid = $1::oid AND attnum > 0 AND NOT attisdropped ORDER BY attnum',
          [reg],
        )
      ).rows;
      const types = new Map(cols.map((c) => [c.name, c.type]));
      const columnTypes: Record<string, string> = {};
      for (const { field, column } of sampleMappedColumns(m)) {
        const type = types.get(column);
        if (!type)
          throw new MemoryMatrixError('USAGE', `--columns: field "${field}" maps to column "${column}", which table ${table} does not have (its columns: ${cols.map((c) => c.name).join(', ')})`);
        if (field === 'embedding' && !EMBEDDING_TYPE.test(type))
          throw new MemoryMatrixError('USAGE', `--columns: embedding column "${column}" of ${table} is ${type}; expected pgvector vector(n), real[] or double precision[]`);
        if (field === 'metadata' && type !== 'json' && type !== 'jsonb') throw new MemoryMatrixError('USAGE', `--columns: metadata column "${column}" of ${table} is ${type}; expected json or jsonb`);
        columnTypes[column] = type;
      }
      const meta = (
        await client.query<{ version: string; ext: string | null; rows: string }>(
          `SELECT version() AS version, (SELECT extversion FROM pg_extension WHERE extname = 'vector') AS ext, (SELECT count(*) FROM ${qname(table)})::text AS rows`,
        )
      ).rows[0]!;
      await client.query(`SET TIME ZONE 'UTC'`);
      await client.query('BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY');
      const info: SampleSourceInfo = { table, serverVersion: meta.version, components: { pgvector: meta.ext }, rows: Number(meta.rows), eligibleRows: 0, columnTypes };
      return new PgSampleSnapshot(client, qname(table), m, info);
    } catch (e) {
      await client.end().catch(() => undefined);
      throw e;
    }
  }

  private expr(s: SampleFieldSource | null): string {
    if (!s) return 'NULL::text';
    if ('column' in s) return `(${escapeIdentifier(s.column)})::text`;
    const keys = [s.metadataKey, ...(s.orKeys ?? [])].map((k) => `${escapeIdentifier(this.m.metadata!)} ->> ${escapeLiteral(k)}`);
    return keys.length === 1 ? `(${keys[0]})` : `coalesce(${keys.join(', ')})`;
  }

  private get createdExpr(): string {
    return this.m.created_at ? iso(this.expr(this.m.created_at)) : 'NULL::text';
  }

  private get eligible(): string {
    const text = this.expr(this.m.text);
    return `${text} IS NOT NULL AND ${text} <> '' AND ${escapeIdentifier(this.m.embedding)} IS NOT NULL`;
  }

  private stratumExpr(by: SampleStratify | undefined): string {
    if (!by) return `''`;
    const src = by === 'age' ? this.m.created_at : by === 'kind' ? this.m.kind : this.m.namespace;
    // The sampler refuses a `--stratify` whose field is not mapped before it scans.
    if (!src) throw new TypeError(`scan(${by}): no ${by} field is mapped`);
    return by === 'age' ? this.createdExpr : `coalesce(${this.expr(src)}, '')`;
  }

  /**
   * Stream (id, stratum) of every eligible row (non-empty text, non-null embedding) through a
   * server-side cursor. For `age` the stratum is the created_at quartile `age-q1` (oldest) …
   * `age-q4`, by cut points from percentile_disc (recorded in `info.ageCutpoints`).
   * Throws BACKEND_ERROR naming the table when the query fails (e.g. a created_at that is not a timestamp).
   */
  async scan(by: SampleStratify | undefined, onRow: (id: string, stratum: string) => void): Promise<void> {
    const stratum = this.stratumExpr(by);
    let cuts: string[] = [];
    try {
      if (by === 'age') {
        cuts =
          (await this.client.query<{ c: string[] }>(`SELECT percentile_disc(ARRAY[0.25,0.5,0.75]) WITHIN GROUP (ORDER BY ${stratum} COLLATE "C") AS c FROM ${this.from} WHERE ${this.eligible}`))
            .rows[0]!.c ?? [];
        this.info.ageCutpoints = cuts;
      }
      await this.client.query(`DECLARE mm_sample_scan NO SCROLL CURSOR FOR SELECT (${escapeIdentifier(this.m.id)})::text AS id, ${stratum} AS s FROM ${this.from} WHERE ${this.eligible}`);
      for (;;) {
        const { rows } = await this.client.query<{ id: string; s: string | null }>(`FETCH ${SCAN_BATCH} FROM mm_sample_scan`);
        for (const r of rows) {
          this.info.eligibleRows += 1;
          const s = r.s ?? '';
          onRow(r.id, by === 'age' ? `age-q${1 + cuts.filter((c) => s > c).length}` : s);
        }
        if (rows.length < SCAN_BATCH) break;
      }
      await this.client.query('CLOSE mm_sample_scan');
    } catch (e) {
      if (isMemoryMatrixError(e)) throw e;
      throw new MemoryMatrixError('BACKEND_ERROR', `reading ${this.info.table}: ${(e as Error).message}`, { cause: e });
    }
  }

  /** Fetch the given ids whole. Throws INVALID_INPUT naming an id that matches two rows or none. */
  async fetch(ids: string[]): Promise<SampleRow[]> {
    const out: SampleRow[] = [];
    const idx = `(${escapeIdentifier(this.m.id)})::text`;
    for (let i = 0; i < ids.length; i += FETCH_BATCH) {
      const batch = ids.slice(i, i + FETCH_BATCH);
      let rows: SampleRow[];
      try {
        rows = (
          await this.client.query<SampleRow>(
            `SELECT ${idx} AS id, ${this.expr(this.m.text)} AS text, (${escapeIdentifier(this.m.embedding)})::text AS embedding,
                    ${this.m.metadata ? `(${escapeIdentifier(this.m.metadata)})::text` : 'NULL::text'} AS metadata, ${this.createdExpr} AS "createdAt",
                    ${this.expr(this.m.namespace)} AS namespace, ${this.expr(this.m.kind)} AS kind
               FROM ${this.from} WHERE ${idx} = ANY($1::text[]) AND ${this.eligible}`,
            [batch],
          )
        ).rows;
      } catch (e) {
        throw new MemoryMatrixError('BACKEND_ERROR', `reading ${this.info.table}: ${(e as Error).message}`, { cause: e });
      }
      const seen = new Map<string, number>();
      for (const r of rows) seen.set(r.id, (seen.get(r.id) ?? 0) + 1);
      for (const id of batch) {
        if (seen.get(id) !== 1)
          throw new MemoryMatrixError('INVALID_INPUT', `${this.info.table}: id ${JSON.stringify(id)} (column ${this.m.id}) matches ${seen.get(id) ?? 0} rows; the id column must be unique`);
      }
      out.push(...rows);
    }
    return out;
  }

  /** End the snapshot and the connection. */
  async close(): Promise<void> {
    await this.client.query('ROLLBACK').catch(() => undefined);
    await this.client.end().catch(() => undefined);
  }
}
