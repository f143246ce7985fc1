/**
 * The pgvector sample source's pure parts: which `--from` it reads, password masking, the
 * langchain-postgres defaults, the layout entries' consistency, the column-name shape and exact
 * vector text parsing. Its snapshot
 * (a real PostgreSQL) is exercised end to end by packages/runner/test/sample.test.ts.
 */
import { sampleMappedColumns } from '@memory-matrix/spec';
import { pgvectorSampleSource } from '../src';
import { safeUrl } from '../src/sample/safe-url';
import { parseVectorText } from '../src/sample/vector-text';

describe('pgvector sample source', () => {
  test('reads postgres:// and postgresql:// URLs only', () => {
    expect(pgvectorSampleSource.accepts('postgres://u@h:5432/db')).toBe(true);
    expect(pgvectorSampleSource.accepts('postgresql://u@h/db?sslmode=require')).toBe(true);
    expect(pgvectorSampleSource.accepts('redis://h:6379')).toBe(false);
    expect(pgvectorSampleSource.accepts('pgvector@pg17')).toBe(false);
    expect(pgvectorSampleSource.accepts('not a url')).toBe(false);
  });

  test('the source URL in manifest and provenance carries no password, in either libpq form', () => {
    expect(safeUrl('postgres://mm:pw@127.0.0.1:5432/postgres')).toBe('postgres://mm@127.0.0.1:5432/postgres');
    expect(safeUrl('postgres://127.0.0.1:55432/postgres?user=mm&password=SMPpw55')).toBe('postgres://127.0.0.1:55432/postgres?user=mm&password=***');
    expect(safeUrl('postgres://h/db?sslpassword=k3y&sslmode=verify-full')).toBe('postgres://h/db?sslpassword=***&sslmode=verify-full');
    expect(pgvectorSampleSource.safeUrl).toBe(safeUrl);
  });

  test('defaults: langchain-postgres table and mapping; column names are plain PostgreSQL identifiers', () => {
    expect(pgvectorSampleSource.defaults.table).toBe('langchain_pg_embedding');
    expect(pgvectorSampleSource.defaults.columns).toEqual({
      id: 'id',
      text: { column: 'document' },
      embedding: 'embedding',
      metadata: 'cmetadata',
      namespace: { column: 'collection_id' },
      created_at: null,
      kind: null,
    });
    const { pattern } = pgvectorSampleSource.columnName;
    expect(pattern.test('cmetadata')).toBe(true);
    expect(pattern.test('_x$1')).toBe(true);
    expect(pattern.test('a'.repeat(63))).toBe(true);
    expect(pattern.test('a'.repeat(64))).toBe(false);
    expect(pattern.test('body; drop table x')).toBe(false);
    expect(pattern.test('"Quoted"')).toBe(false);
  });

  test('layouts: unique names; every column a mapping names is a column of the layout; metadata keys need a metadata column', () => {
    const layouts = pgvectorSampleSource.layouts!;
    expect(layouts.map((l) => l.name)).toEqual(['langchain-js-collection', 'langchain-js', 'langchain-postgres', 'langchain-postgres-v2', 'llamaindex', 'llamaindex-ts', 'mastra', 'mem0']);
    expect(pgvectorSampleSource.describeTable).toBeDefined();
    for (const l of layouts) {
      const names = new Set(l.columns.map((c) => c.name));
      for (const { column } of sampleMappedColumns(l.mapping)) expect(`${l.name}: ${column} ${names.has(column)}`).toBe(`${l.name}: ${column} true`);
      const keyed = (['text', 'created_at', 'namespace', 'kind'] as const).some((f) => l.mapping[f] && 'metadataKey' in l.mapping[f]!);
      if (keyed) expect(l.columns.find((c) => c.name === l.mapping.metadata)?.optional).toBeFalsy();
      expect(l.columns.find((c) => c.name === l.mapping.embedding)?.types).toEqual(['vector']);
      expect(l.verifiedAgainst).toMatch(/[;,] (source only|seeded by the real client in a test)$/);
    }
    expect(pgvectorSampleSource.defaults.columns).toBe(layouts.find((l) => l.name === 'langchain-postgres')!.mapping);
  });

  test('vector text: pgvector and array forms, exact float32, errors name the place', () => {
    const f = new Float32Array([0.1, -2.5e-7, 1 / 3]);
    const text = `[${Array.from(f, String).join(',')}]`;
    expect(Array.from(parseVectorText(text, 'w'))).toEqual(Array.from(f));
    expect(Array.from(parseVectorText('{1,2.5}', 'w'))).toEqual([1, 2.5]);
    expect(() => parseVectorText('[1,NaN]', 't id 7: embedding')).toThrow(/t id 7: embedding: component 1/);
    expect(() => parseVectorText('[]', 'w')).toThrow(/empty vector/);
    expect(pgvectorSampleSource.parseEmbedding).toBe(parseVectorText);
  });
});
