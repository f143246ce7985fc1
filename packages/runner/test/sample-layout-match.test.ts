/**
 * Layout detection's rule, on table shapes as the pgvector source reports them (the columns and
 * foreign keys each client's DDL creates; the real tables are read in sample-layouts.test.ts):
 * which layout matches, the most-columns rule between two that match, optional columns, the
 * closest layout of an unknown table, and `--columns` over the detected mapping. No store.
 */
import { pgvectorSampleSource } from '@memory-matrix/adapter-pgvector';
import type { SampleTableShape } from '@memory-matrix/spec';
import { matchLayouts, resolveMapping } from '../src/sample/layouts';
import { parseColumns } from '../src/sample/columns';

const layouts = pgvectorSampleSource.layouts!;
const shape = (columns: Array<[string, string]>, references: SampleTableShape['references'] = []): SampleTableShape => ({
  table: 't',
  columns: columns.map(([name, type]) => ({ name, type })),
  references,
});
const COLLECTION = ['uuid', 'name', 'cmetadata'];
const LC_JS: Array<[string, string]> = [
  ['id', 'uuid'],
  ['text', 'text'],
  ['metadata', 'jsonb'],
  ['embedding', 'vector'],
];
const pick = (s: SampleTableShape) => matchLayouts(layouts, s).chosen?.layout.name ?? null;

/** resolveMapping over a fixed shape (no store): the source's layouts, describeTable answering `s`. */
const resolve = (s: SampleTableShape, columns?: string) =>
  resolveMapping({ ...pgvectorSampleSource, describeTable: () => Promise.resolve(s) }, { url: 'postgres://h/db', label: 'postgres://h/db', table: 't' }, parseColumns(columns, pgvectorSampleSource));

describe('sample layout detection', () => {
  test("each client's table picks its layout", () => {
    expect(pick(shape(LC_JS))).toBe('langchain-js');
    expect(pick(shape([...LC_JS, ['collection_id', 'uuid']], [{ column: 'collection_id', table: 'lc_collections', columns: COLLECTION }]))).toBe('langchain-js-collection');
    const lcp = shape(
      [
        ['id', 'character varying'],
        ['collection_id', 'uuid'],
        ['embedding', 'vector'],
        ['document', 'character varying'],
        ['cmetadata', 'jsonb'],
      ],
      [{ column: 'collection_id', table: 'langchain_pg_collection', columns: COLLECTION }],
    );
    expect(pick(lcp)).toBe('langchain-postgres');
    expect(
      pick(
        shape([
          ['langchain_id', 'uuid'],
          ['content', 'text'],
          ['embedding', 'vector'],
          ['langchain_metadata', 'json'],
        ]),
      ),
    ).toBe('langchain-postgres-v2');
    expect(
      pick(
        shape([
          ['id', 'bigint'],
          ['text', 'character varying'],
          ['metadata_', 'json'],
          ['node_id', 'character varying'],
          ['embedding', 'vector'],
          ['text_search_tsv', 'tsvector'],
        ]),
      ),
    ).toBe('llamaindex');
    expect(
      pick(
        shape([
          ['id', 'uuid'],
          ['external_id', 'character varying'],
          ['collection', 'character varying'],
          ['document', 'text'],
          ['metadata', 'jsonb'],
          ['embeddings', 'vector'],
        ]),
      ),
    ).toBe('llamaindex-ts');
    expect(
      pick(
        shape([
          ['id', 'uuid'],
          ['vector', 'vector'],
          ['payload', 'jsonb'],
        ]),
      ),
    ).toBe('mem0');
  });

  test('the most columns and references win; the others that matched are named', () => {
    const both = shape([...LC_JS, ['collection_id', 'uuid']], [{ column: 'collection_id', table: 'public.lc_collections', columns: [...COLLECTION, 'extra'] }]);
    const { chosen } = matchLayouts(layouts, both);
    expect(chosen).toMatchObject({ layout: { name: 'langchain-js-collection' }, alsoMatched: ['langchain-js'], references: ['collection_id → public.lc_collections'] });
    expect(chosen!.mapping.namespace).toEqual({ column: 'collection_id' });
    // collection_id without the foreign key to a collection table: LangChain.js alone (the extra column is not read).
    const noFk = matchLayouts(layouts, shape([...LC_JS, ['collection_id', 'uuid']]));
    expect(noFk.chosen).toMatchObject({ layout: { name: 'langchain-js' }, alsoMatched: [] });
    // The same order whatever the list order: specificity decides, not position.
    expect(matchLayouts([...layouts].reverse(), both).chosen!.layout.name).toBe('langchain-js-collection');
  });

  test('an optional column the table lacks unsets the field mapped to it', () => {
    const mastraOld = shape([
      ['id', 'integer'],
      ['vector_id', 'text'],
      ['embedding', 'vector'],
      ['metadata', 'jsonb'],
    ]);
    expect(matchLayouts(layouts, mastraOld).chosen).toMatchObject({ layout: { name: 'mastra' }, mapping: { namespace: null, text: { metadataKey: 'text' }, id: 'vector_id' } });
    const mastra = shape([...mastraOld.columns.map((c): [string, string] => [c.name, c.type]), ['namespace', 'character varying']]);
    expect(matchLayouts(layouts, mastra).chosen!.mapping.namespace).toEqual({ column: 'namespace' });
    const v2NoMeta = shape([
      ['langchain_id', 'uuid'],
      ['content', 'text'],
      ['embedding', 'vector'],
    ]);
    expect(matchLayouts(layouts, v2NoMeta).chosen).toMatchObject({ layout: { name: 'langchain-postgres-v2' }, mapping: { metadata: null } });
  });

  test('a type the layout does not take is not that layout (a halfvec embedding)', () => {
    const half = shape(LC_JS.map(([n, t]): [string, string] => [n, n === 'embedding' ? 'halfvec' : t]));
    const { chosen, closest } = matchLayouts(layouts, half);
    expect(chosen).toBeNull();
    expect(closest).toMatchObject({ layout: { name: 'langchain-js' }, unmet: ['column embedding is halfvec, not vector'] });
  });

  test('unknown layout: exit 2 (USAGE) listing the columns and the closest layout with what it lacks; --columns naming id, text and embedding maps it', async () => {
    const odd = shape([
      ['pk', 'bigint'],
      ['body', 'text'],
      ['metadata', 'jsonb'],
      ['emb', 'vector'],
    ]);
    await expect(resolve(odd)).rejects.toMatchObject({
      code: 'USAGE',
      message: expect.stringContaining(
        'postgres://h/db t: the table matches no known layout (langchain-js-collection, langchain-js, langchain-postgres, langchain-postgres-v2, llamaindex, llamaindex-ts, mastra, mem0); its columns: pk bigint, body text, metadata jsonb, emb vector; closest known layout: langchain-js (LangChain.js PGVectorStore (@langchain/community)), which needs no column id (uuid); no column text (text); no column embedding (vector). Give --columns naming at least id, text and embedding',
      ),
    });
    await expect(resolve(odd, 'text=body,embedding=emb')).rejects.toMatchObject({ code: 'USAGE' });
    // No column name in common with any layout: the closest is the one whose missing columns the table has the types of.
    const bare = shape([
      ['pk', 'bigint'],
      ['body', 'text'],
      ['v', 'vector'],
    ]);
    expect(matchLayouts(layouts, bare).closest).toMatchObject({ layout: { name: 'llamaindex' }, lookalikes: 4 });
    const r = await resolve(odd, 'id=pk,text=body,embedding=emb,metadata=metadata');
    expect(r.layout).toBeNull();
    expect(r.mapping).toEqual({ id: 'pk', text: { column: 'body' }, embedding: 'emb', metadata: 'metadata', created_at: null, namespace: null, kind: null });
    expect(r.lines).toEqual([
      'layout: none known (closest known layout: langchain-js (LangChain.js PGVectorStore (@langchain/community)), which needs no column id (uuid); no column text (text); no column embedding (vector))',
      'mapping (--columns): id=pk,text=body,embedding=emb,metadata=metadata,created_at=none,namespace=none,kind=none',
    ]);
  });

  test('--columns overrides the detected mapping field by field; the printed lines name the layout and its source', async () => {
    const r = await resolve(shape(LC_JS), 'namespace=metadata.user');
    expect(r.layout!.layout.name).toBe('langchain-js');
    expect(r.mapping).toEqual({ id: 'id', text: { column: 'text' }, embedding: 'embedding', metadata: 'metadata', created_at: null, namespace: { metadataKey: 'user' }, kind: null });
    expect(r.lines[0]).toBe('layout: langchain-js — LangChain.js PGVectorStore (@langchain/community)');
    expect(r.lines[1]).toMatch(/^ {2}verified against @langchain\/community 1\.1\.29 dist\/vectorstores\/pgvector\.cjs/);
    expect(r.lines).toContain("mapping (--columns over langchain-js's): id=id,text=text,embedding=embedding,metadata=metadata,created_at=none,namespace=metadata.user,kind=none");
    await expect(resolve(shape(LC_JS), 'metadata=none,namespace=metadata.user')).rejects.toThrow(/namespace=metadata.user needs a metadata column/);
  });
});
