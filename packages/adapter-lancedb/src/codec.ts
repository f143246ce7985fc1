import { Field, FixedSizeList, Float32, List, makeData, RecordBatch, Schema, Struct, Table, Utf8, vectorFromArray } from 'apache-arrow';
import { MemoryMatrixError, type MemoryRecord, type Metadata, type MetadataValue } from '@memory-matrix/spec';
import { ADAPTER } from './context';

/**
 * Value encodings between the contract and a LanceDB table (one Arrow schema, `tableSchema`):
 * - `id`, `namespace`, `kind`, `text`, `created_at`: Utf8, the caller's strings byte for byte
 *   (Arrow strings are UTF-8; U+0000 is kept);
 * - `metadata`: Utf8, the JSON text of the metadata (`JSON.stringify`), so types (0 / "" / false /
 *   null) survive; −0 is refused at write (JSON has no −0);
 * - `meta_tokens`: List<Utf8>, one `metadataToken(key, value)` per key: what metadata filters
 *   test with `array_has` (sql.ts);
 * - `embedding`: FixedSizeList<Float32>[dim], the caller's float32 values bit for bit.
 */

/** The JSON text of `[key, value]`: a metadata equality is one exact token (JSON numbers are the shortest round-trip form, so equal float64 values give equal tokens). */
export function metadataToken(key: string, value: MetadataValue): string {
  return JSON.stringify([key, value]);
}

/** The Arrow schema of a collection table of dimension `dim`, with the collection marker as schema metadata `memory-matrix` and `id` as primary key (no marker: the schema of a write). */
export function tableSchema(dim: number, marker?: string): Schema {
  const utf8 = (name: string, metadata?: Map<string, string>) => new Field(name, new Utf8(), false, metadata);
  return new Schema(
    [
      utf8('id', marker === undefined ? undefined : PRIMARY_KEY),
      utf8('namespace'),
      utf8('kind'),
      utf8('text'),
      utf8('created_at'),
      utf8('metadata'),
      new Field('meta_tokens', new List(new Field('item', new Utf8(), true)), false),
      new Field('embedding', new FixedSizeList(dim, new Field('item', new Float32(), true)), false),
    ],
    marker === undefined ? new Map() : new Map([[MARKER_KEY, marker]]),
  );
}

/**
 * The Arrow table of a write, typed by the COLLECTION's schema (`tableSchema(dim)`), never by
 * the table LanceDB finds at write time: `embedding` is a FixedSizeList<Float32>[dim] over the
 * records' float32 values (copied bit for bit). Handing LanceDB plain rows instead lets its client
 * convert them with the table's current schema, and a stale handle then wrote a 4-component
 * vector into a table another client had recreated with dim 5, acknowledged (README "Quirks").
 */
export function toArrowTable(records: MemoryRecord[], dim: number): Table {
  const schema = tableSchema(dim);
  const n = records.length;
  const flat = new Float32Array(n * dim);
  records.forEach((r, i) => flat.set(r.embedding, i * dim));
  const rows = records.map(toRow);
  const col = (name: keyof Row) => vectorFromArray(rows.map((r) => r[name]) as string[], new Utf8()).data[0]!;
  const tokens = vectorFromArray(
    rows.map((r) => r.meta_tokens),
    schema.fields[6]!.type as List<Utf8>,
  ).data[0]!;
  const embedding = makeData({ type: schema.fields[7]!.type as FixedSizeList<Float32>, length: n, nullCount: 0, child: makeData({ type: new Float32(), length: n * dim, nullCount: 0, data: flat }) });
  const children = [col('id'), col('namespace'), col('kind'), col('text'), col('created_at'), col('metadata'), tokens, embedding];
  const struct = makeData({ type: new Struct(schema.fields), length: n, nullCount: 0, children });
  return new Table(schema, new RecordBatch(schema, struct));
}

/**
 * Field metadata declaring `id` the table's (unenforced) primary key, what
 * `Table.setUnenforcedPrimaryKey('id')` writes, set at creation so that table and key are one
 * commit. With it Lance's merge insert records the keys it inserts and a concurrent merge insert
 * of the same new key conflicts (and is retried); without it two processes upserting the same new
 * id both insert it (lancedb/lancedb#3377; README "Quirks", measured with C22).
 */
const PRIMARY_KEY = new Map([['lance-schema:unenforced-primary-key:position', '1']]);

/** The schema-metadata key holding the collection marker. */
export const MARKER_KEY = 'memory-matrix';

/** One record's column values (toArrowTable builds the Arrow columns from them). */
export interface Row {
  id: string;
  namespace: string;
  kind: string;
  text: string;
  created_at: string;
  metadata: string;
  meta_tokens: string[];
}

/** A record's column values other than the embedding. */
export function toRow(r: MemoryRecord): Row {
  return {
    id: r.id,
    namespace: r.namespace,
    kind: r.kind,
    text: r.text,
    created_at: r.createdAt,
    metadata: JSON.stringify(r.metadata),
    meta_tokens: Object.entries(r.metadata).map(([k, v]) => metadataToken(k, v)),
  };
}

/** A row LanceDB returned (`toArray()`: strings, the embedding a Float32Array or array) back to a record. Throws PAYLOAD_UNSUPPORTED naming table and id. */
export function fromRow(row: Record<string, unknown>, dim: number, table: string): MemoryRecord {
  const id = String(row.id);
  const bad = (what: string) => new MemoryMatrixError('PAYLOAD_UNSUPPORTED', `${ADAPTER}: table ${table} id ${JSON.stringify(id)}: ${what}`);
  let metadata: Metadata;
  try {
    metadata = JSON.parse(String(row.metadata)) as Metadata;
  } catch (e) {
    throw bad(`metadata is not JSON: ${(e as Error).message}`);
  }
  const e = row.embedding as ArrayLike<number> | { toArray(): ArrayLike<number> } | null | undefined;
  const values = e && typeof (e as { toArray?: unknown }).toArray === 'function' ? (e as { toArray(): ArrayLike<number> }).toArray() : (e as ArrayLike<number> | null | undefined);
  if (!values || values.length !== dim) throw bad(`embedding has ${values?.length ?? 'no'} components, expected ${dim}`);
  return {
    id,
    namespace: String(row.namespace),
    kind: String(row.kind) as MemoryRecord['kind'],
    text: String(row.text),
    createdAt: String(row.created_at),
    metadata,
    embedding: Float32Array.from(values),
  };
}
