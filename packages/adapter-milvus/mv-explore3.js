const { MilvusClient, DataType } = require('@zilliz/milvus2-sdk-node');
const port = process.argv[2];
(async () => {
  const c = new MilvusClient({ address: `127.0.0.1:${port}`, maxRetries: 0, channelOptions: { 'grpc.enable_retries': 0 } });
  const name = 'mm_e3';
  await c.createCollection({
    collection_name: name,
    consistency_level: 'Strong',
    fields: [
      { name: 'id', data_type: DataType.VarChar, is_primary_key: true, max_length: 1024 },
      { name: 'metadata', data_type: DataType.JSON },
      { name: 'text', data_type: DataType.VarChar, max_length: 65535 },
      { name: 'embedding', data_type: DataType.FloatVector, dim: 384 },
    ],
  });
  console.log('idx', (await c.createIndex({ collection_name: name, field_name: 'embedding', index_type: 'HNSW', metric_type: 'COSINE', params: { M: 16, efConstruction: 64 } })).code);
  await c.loadCollectionAsync({ collection_name: name });
  const v = () => Array.from({ length: 384 }, () => Math.fround(Math.random()));
  const B = Number(process.argv[3]);
  for (let k = 0; k < 10; k++) {
    const data = Array.from({ length: B }, (_, i) => ({ id: `b${k}-${i}`, metadata: { t: 'x'.repeat(20), i }, text: 'some memory text '.repeat(5), embedding: v() }));
    const t0 = Date.now();
    const r = await c.insert({ collection_name: name, data });
    console.log('batch', k, B, r.status.code, r.status.reason.slice(0, 200), Date.now() - t0, 'ms');
  }
  let t0 = Date.now();
  console.log('count', JSON.stringify((await c.query({ collection_name: name, filter: '', output_fields: ['count(*)'], consistency_level: 'Strong' })).data), Date.now() - t0);
  t0 = Date.now();
  const s = await c.search({ collection_name: name, data: [v()], limit: 10, params: { ef: 100 }, consistency_level: 'Strong' });
  console.log('search', s.status.code, s.results.length, Date.now() - t0, 'ms');
  t0 = Date.now();
  console.log('flush', JSON.stringify(await c.flush({ collection_names: [name] })).slice(0, 300), Date.now() - t0);
  await c.closeConnection();
})().catch((e) => {
  console.error('ERR', e);
  process.exit(1);
});
