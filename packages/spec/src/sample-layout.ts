import type { SampleColumnMapping } from './driver';

/**
 * Table layouts for `memory-matrix sample`: a layout is the table one client library writes
 * (LangChain.js `PGVectorStore`, mem0's pgvector store, …), stated as data — its columns with the
 * types the store reports, the tables it references, and which column or metadata key holds each
 * memory field. A sample source lists the layouts it knows (`SampleSource.layouts`) and reports a
 * table's shape (`SampleSource.describeTable`); the sampler matches one against the other, so a
 * user samples a table a client wrote without `--columns`.
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
