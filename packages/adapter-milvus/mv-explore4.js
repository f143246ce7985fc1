const { MilvusClient, DataType } = require('@zilliz/milvus2-sdk-node');
const port = process.argv[2];
(async () => {
  const c = new MilvusClient({ address: `127.0.0.1:${port}`, maxRetries: 0, channelOptions: { 'grpc.enable_retries': 0 } });
  const name = 'mm_e4';
  await c.createCollection({
    collection_name: name,
    consistency_level: 'Strong',
    fields: [
      { name: 'id', data_type: DataType.VarChar, is_primary_key: true, max_length: 1024 },
      { name: 'text', data_type: DataType.VarChar, max_length: 65535 },
      { name: 'embedding', data_type: DataType.FloatVector, dim: 4 },
    ],
  });
  await c.createIndex({ collection_name: name, field_name: 'embedding', index_type: 'FLAT', metric_type: 'L2', params: {} });
  await c.loadCollectionAsync({ collection_name: name });
  for (const n of [30, 60, 100, 200, 400, 1100]) {
    const data = Array.from({ length: n }, (_, i) => ({ id: `b${n}-${i}`, text: 'y'.repeat(60000), embedding: [1, 2, 3, 4] }));
    const t0 = Date.now();
    try {
      const r = await c.insert({ collection_name: name, data });
      console.log('bytes', n * 60000, r.status.code, r.status.reason.slice(0, 200), Date.now() - t0, 'ms');
    } catch (e) {
      console.log('bytes', n * 60000, 'THROW', String(e).slice(0, 300), Date.now() - t0, 'ms');
    }
  }
  for (const n of [2000, 3000]) {
    const data = Array.from({ length: n }, (_, i) => ({ id: `s${n}-${i}`, text: 't', embedding: [1, 2, 3, 4] }));
    const t0 = Date.now();
    const r = await c.insert({ collection_name: name, data });
    console.log('rows', n, r.status.code, Date.now() - t0, 'ms');
  }
  await c.dropCollection({ collection_name: name });
  await c.closeConnection();
})().catch((e) => {
  console.error('ERR', e);
  process.exit(1);
});
