// Finding 6 with Mastra alone: LibSQLVector.query({ includeVector: true }) returns the stored float32 vector
// through libSQL's vector_extract(), which prints 6 significant digits. Run: node repro/vector-precision.js
const { mkdtempSync } = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { LibSQLVector } = require('@mastra/libsql');
(async () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'mastra-c01-'));
  const v = new LibSQLVector({ connectionUrl: `file:${path.join(dir, 'r.db')}` });
  await v.createIndex({ indexName: 'r', dimension: 3 });
  const x = Array.from(Float32Array.from([0.123456789, -0.987654321, 1e-7]));
  await v.upsert({ indexName: 'r', vectors: [x], ids: ['a'], metadata: [{ t: 'x' }] });
  const [h] = await v.query({ indexName: 'r', queryVector: [1, 0, 0], topK: 1, includeVector: true });
  console.log(
    x,
    h.vector,
    x.map((a, i) => a === Math.fround(h.vector[i])),
  );
  v.turso.close();
  require('node:fs').rmSync(dir, { recursive: true, force: true });
})();
