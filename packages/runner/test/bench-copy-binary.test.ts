/** Binary and text COPY of golden memories round-trip through PostgreSQL 17 + pgvector: every column read back equals the record (vectors bit for bit). */
import { Client } from 'pg';
import { startTarget, type StartedBackend } from '@memory-matrix/targets';
import { decodeVectorBinary, encodeCopyBinary, encodeVectorBinary, literalToVector } from '@memory-matrix/adapter-pgvector';
import { loadGoldenDataset } from '@memory-matrix/spec';
import { encodeCopyText } from '../src/bench/pg-copy-encode';
import { referenceTableSql, timedCopy } from '../src/bench/load-pgvector';
import { endpointOf } from '../src/bench/pg-connection';
import { datasetDir, runIdOf } from '../src/run';
import { describeWithContainers } from './docker-gate';

test('vector binary form: int16 dim, int16 0, big-endian float32; decodes back', () => {
  const v = new Float32Array([1.5, -0, 3.25e-8]);
  const b = encodeVectorBinary(v);
  expect(b.subarray(0, 4)).toEqual(Buffer.from([0, 3, 0, 0]));
  expect(b.readFloatBE(4)).toBe(1.5);
  expect(Object.is(decodeVectorBinary(b)[1], -0)).toBe(true);
  expect(decodeVectorBinary(b)).toEqual(v);
});

describeWithContainers('COPY encodings through pgvector@pg17', ['pgvector@pg17'], (targets) => {
  const ds = loadGoldenDataset(datasetDir('agent-memories'));
  const records = ds.memories.slice(0, 300);
  let backend: StartedBackend;
  let client: Client;
  beforeAll(async () => {
    backend = await startTarget(targets[0]!, { runId: runIdOf(new Date()), log: () => undefined });
    client = new Client({ connectionString: endpointOf(backend, 'pgvector@pg17').connectionString });
    await client.connect();
    await client.query('CREATE EXTENSION IF NOT EXISTS vector');
  }, 240_000);
  afterAll(async () => {
    await client?.end();
    await backend?.stop();
  }, 60_000);

  test.each(['binary', 'text'] as const)(
    'COPY %s: every column of 300 golden memories reads back equal',
    async (format) => {
      const table = `mm_test_copy_${format}`;
      await client.query(referenceTableSql(table, ds.manifest.dim));
      await timedCopy(client, table, () => (format === 'binary' ? encodeCopyBinary(records) : encodeCopyText(records)), format);
      const rows = (
        await client.query<{ id: string; namespace: string; kind: string; text: string; ts: string; metadata: unknown; emb: string }>(
          `SELECT id, namespace, kind, text, to_char(created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS ts, metadata, embedding::text AS emb FROM "${table}" ORDER BY id`,
        )
      ).rows;
      const want = [...records].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
      expect(rows.length).toBe(want.length);
      rows.forEach((row, i) => {
        const r = want[i]!;
        expect({ id: row.id, namespace: row.namespace, kind: row.kind, text: row.text, ts: row.ts, metadata: row.metadata }).toEqual({
          id: r.id,
          namespace: r.namespace,
          kind: r.kind,
          text: r.text,
          ts: r.createdAt,
          metadata: r.metadata,
        });
        expect(Buffer.from(literalToVector(row.emb, table).buffer).equals(Buffer.from(new Float32Array(r.embedding).buffer))).toBe(true);
      });
      await client.query(`DROP TABLE "${table}"`);
    },
    120_000,
  );
});
