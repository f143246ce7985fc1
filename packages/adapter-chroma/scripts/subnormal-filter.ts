/**
 * Chroma on its own, without the adapter (README "Record layout"): a metadata number that is a
 * float64 subnormal (5e-324, 2.2e-308) is stored or compared as 0 by the server, so
 * `where: { n: { $eq: 5e-324 } }` also returns records whose n is 0, and `$eq: 0` returns the
 * subnormal one. Prints, per value v, the ids `$eq: v` returns and the value `get` reads back.
 * Run against a server you started, e.g. the local bindings:
 *   node packages/adapter-chroma/src/driver/chroma-launcher.js \
 *     $(node -p "require.resolve('chromadb-js-bindings-linux-x64-gnu')") /tmp/chroma-probe 127.0.0.1 18411 &
 *   pnpm --filter @memory-matrix/adapter-chroma exec tsx scripts/subnormal-filter.ts 18411
 * Exit 1 when a filter returned an id whose stored value differs from v (the defect), 0 otherwise.
 */
import { ChromaClient } from 'chromadb';

const VALUES: [string, number][] = [
  ['zero', 0],
  ['min-subnormal', 5e-324],
  ['subnormal', 2.2e-308],
  ['min-normal', 2.2250738585072014e-308],
  ['tiny-normal', 1e-300],
  ['small', 1e-17],
  ['int-one', 1],
  ['int-minus-two', -2],
  ['one', 1.5],
  ['minus-two-and-a-half', -2.5],
  ['one-ulp', 1.5000000000000002],
];

async function main(): Promise<void> {
  const port = Number(process.argv[2]);
  if (!Number.isInteger(port) || port <= 0) throw new Error('usage: subnormal-filter.ts <port>');
  const client = new ChromaClient({ host: '127.0.0.1', port });
  const name = `mm_probe_subnormal_${process.pid}`;
  const col = await client.createCollection({ name, embeddingFunction: null, configuration: { hnsw: { space: 'cosine' } } });
  let wrong = 0;
  try {
    await col.add({ ids: VALUES.map(([id]) => id), embeddings: VALUES.map((_, i) => [1, i + 1, 0]), metadatas: VALUES.map(([, n]) => ({ n })) });
    const back = await col.get({ ids: VALUES.map(([id]) => id), include: ['metadatas'] as never });
    back.ids.forEach((id, i) => console.log(`get ${id}: n = ${String(back.metadatas[i]?.n)}`));
    for (const [, v] of VALUES) {
      const got = await col.get({ where: { n: { $eq: v } } });
      const bad = got.ids.filter((id) => VALUES.find(([x]) => x === id)![1] !== v);
      if (bad.length > 0) wrong++;
      console.log(`where n $eq ${v}: ${JSON.stringify(got.ids)}${bad.length ? `  WRONG: ${bad.join(', ')} do not hold ${v}` : ''}`);
    }
  } finally {
    await client.deleteCollection({ name });
  }
  process.exitCode = wrong > 0 ? 1 : 0;
}

main().catch((err) => {
  console.error(err);
  process.exitCode = 2;
});
