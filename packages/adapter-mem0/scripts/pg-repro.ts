/**
 * mem0 on its own over pgvector (mem0ai 3.3.1 `Memory` + its `pgvector` store, no driver), README
 * "Over pgvector": the two findings behind the C09 and C31 known failures of the mem0@3.3.1-pg*
 * targets.
 * - C09: `search(…, { threshold: 0 })` keeps a memory whose cosine similarity is below 0, because
 *   PGVector.search clamps the score to max(0, min(1, 1 − distance)) before Memory.search compares
 *   it with the threshold (`semanticScore < threshold` drops; 0 < 0 is false).
 * - C31: a range filter casts every row's value under the key to numeric
 *   (`(payload->>'k')::numeric >= $n`), so ONE memory holding text under the key makes the whole
 *   `getAll` / `search` fail with `invalid input syntax for type numeric`, for every user of it.
 * The server: `PG_URL` when set (e.g. a pgvector container), else PGlite 0.5 (PostgreSQL 18.6 +
 * pgvector 0.8.7) served on a loopback port, as the `pgvector@pglite-pg18` target runs it.
 *   cd packages/adapter-mem0 && node ../../node_modules/tsx/dist/cli.mjs scripts/pg-repro.ts
 * Prints what mem0 returned; exit 1 when both findings reproduce, 0 when neither does, 2 otherwise.
 */
import { pgvectorDriver } from '@memory-matrix/adapter-pgvector';

process.env.MEM0_TELEMETRY = 'false';

/** The vector of every text mem0 embeds (3 dimensions); any other text is an error. */
const VECTORS: Record<string, number[]> = {
  the: [1, 0, 0], // the query
  same: [1, 0, 0], // cosine 1
  orthogonal: [0, 1, 0], // cosine 0: on the threshold 0, kept
  'below-0': [-0.0625, 1, 0], // cosine -0.0624: below the threshold 0, must be dropped
  'numeric tag': [0, 0, 1],
  'text tag': [0, 0, 1],
};

async function server(): Promise<{ url: string }> {
  if (process.env.PG_URL) return { url: process.env.PG_URL };
  const instance = await pgvectorDriver.embedded!.engines['pglite-0.5']!.open({ where: 'mem0 repro' });
  await instance.versions(); // CREATE EXTENSION vector
  return { url: await instance.serve!('mem0 repro') };
}

async function main(): Promise<void> {
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- mem0ai/oss reads MEM0_TELEMETRY when it loads: after the line above
  const { Memory } = require('mem0ai/oss') as typeof import('mem0ai/oss');
  const embed = (t: string): number[] => {
    const v = VECTORS[t];
    if (!v) throw new Error(`no vector for ${JSON.stringify(t)}`);
    return v;
  };
  const model = { embedQuery: async (t: string) => embed(t), embedDocuments: async (ts: string[]) => ts.map(embed) };
  const pg = await server();
  const memory = new Memory({
    embedder: { provider: 'langchain', config: { model, embeddingDims: 3 } },
    vectorStore: { provider: 'pgvector', config: { connectionString: pg.url, collectionName: `repro_${process.pid}`, embeddingModelDims: 3, dimension: 3 } },
    llm: { provider: 'openai', config: { apiKey: 'unused', model: 'unused' } },
    disableHistory: true,
  });
  const add = (text: string, metadata: Record<string, unknown> = {}) => memory.add([{ role: 'user', content: text }], { userId: 'u1', infer: false, metadata });
  for (const text of ['same', 'orthogonal', 'below-0']) await add(text);
  const hits = (await memory.search('the', { filters: { user_id: 'u1' }, topK: 10, threshold: 0 })).results;
  console.log(`search threshold 0 -> ${hits.map((m) => `${m.memory}: ${m.score}`).join(' | ')}`);
  const c09 = hits.some((m) => m.memory === 'below-0');

  await add('numeric tag', { tag: 3 });
  const range = { user_id: 'u1', tag: { gte: 1 } };
  const before = await memory.getAll({ filters: range });
  console.log(`getAll ${JSON.stringify(range)}, one tag 3 -> ${before.results.map((m) => m.memory).join(',')}`);
  await add('text tag', { tag: '仕事' });
  let c31 = false;
  for (const [name, call] of [
    ['getAll', () => memory.getAll({ filters: range })],
    ['search', () => memory.search('the', { filters: range, topK: 10, threshold: 0 })],
  ] as const) {
    try {
      const r = await call();
      console.log(`${name} ${JSON.stringify(range)}, tags 3 and "仕事" -> ${r.results.map((m) => m.memory).join(',')}`);
    } catch (err) {
      c31 = true;
      console.log(`${name} ${JSON.stringify(range)}, tags 3 and "仕事" -> throws ${(err as Error).message}`);
    }
  }
  await memory.reset();
  console.log(`C09 clamp ${c09 ? 'reproduced' : 'not reproduced'}; C31 numeric cast ${c31 ? 'reproduced' : 'not reproduced'}`);
  // Exit without stopping PGlite first: mem0's pg clients have no 'error' listener, so a server that ends
  // their sessions kills the process (mem0ai/mem0#7294, README "Over pgvector"); exiting ends both.
  process.exit(c09 && c31 ? 1 : !c09 && !c31 ? 0 : 2);
}

main().catch((err) => {
  console.error(err);
  process.exit(2);
});
