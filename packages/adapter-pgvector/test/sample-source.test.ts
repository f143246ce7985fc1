/**
 * The pgvector sample source's pure parts: which `--from` it reads, password masking, the
 * LangChain PGVector defaults, the column-name shape and exact vector text parsing. Its snapshot
 * (a real PostgreSQL) is exercised end to end by packages/runner/test/sample.test.ts.
 */
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

  test('defaults: LangChain PGVector table and columns; column names are plain PostgreSQL identifiers', () => {
    expect(pgvectorSampleSource.defaults.table).toBe('langchain_pg_embedding');
    expect(pgvectorSampleSource.defaults.columns).toEqual({
      id: 'id',
      text: 'document',
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
