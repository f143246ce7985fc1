// Every new PgVector fills its pool at once: its constructor starts a cache warm-up that runs
// `getIndexInfo` for EVERY index in the database concurrently (Promise.all), each on its own pooled
// connection, and the pool (max 20 unless pgPoolOptions says otherwise) keeps them idle for 30 s. On a
// database with 20 or more Mastra indexes, five PgVector instances alive at once (five worker processes,
// or one process that opens a store per request) take 100 connections: PostgreSQL's default
// max_connections, so the next connection anyone makes is refused with "sorry, too many clients already".
// Run against a PostgreSQL with pgvector (e.g. `docker run -d -p 127.0.0.1:55432:5432 <a pgvector image>`):
//   PG_URL=postgres://postgres@127.0.0.1:55432/postgres node repro/pool-warmup.js
const { PgVector } = require('@mastra/pg');
const { Client } = require('pg');

const url = process.env.PG_URL;
if (!url) throw new Error('set PG_URL to a PostgreSQL with pgvector, e.g. postgres://postgres@127.0.0.1:55432/postgres');
const INDEXES = 25;
const INSTANCES = 6;

(async () => {
  const admin = new Client({ connectionString: url });
  await admin.connect();
  const connections = async () => Number((await admin.query("SELECT count(*) AS n FROM pg_stat_activity WHERE backend_type = 'client backend'")).rows[0].n);
  console.log('max_connections:', (await admin.query('SHOW max_connections')).rows[0].max_connections);
  const setup = new PgVector({ connectionString: url });
  for (let i = 0; i < INDEXES; i++) await setup.createIndex({ indexName: `warmup_${i}`, dimension: 3 });
  await setup.disconnect();
  console.log(`${INDEXES} indexes; client connections now:`, await connections());
  const alive = [];
  for (let i = 1; i <= INSTANCES; i++) {
    const v = new PgVector({ connectionString: url });
    v.pool.on('error', () => undefined);
    alive.push(v);
    try {
      await v.cacheWarmupPromise; // the constructor's warm-up (not awaited by Mastra itself)
      await v.listIndexes();
      console.log(`PgVector #${i} constructed and answered; client connections now:`, await connections());
    } catch (e) {
      console.log(`PgVector #${i}: ${e.message}`);
    }
  }
  for (const v of alive) await v.disconnect().catch(() => undefined);
  const cleanup = new PgVector({ connectionString: url });
  for (let i = 0; i < INDEXES; i++) await cleanup.deleteIndex({ indexName: `warmup_${i}` });
  await cleanup.disconnect();
  await admin.end();
})();
