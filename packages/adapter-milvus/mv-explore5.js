const { MilvusClient, DataType } = require('@zilliz/milvus2-sdk-node');
const port = process.argv[2];
(async () => {
  const c = new MilvusClient({ address: `127.0.0.1:${port}`, maxRetries: 0, channelOptions: { 'grpc.enable_retries': 0 } });
  const name = 'mm_e5';
  await c.createCollection({
    collection_name: name,
    consistency_level: 'Strong',
    fields: [
      { name: 'id', data_type: DataType.VarChar, is_primary_key: true, max_length: 1024 },
      { name: 'text', data_type: DataType.VarChar, max_length: 65535 },
      { name: 'metadata', data_type: DataType.JSON },
      { name: 'embedding', data_type: DataType.FloatVector, dim: 384 },
    ],
  });
  await c.createIndex({ collection_name: name, field_name: 'embedding', index_type: 'HNSW', metric_type: 'COSINE', params: { M: 16, efConstruction: 64 } });
  await c.loadCollectionAsync({ collection_name: name });
  for (const n of [1140, 1170, 1200]) {
    const data = Array.from({ length: n }, (_, i) => ({ id: `b${n}-${i}`, text: 'y'.repeat(60000), metadata: {}, embedding: Array(384).fill(0.5) }));
    const t0 = Date.now();
    try {
      const r = await c.insert({ collection_name: name, data });
      console.log('bytes', n * 60000, r.status.code, r.status.reason.slice(0, 200), Date.now() - t0, 'ms');
    } catch (e) {
      console.log('bytes', n * 60000, 'THROW', String(e).slice(0, 300), Date.now() - t0, 'ms');
    }
  }
  const v = () => Array.from({ length: 384 }, () => Math.fround(Math.random()));
  for (const n of [1000, 2000]) {
    const data = Array.from({ length: n }, (_, i) => ({ id: `s${n}-${i}`, text: 't', metadata: { a: i }, embedding: v() }));
    const t0 = Date.now();
    const r = await c.insert({ collection_name: name, data });
    console.log('rows384', n, r.status.code, Date.now() - t0, 'ms');
  }
  await c.dropCollection({ collection_name: name });
  await c.closeConnection();
})().catch((e) => {
  console.error('ERR', e);
  process.exit(1);
});
