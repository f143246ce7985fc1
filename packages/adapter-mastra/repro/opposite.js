// Finding 1 with Mastra alone: LibSQLVector.query keeps score > minScore (default -1), so the
// exactly opposite vector is not returned although topK asks for both. Run: node repro/opposite.js
const { mkdtempSync, rmSync } = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { LibSQLVector } = require('@mastra/libsql');

(async () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'mastra-repro-'));
  const v = new LibSQLVector({ connectionUrl: `file:${path.join(dir, 'repro.db')}` });
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
  v.turso.close();
  rmSync(dir, { recursive: true, force: true });
})();
