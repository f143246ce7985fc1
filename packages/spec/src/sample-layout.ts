/**
 * Table layouts for `memory-matrix sample`: a layout is the table one client library writes
 * (LangChain.js `PGVectorStore`, mem0's pgvector store, …), stated as data — its columns with the
 * types the store reports, the tables it references, and which column or metadata key holds each
 * memory field. A sample source lists the layouts it knows (`SampleSource.layouts`) and reports a
 * table's shape (`SampleSource.describeTable`); the sampler matches one against the other, so a
 * user samples a table a client wrote without `--columns`. Below the layouts: the sample source
 * itself (a driver's `sampleSource` facet, driver.ts), its column mapping, snapshot and rows.
 */

/** One column of a user's table: its name and its type as the store names it (PostgreSQL: `information_schema.columns.data_type`, or `udt_name` for an extension type such as `vector`). */
export interface SampleTableColumn {
  name: string;
  type: string;
}

/** A single-column foreign key of the table: its column, the referenced table (`[schema.]table` as the store names it) and that table's columns. */
export interface SampleTableReference {
  column: string;
  table: string;
  columns: readonly string[];
}

/** What layout detection reads of a table (`SampleSource.describeTable`): columns in table order, and foreign keys. */
export interface SampleTableShape {
  /** The table as given (`[schema.]table`). */
  table: string;
  columns: SampleTableColumn[];
  references: SampleTableReference[];
}

/** A column a layout requires (or may have: `optional`), with the types it may have. */
export interface SampleLayoutColumn {
  readonly name: string;
  /** Accepted types, as `SampleTableColumn.type` names them, e.g. `['character varying', 'text']`. */
  readonly types: readonly string[];
  /** The client adds it only in some configurations or versions; a mapping field naming it becomes none when the table lacks it. */
  readonly optional?: boolean;
}

/** A table the layout's table must reference: through `column`, a table (named `table` when given, any name otherwise) with at least `columns`. */
export interface SampleLayoutReference {
  readonly column: string;
  readonly table?: string;
  readonly columns: readonly string[];
}

/** One known layout (see the file comment). */
export interface SampleLayout {
  /** Stable name, printed and documented, e.g. `langchain-js-collection`. */
  readonly name: string;
  /** The client that writes it, e.g. `LangChain.js PGVectorStore with a collection table`. */
  readonly client: string;
  /** What the entry was checked against: package, version and source file, and whether a test seeds it with the real client. */
  readonly verifiedAgainst: string;
  readonly columns: readonly SampleLayoutColumn[];
  readonly references?: readonly SampleLayoutReference[];
  /** The mapping of the memory fields; every column it names is one of `columns`. */
  readonly mapping: SampleColumnMapping;
  /** Printed with the layout: what the mapping cannot know (e.g. where a client keeps no text). */
  readonly notes?: readonly string[];
}

/** How `sample --stratify` splits the eligible rows: by namespace, by kind, or by created_at quartile. */
export type SampleStratify = 'namespace' | 'kind' | 'age';

/** The memory fields a sample source maps to its columns (`sample --columns field=column,…`). */
export const SAMPLE_FIELDS = ['id', 'text', 'embedding', 'metadata', 'created_at', 'namespace', 'kind'] as const;
export type SampleField = (typeof SAMPLE_FIELDS)[number];

/**
 * Where a field other than id and embedding comes from: a column of the table, or a key of the
 * metadata column (`metadata.<key>`). `orKeys`: further keys read, in order, where the row lacks
 * `metadataKey` (`metadata.created_at|createdAt`: mem0 writes `created_at` from Python and
 * `createdAt` from TypeScript into the same table layout).
 */
export type SampleFieldSource = { column: string } | { metadataKey: string; orKeys?: readonly string[] };

/**
 * A complete column mapping (already parsed and checked for shape by the sampler): `id` and
 * `embedding` are column names; `text` a column or a metadata key (Mastra and mem0 keep the text
 * in their JSON column); `metadata` a column or null (none); `created_at`, `namespace`, `kind` a
 * column, a metadata key, or null (none).
 */
export type SampleColumnMapping = { id: string; embedding: string; text: SampleFieldSource } & Record<'metadata', string | null> &
  Record<'created_at' | 'namespace' | 'kind', SampleFieldSource | null>;

/** The columns of the table a mapping names, in field order (id, text when a column, embedding, metadata, then the mapped optional ones). */
export function sampleMappedColumns(m: SampleColumnMapping): Array<{ field: SampleField; column: string }> {
  const out: Array<{ field: SampleField; column: string }> = [{ field: 'id', column: m.id }];
  if ('column' in m.text) out.push({ field: 'text', column: m.text.column });
  out.push({ field: 'embedding', column: m.embedding });
  if (m.metadata) out.push({ field: 'metadata', column: m.metadata });
  for (const f of ['created_at', 'namespace', 'kind'] as const) {
    const s = m[f];
    if (s && 'column' in s) out.push({ field: f, column: s.column });
  }
  return out;
}

/**
 * A driver's `sampleSource` facet: reads memories with embeddings from a user's existing store for
 * `memory-matrix sample`. The generic sampler (selection and strata, redaction, the dataset and
 * its oracle expectation, sample-provenance.json) asks it only for what is backend-specific:
 * which `--from` it reads, how a password is masked, its default table and columns, and a
 * read-only snapshot that lists and checks the columns, streams rows and reports versions.
 */
export interface SampleSource {
  /** What `--from` reads, for `--help`: e.g. the backend's name (the command says "a real … store"). */
  readonly description: string;
  /**
   * An example `--from` for `--help` and the USAGE error, e.g. `postgres://user:pw@host:port/db`
   * (messages print it through the same password mask as the user's `--from`).
   */
  readonly example: string;
  /** Whether this source reads `from` (the `--from` value, after an optional `<driver>@url=` prefix), e.g. by its URL scheme. Never throws. */
  accepts(from: string): boolean;
  /**
   * `url` as it may be printed and written (messages, provenance, manifest): every form of password
   * the backend's clients take removed or masked, the rest kept.
   */
  safeUrl(url: string): string;
  /**
   * `--table` when not given; `columns`: the mapping `--columns` overrides when the source has no
   * `layouts` (with layouts, the detected layout's mapping is the base); `description`: how
   * `--help` states the column default.
   */
  readonly defaults: { readonly table: string; readonly columns: SampleColumnMapping; readonly description: string };
  /**
   * The table layouts real clients write that this source recognises (`SampleLayout`); the sampler
   * picks one from what `describeTable` reports (packages/runner/src/sample/layouts.ts). Given
   * together with `describeTable`.
   */
  readonly layouts?: readonly SampleLayout[];
  /**
   * Read the shape of `table` (columns with types, single-column foreign keys with the referenced
   * table's columns), read-only, for layout detection. Throws USAGE naming the table when it does
   * not exist, TARGET_UNAVAILABLE naming `label` (no connection), BACKEND_ERROR (a query failed).
   */
  describeTable?(req: { url: string; label: string; table: string }): Promise<SampleTableShape>;
  /**
   * The shape of a column name, checked when `--columns` is parsed (before connecting); the
   * description is quoted in the USAGE error, e.g. `[A-Za-z_][A-Za-z0-9_$]*, ≤ 63 chars`.
   */
  readonly columnName: { readonly pattern: RegExp; readonly description: string };
  /**
   * The manifest's phrase for how embeddings became float32, completing "Embeddings copied
   * unchanged from <table>.<column> (<type>), …", e.g. `parsed exactly from the PostgreSQL text form to float32`.
   */
  readonly embeddingNote: string;
  /**
   * Connect and open a read-only snapshot of `table` (`[schema.]table`): check the table exists
   * and every mapped column exists with a usable type, read the row count and versions, and hold
   * one snapshot for `scan` and `fetch`. `label` is `safeUrl(url)`, to name the store in messages.
   * Throws USAGE naming the flag, field and column (bad `--table`, missing column, unusable type),
   * TARGET_UNAVAILABLE naming `label` (no connection), BACKEND_ERROR (a query failed). Nothing is
   * written to the store, ever.
   */
  open(req: { url: string; label: string; table: string; columns: SampleColumnMapping }): Promise<SampleSnapshot>;
  /**
   * Parse one `SampleRow.embedding` to float32 exactly (the stored components, bit for bit).
   * Throws INVALID_VECTOR naming `where` (an empty vector, a component that is not a finite number).
   */
  parseEmbedding(text: string, where: string): Float32Array;
}

/** What the provenance records about a source (sample-provenance.json `source`). */
export interface SampleSourceInfo {
  /** The table as given (`[schema.]table`). */
  table: string;
  /** The server's own version string (`SELECT version()` or the like). */
  serverVersion: string;
  /**
   * Component versions written after `server` in the provenance, in this order, e.g.
   * `{ extension: '0.8.0' }`; null = not installed. Names other than the provenance's own keys
   * (url, table, columns, columnTypes, server, rows, eligibleRows, eligibility).
   */
  components: Record<string, string | null>;
  /** Rows of the table in the snapshot. */
  rows: number;
  /** Eligible rows (non-empty text, an embedding) seen by `scan`: 0 after `open`, counted by `scan`. */
  eligibleRows: number;
  /** Type of each mapped column as the store names it (`vector(384)`, `jsonb`, …). */
  columnTypes: Record<string, string>;
  /** (`--stratify age`) created_at cut points of the quartiles, ISO-8601 UTC, set by `scan`. */
  ageCutpoints?: string[];
}

/** One row as read, every field as text. */
export interface SampleRow {
  /** The id column as text. */
  id: string;
  text: string;
  /** The embedding as the store prints it, for `SampleSource.parseEmbedding`. */
  embedding: string;
  /** The metadata column's JSON text, or null (no metadata column, or SQL NULL). */
  metadata: string | null;
  /** ISO-8601 UTC with milliseconds (`2024-01-01T00:00:00.000Z`), or null. */
  createdAt: string | null;
  namespace: string | null;
  kind: string | null;
}

/** An open read-only snapshot of a user's table. `close()` must be called in every case. */
export interface SampleSnapshot {
  /** Filled by `open`; `eligibleRows` and `ageCutpoints` by `scan`. */
  readonly info: SampleSourceInfo;
  /**
   * Stream (id, stratum) of every eligible row (non-empty text, non-null embedding), never all
   * rows in memory. `by` absent → stratum `''`; `namespace` / `kind` → the field's value (`''` for
   * none); `age` → `age-q1` (oldest) … `age-q4` by the created_at quartile cut points (recorded in
   * `info.ageCutpoints`). The sampler calls it once, and only with a `by` whose field is mapped.
   * Throws BACKEND_ERROR naming the table when a read fails.
   */
  scan(by: SampleStratify | undefined, onRow: (id: string, stratum: string) => void): Promise<void>;
  /** Fetch the given ids whole (in any order). Throws INVALID_INPUT naming an id that matches two rows or none, BACKEND_ERROR when a read fails. */
  fetch(ids: string[]): Promise<SampleRow[]>;
  /** End the snapshot and the connection. Never throws. */
  close(): Promise<void>;
}
