/**
 * Milvus boolean expressions on their own, without the adapter (README "Filters"): a throwaway
 * collection with a JSON field `m` whose key `x` holds 0, false, "", "0", null, 1, true, "abc", 7,
 * 2.5, -2.5, 1e21, 1e-7 or nothing (`missing`), and an Int64 field `cu`; each expression is asked
 * with `query({ filter, consistency_level: 'Strong' })` of @zilliz/milvus2-sdk-node and printed
 * with the ids it returned, or the server's reason. Start the image yourself, then:
 *   docker run -d --rm -p 127.0.0.1:19530:19530 memory-matrix/milvus:lite-1.2-<hash8>
 *   pnpm --filter @memory-matrix/adapter-milvus exec tsx scripts/expr-probe.ts 19530 ['<expr>' …]
 * With no expressions it asks the list below. The collection is dropped at the end.
 */
import { DataType, MilvusClient } from '@zilliz/milvus2-sdk-node';

const VALUES: Record<string, unknown> = { zero: 0, false: false, empty: '', s0: '0', null: null, one: 1, true: true, abc: 'abc', seven: 7, h: 2.5, neg: -2.5, big: 1e21, tiny: 1e-7 };

const EXPRS = [
  'm["x"] == 0',
  'm["x"] == false',
  'm["x"] == ""',
  'm["x"] != 0',
  'm["x"] not in [0]',
  'm["x"] > 0',
  'm["x"] > 2',
  'm["x"] == 7.0',
  'm["x"] in [1.0, 2.5]',
  'm["x"] in [1, 2.5]',
  'm["x"] in [0, "abc"]',
  'm["x"] in []',
  'not (m["x"] == 0)',
  'm["x"] is null',
  'm["x"] == null',
  'exists m["x"]',
  'm["x"] > 0 or m["y"] == 1',
  'm["x"] >= 1e+21',
  'm["x"] < 1e-7',
  'cu > 4',
];

async function main(): Promise<void> {
  const [port, ...asked] = process.argv.slice(2);
  if (!port) throw new Error('usage: expr-probe.ts <port> [expr …]');
  const c = new MilvusClient({ address: `127.0.0.1:${port}`, maxRetries: 0 });
  const name = `expr_probe_${process.pid}`;
  await c.createCollection({
    collection_name: name,
    consistency_level: 'Strong' as never,
    fields: [
      { name: 'id', data_type: DataType.VarChar, is_primary_key: true, max_length: 64 },
      { name: 'cu', data_type: DataType.Int64 },
      { name: 'm', data_type: DataType.JSON },
      { name: 'v', data_type: DataType.FloatVector, dim: 2 },
    ],
  });
  try {
    await c.createIndex({ collection_name: name, field_name: 'v', index_type: 'FLAT', metric_type: 'COSINE', params: {} });
    await c.loadCollectionAsync({ collection_name: name });
    const rows = Object.entries(VALUES).map(([id, x], i) => ({ id, cu: i, m: { x }, v: [1, i] }));
    rows.push({ id: 'missing', cu: 99, m: {} as { x: unknown }, v: [1, 99] });
    await c.insert({ collection_name: name, data: rows });
    await c.flush({ collection_names: [name] });
    for (const filter of asked.length ? asked : EXPRS) {
      const r = await c.query({ collection_name: name, filter, output_fields: ['id'], consistency_level: 'Strong' as never });
      const ids = r.data.map((d) => String(d.id)).sort();
      console.log(`${filter} -> ${r.status.code ? `ERROR ${r.status.reason.split('\n')[0]}` : ids.join(' ') || '(none)'}`);
    }
  } finally {
    await c.dropCollection({ collection_name: name });
    await c.closeConnection();
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
