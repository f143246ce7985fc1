// How LibSQLVector (@mastra/libsql 0.16.4) filters metadata: SQLite's json_extract, in which a JSON
// boolean is the integer 0 or 1 and a missing key and a stored null are both SQL NULL.
//   - {k: 0} matches a stored false and {k: false} a stored 0 (a boolean is 0 / 1 to SQLite);
//   - the null / missing / $exists / $ne / $nin cases: printed below beside what the contract expects.
// Run: node repro/libsql-filters.js
const { mkdtempSync, rmSync } = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { LibSQLVector } = require('@mastra/libsql');

(async () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'mastra-libsql-filters-'));
  const v = new LibSQLVector({ connectionUrl: `file:${path.join(dir, 'repro.db')}` });
  await v.createIndex({ indexName: 'filters', dimension: 2 });
  const rows = {
    'pinned-false': { pinned: false },
    'pinned-number-0': { pinned: 0 },
    'speaker-a': { speaker: 'A' },
    'speaker-null': { speaker: null },
    missing: {},
    'tag-text': { tag: '仕事' },
    'tag-number': { tag: 5 },
  };
  const ids = Object.keys(rows);
  await v.upsert({ indexName: 'filters', ids, vectors: ids.map(() => [1, 0]), metadata: ids.map((id) => rows[id]) });
  const all = (except) => ids.filter((id) => !except.includes(id)).sort();
  const ask = async (what, filter, expected) => {
    try {
      const hits = await v.query({ indexName: 'filters', queryVector: [1, 0], topK: 10, filter });
      console.log(`${what}: ${JSON.stringify(hits.map((h) => h.id).sort())}   expected ${JSON.stringify(expected)}`);
    } catch (e) {
      console.log(`${what}: threw ${e.message.split('\n')[0]}   expected ${JSON.stringify(expected)}`);
    }
  };
  await ask('pinned $eq 0 (a number)', { pinned: { $eq: 0 } }, ['pinned-number-0']);
  await ask('pinned $eq false', { pinned: { $eq: false } }, ['pinned-false']);
  await ask('speaker $exists false', { speaker: { $exists: false } }, all(['speaker-a', 'speaker-null']));
  await ask('speaker $eq null', { speaker: { $eq: null } }, ['speaker-null']);
  await ask('speaker $ne "A"', { speaker: { $ne: 'A' } }, all(['speaker-a']));
  await ask('speaker $nin ["A"]', { speaker: { $nin: ['A'] } }, all(['speaker-a']));
  await ask('tag $gte 0', { tag: { $gte: 0 } }, ['tag-number']);
  rmSync(dir, { recursive: true, force: true });
})();
