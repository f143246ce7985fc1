// How PgVector (@mastra/pg) filters metadata (stores/pg/src/vector/sql-builder.ts): every comparison is on the
// text form `metadata#>>'{key}'`, which is SQL NULL both for a missing key and for a stored JSON null.
//   - $exists ignores its value: {k: {$exists: false}} is `metadata ? 'k'`, the rows that HAVE the key;
//   - $eq null is `IS NULL`: it matches a missing key as well as a stored null;
//   - $ne, $nin (and NOT of a comparison) never match a missing key or a stored null (NULL != x is NULL);
//   - $eq / $in compare text: the number 0 equals the string "0";
//   - a range on a number casts every row's text to numeric: one row holding text under the key fails the query.
// Run against a PostgreSQL with pgvector (e.g. `docker run -d -p 127.0.0.1:55432:5432 <a pgvector image>`):
//   PG_URL=postgres://postgres@127.0.0.1:55432/postgres node repro/pg-filters.js
const { PgVector } = require('@mastra/pg');

const url = process.env.PG_URL;
if (!url) throw new Error('set PG_URL to a PostgreSQL with pgvector, e.g. postgres://postgres@127.0.0.1:55432/postgres');

(async () => {
  const v = new PgVector({ connectionString: url });
  await v.createIndex({ indexName: 'filters', dimension: 2 });
  const rows = {
    'speaker-a': { speaker: 'A' },
    'speaker-null': { speaker: null },
    missing: {},
    'importance-text-0': { importance: '0' },
    'importance-number-0': { importance: 0 },
    'tag-text': { tag: '仕事' },
    'tag-number': { tag: 5 },
  };
  const ids = Object.keys(rows);
  await v.upsert({ indexName: 'filters', ids, vectors: ids.map(() => [1, 0]), metadata: ids.map((id) => rows[id]) });
  const ask = async (what, filter, expected) => {
    try {
      const hits = await v.query({ indexName: 'filters', queryVector: [1, 0], topK: 10, filter });
      console.log(`${what}: ${JSON.stringify(hits.map((h) => h.id).sort())}   expected ${JSON.stringify(expected)}`);
    } catch (e) {
      console.log(`${what}: threw ${e.message.split('\n')[0]}   expected ${JSON.stringify(expected)}`);
    }
  };
  await ask('speaker $exists false', { speaker: { $exists: false } }, ['importance-number-0', 'importance-text-0', 'missing', 'tag-number', 'tag-text']);
  await ask('speaker $eq null', { speaker: { $eq: null } }, ['speaker-null']);
  await ask('speaker $ne "A"', { speaker: { $ne: 'A' } }, ['importance-number-0', 'importance-text-0', 'missing', 'speaker-null', 'tag-number', 'tag-text']);
  await ask('speaker $nin ["A"]', { speaker: { $nin: ['A'] } }, ['importance-number-0', 'importance-text-0', 'missing', 'speaker-null', 'tag-number', 'tag-text']);
  await ask('importance $eq 0 (a number)', { importance: { $eq: 0 } }, ['importance-number-0']);
  await ask('tag $gte 0', { tag: { $gte: 0 } }, ['tag-number']);
  await v.deleteIndex({ indexName: 'filters' });
  await v.disconnect();
})();
