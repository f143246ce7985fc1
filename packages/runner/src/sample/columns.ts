/**
 * The column mapping of `sample --columns`: which column (or metadata key) of the user's table
 * holds each memory field. Defaults follow LangChain's PGVector table `langchain_pg_embedding`
 * (langchain-postgres: id varchar, collection_id uuid, embedding vector, document varchar,
 * cmetadata jsonb); `created_at` and `kind` have no default there.
 */
import { MemoryMatrixError } from '@memory-matrix/spec';

export const FIELDS = ['id', 'text', 'embedding', 'metadata', 'created_at', 'namespace', 'kind'] as const;
export type Field = (typeof FIELDS)[number];

/** Where one field comes from: a column of the table, or a key of the metadata column (`metadata.<key>`). */
export type FieldSource = { column: string } | { metadataKey: string };

/** A complete mapping; `created_at`, `namespace`, `kind` and `metadata` may be absent (null). */
export type ColumnMapping = { id: string; text: string; embedding: string } & Record<'metadata', string | null> & Record<'created_at' | 'namespace' | 'kind', FieldSource | null>;

export const DEFAULT_TABLE = 'langchain_pg_embedding';
const DEFAULTS: ColumnMapping = { id: 'id', text: 'document', embedding: 'embedding', metadata: 'cmetadata', namespace: { column: 'collection_id' }, created_at: null, kind: null };

const IDENT = /^[A-Za-z_][A-Za-z0-9_$]{0,62}$/;

/**
 * Parse `id=…,text=…,embedding=…,metadata=…,created_at=…,namespace=…,kind=…` over the defaults.
 * `none` unsets an optional field; `metadata.<key>` (for created_at, namespace, kind) reads a key
 * of the metadata column. Throws USAGE naming the entry for an unknown field, a missing `=`, an
 * identifier that is not a plain SQL name, `none` for a required field, or `metadata.<key>`
 * without a metadata column.
 */
export function parseColumns(spec: string | undefined): ColumnMapping {
  const m: ColumnMapping = { ...DEFAULTS };
  for (const raw of (spec ?? '').split(',').map((s) => s.trim()).filter(Boolean)) {
    const eq = raw.indexOf('=');
    if (eq <= 0) throw new MemoryMatrixError('USAGE', `--columns: "${raw}" is not field=column (fields: ${FIELDS.join(', ')})`);
    const field = raw.slice(0, eq).trim() as Field;
    const value = raw.slice(eq + 1).trim();
    if (!FIELDS.includes(field)) throw new MemoryMatrixError('USAGE', `--columns: unknown field "${field}" in "${raw}" (fields: ${FIELDS.join(', ')})`);
    if (value === 'none') {
      if (field === 'id' || field === 'text' || field === 'embedding') throw new MemoryMatrixError('USAGE', `--columns: field "${field}" is required and cannot be none`);
      (m as Record<string, unknown>)[field] = null;
      continue;
    }
    const key = /^metadata\.(.+)$/.exec(value);
    if (key) {
      if (field !== 'created_at' && field !== 'namespace' && field !== 'kind') throw new MemoryMatrixError('USAGE', `--columns: ${field}=${value}: only created_at, namespace and kind may come from a metadata key`);
      m[field] = { metadataKey: key[1]! };
      continue;
    }
    if (!IDENT.test(value)) throw new MemoryMatrixError('USAGE', `--columns: ${field}=${value}: "${value}" is not a column name ([A-Za-z_][A-Za-z0-9_$]*, ≤ 63 chars) or metadata.<key>`);
    if (field === 'created_at' || field === 'namespace' || field === 'kind') m[field] = { column: value };
    else (m as Record<string, unknown>)[field] = value;
  }
  for (const f of ['created_at', 'namespace', 'kind'] as const) {
    const s = m[f];
    if (s && 'metadataKey' in s && !m.metadata) throw new MemoryMatrixError('USAGE', `--columns: ${f}=metadata.${s.metadataKey} needs a metadata column (metadata=none was given)`);
  }
  return m;
}

/** The mapping as the provenance records it: `{ field: "column" | "metadata.<key>" | null }`. */
export function describeMapping(m: ColumnMapping): Record<Field, string | null> {
  const d = (s: FieldSource | null) => (s ? ('column' in s ? s.column : `metadata.${s.metadataKey}`) : null);
  return { id: m.id, text: m.text, embedding: m.embedding, metadata: m.metadata, created_at: d(m.created_at), namespace: d(m.namespace), kind: d(m.kind) };
}

/** The columns of the table the mapping names (for the existence check). */
export function mappedColumns(m: ColumnMapping): Array<{ field: Field; column: string }> {
  const out: Array<{ field: Field; column: string }> = [
    { field: 'id', column: m.id },
    { field: 'text', column: m.text },
    { field: 'embedding', column: m.embedding },
  ];
  if (m.metadata) out.push({ field: 'metadata', column: m.metadata });
  for (const f of ['created_at', 'namespace', 'kind'] as const) {
    const s = m[f];
    if (s && 'column' in s) out.push({ field: f, column: s.column });
  }
  return out;
}
