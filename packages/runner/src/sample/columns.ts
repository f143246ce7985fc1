/**
 * The column mapping of `sample --columns`: which column (or metadata key) of the user's table
 * holds each memory field. `--columns` gives overrides, checked for shape before the store is
 * read; they apply over the mapping of the detected table layout (layouts.ts), or over the
 * source's defaults when it detects none. The shape of a column name is the source's
 * (`SampleSource.columnName`); the fields and their rules are the same for every source.
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

/** The fields `--columns` sets, as parsed: a field absent here keeps the base mapping's source. */
export type ColumnOverrides = Partial<ColumnMapping>;

/** Fields that may come from a metadata key (`field=metadata.<key>`). */
const FROM_METADATA: readonly Field[] = ['text', 'created_at', 'namespace', 'kind'];

/**
 * Parse `id=…,text=…,embedding=…,metadata=…,created_at=…,namespace=…,kind=…`. `none` unsets an
 * optional field; `metadata.<key>` (for text, created_at, namespace, kind) reads a key of the
 * metadata column, `metadata.<key>|<key2>|…` the first of those keys the row has. Throws USAGE
 * naming the entry for an unknown field, a missing `=`, a column name not of the source's shape,
 * `none` for a required field (id, text, embedding), or `metadata.<key>` for another field.
 */
export function parseColumns(spec: string | undefined, source: Pick<SampleSource, 'columnName'>): ColumnOverrides {
  const m: Record<string, unknown> = {};
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
      m[field] = null;
      continue;
    }
    const key = /^metadata\.(.+)$/.exec(value);
    if (key) {
      if (!FROM_METADATA.includes(field)) throw new MemoryMatrixError('USAGE', `--columns: ${field}=${value}: only ${FROM_METADATA.join(', ')} may come from a metadata key`);
      const [first, ...orKeys] = key[1]!.split('|');
      if (!first || orKeys.some((k) => !k)) throw new MemoryMatrixError('USAGE', `--columns: ${field}=${value}: an empty metadata key`);
      m[field] = orKeys.length ? { metadataKey: first, orKeys } : { metadataKey: first };
      continue;
    }
    if (!source.columnName.pattern.test(value))
      throw new MemoryMatrixError('USAGE', `--columns: ${field}=${value}: "${value}" is not a column name (${source.columnName.description}) or metadata.<key>`);
    m[field] = field === 'id' || field === 'embedding' || field === 'metadata' ? value : { column: value };
  }
  return m as ColumnOverrides;
}

/**
 * `overrides` over `base`. Throws USAGE when a field read from a metadata key is left without a
 * metadata column (`metadata=none` given, or a base with none).
 */
export function applyColumns(base: ColumnMapping, overrides: ColumnOverrides): ColumnMapping {
  const m: ColumnMapping = { ...base, ...overrides };
  for (const f of FROM_METADATA) {
    const s = m[f as 'text'];
    if (s && 'metadataKey' in s && !m.metadata) throw new MemoryMatrixError('USAGE', `--columns: ${f}=${formatSource(s)} needs a metadata column (metadata=none was given, or the table has none)`);
  }
  return m;
}

const formatSource = (s: FieldSource | null): string => (s ? ('column' in s ? s.column : `metadata.${[s.metadataKey, ...(s.orKeys ?? [])].join('|')}`) : 'none');

/** The mapping as the provenance records it: `{ field: "column" | "metadata.<key>" | null }`. */
export function describeMapping(m: ColumnMapping): Record<Field, string | null> {
  const d = (s: FieldSource | null) => (s ? formatSource(s) : null);
  return { id: m.id, text: d(m.text), embedding: m.embedding, metadata: m.metadata, created_at: d(m.created_at), namespace: d(m.namespace), kind: d(m.kind) };
}

/** The mapping in `--columns` syntax (every field, `none` for an unset one), as `sample` prints it: `--columns` takes it back unchanged. */
export function formatMapping(m: ColumnMapping): string {
  return Object.entries(describeMapping(m))
    .map(([f, v]) => `${f}=${v ?? 'none'}`)
    .join(',');
}
