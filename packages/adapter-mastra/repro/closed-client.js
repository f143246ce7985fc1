// LibSQLVector after its client is closed: @mastra/libsql 0.16.4 has no close(), so the only way to end a
// LibSQLVector is its (private) libSQL client's close(). Reads then reject with CLIENT_CLOSED, but upsert
// still writes: it runs in client.transaction(), which @libsql/client 0.15.15 (Sqlite3Client.transaction)
// starts without checking `closed`, on a connection it opens anew. Run: node repro/closed-client.js
const { mkdtempSync, rmSync } = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { LibSQLVector } = require('@mastra/libsql');

(async () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'mastra-closed-'));
  const url = `file:${path.join(dir, 'repro.db')}`;
  const v = new LibSQLVector({ connectionUrl: url });
  await v.createIndex({ indexName: 'r', dimension: 2 });
  v.turso.close();
  const tryIt = (p) =>
    p.then(
      (r) => `resolved ${JSON.stringify(r)}`,
      (e) => `rejected: ${e.cause?.message ?? e.message}`,
    );
  console.log('query after close: ', await tryIt(v.query({ indexName: 'r', queryVector: [1, 0], topK: 1 }))); // rejected: The client is closed
  console.log('upsert after close:', await tryIt(v.upsert({ indexName: 'r', vectors: [[1, 0]], ids: ['after-close'] }))); // resolved ["after-close"]
  const reader = new LibSQLVector({ connectionUrl: url });
  console.log(
    'stored:',
    (await reader.query({ indexName: 'r', queryVector: [1, 0], topK: 5 })).map((h) => h.id),
  ); // [ 'after-close' ]
  reader.turso.close();
  rmSync(dir, { recursive: true, force: true });
})();
