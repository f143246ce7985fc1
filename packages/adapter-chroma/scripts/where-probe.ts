/**
 * Chroma's `where` on its own, without the adapter (README "Filters"): one metadata key `v` holding
 * ints, floats, a string, a boolean or nothing, and each operator the filter language needs, asked
 * with the chromadb client. Prints each where and the ids it returned (or the server's error).
 * Run against a server you started (see scripts/subnormal-filter.ts), then:
 *   pnpm --filter @memory-matrix/adapter-chroma exec tsx scripts/where-probe.ts <port>
 */
import { ChromaClient } from 'chromadb';

const ROWS: [string, Record<string, unknown>][] = [
  ['i0', { v: 0 }],
  ['i1', { v: 1 }],
  ['i2', { v: 2 }],
  ['f1.5', { v: 1.5 }],
  ['f-2.5', { v: -2.5 }],
  ['f2.0', { v: 2.0000000000000004 }],
  ['s1', { v: '1' }],
  ['bF', { v: false }],
  ['bT', { v: true }],
  ['none', { w: 1 }],
];

const WHERES: unknown[] = [
  { v: { $eq: 1 } },
  { v: { $eq: 1.5 } },
  { v: { $eq: 0 } },
  { v: { $eq: false } },
  { v: { $eq: '1' } },
  { v: { $ne: 1 } },
  { v: { $ne: 1.5 } },
  { v: { $ne: false } },
  { v: { $gt: 1 } },
  { v: { $gt: 1.5 } },
  { v: { $gte: 1.5 } },
  { v: { $lt: 1.5 } },
  { v: { $lte: 1.5 } },
  { v: { $lt: -2 } },
  { v: { $gt: 1.9 } },
  { v: { $lte: 1.9 } },
  { v: { $in: [1, 2] } },
  { v: { $in: [1.5] } },
  { v: { $in: [0.5] } },
  { v: { $nin: [1, 2] } },
  { v: { $nin: [1.5] } },
  { v: { $in: [] } },
  { v: { $nin: [] } },
  { v: { $in: [1, 1.5] } },
  { v: { $in: [false] } },
  { v: { $exists: true } },
  { $not: { v: 1 } },
  { v: { $not: { $eq: 1 } } },
  { v: { $contains: 1 } },
  { $and: [{ v: 1 }] },
  { $or: [{ v: 1 }] },
  { $and: [{ v: { $gte: 1 } }, { v: { $lte: 1 } }] },
  { v: { $gt: '0' } },
  { v: { $gt: 1, $lt: 3 } },
  { v: { $contains: '' } },
  { v: { $not_contains: '' } },
  { v: { $contains: '1' } },
  { v: { $not_contains: 1 } },
];

async function main(): Promise<void> {
  const port = Number(process.argv[2]);
  const client = new ChromaClient({ host: '127.0.0.1', port });
  console.log('version', await client.version());
  const name = `mm_probe_where_${process.pid}`;
  const col = await client.createCollection({ name, embeddingFunction: null, configuration: { hnsw: { space: 'cosine' } } });
  try {
    await col.add({ ids: ROWS.map(([id]) => id), embeddings: ROWS.map((_, i) => [1, i + 1, 0]), metadatas: ROWS.map(([, m]) => m as never) });
    try {
      await col.add({ ids: ['arr'], embeddings: [[1, 0, 1]], metadatas: [{ v: ['x', 'y'], t: [1, 2] } as never] });
      const a = await col.get({ ids: ['arr'], include: ['metadatas'] as never });
      console.log('array metadata stored as', JSON.stringify(a.metadatas[0]));
      for (const w of [{ v: { $contains: 'x' } }, { t: { $contains: 1 } }, { v: { $not_contains: 'x' } }, { v: 'x' }, { v: { $in: ['x'] } }]) {
        try {
          console.log(JSON.stringify(w), '->', (await col.get({ where: w as never })).ids.sort().join(' '));
        } catch (e) {
          console.log(JSON.stringify(w), '-> ERROR', String((e as Error).message).slice(0, 160));
        }
      }
    } catch (e) {
      console.log('array metadata refused:', String((e as Error).message).slice(0, 200));
    }
    for (const w of WHERES) {
      try {
        const got = await col.get({ where: w as never });
        console.log(JSON.stringify(w), '->', got.ids.sort().join(' ') || '(none)');
      } catch (e) {
        console.log(JSON.stringify(w), '-> ERROR', String((e as Error).message).slice(0, 200));
      }
    }
  } finally {
    await client.deleteCollection({ name });
  }
}

main().catch((e) => {
  console.error(e);
  process.exit(2);
});
