/**
 * The column mapping of `sample --columns`: which column (or metadata key) of the user's table
 * holds each memory field. The defaults and the shape of a column name are the sample source's
 * (`SampleSource.defaults`, `SampleSource.columnName`); the fields and their rules are the same
 * for every source.
 */
import {
  MemoryMatrixError,
  SAMPLE_FIELDS as FIELDS,
  type SampleColumnMapping as ColumnMapping,
  type SampleField as Field,
  type SampleFieldSource as FieldSource,
  type SampleSource,
} from '@memory-matrix/spec';

export type { ColumnMapping };

/**
 * Parse `id=…,text=…,embedding=…,metadata=…,created_at=…,namespace=…,kind=…` over the source's
 * defaults. `none` unsets an optional field; `metadata.<key>` (for created_at, namespace, kind)
 * reads a key of the metadata column. Throws USAGE naming the entry for an unknown field, a
 * missing `=`, a column name not of the source's shape, `none` for a required field, or
 * `metadata.<key>` without a metadata column.
 */
export function parseColumns(spec: string | undefined, source: Pick<SampleSource, 'defaults' | 'columnName'>): ColumnMapping {
  const m: ColumnMapping = { ...source.defaults.columns };
  for (const raw of (spec ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean)) {
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
      if (field !== 'created_at' && field !== 'namespace' && field !== 'kind')
        throw new MemoryMatrixError('USAGE', `--columns: ${field}=${value}: only created_at, namespace and kind may come from a metadata key`);
      m[field] = { metadataKey: key[1]! };
      continue;
    }
    if (!source.columnName.pattern.test(value))
      throw new MemoryMatrixError('USAGE', `--columns: ${field}=${value}: "${value}" is not a column name (${source.columnName.description}) or metadata.<key>`);
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
