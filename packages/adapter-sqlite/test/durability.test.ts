import { spawn } from 'node:child_process';
import path from 'node:path';
import type { MemoryRecord } from '@memory-matrix/spec';
import { sqliteEmbeddedEngine, type JournalConfig } from '../src';
import { durabilityRecord } from './helpers/durability-records';

/**
 * kill -9 of a WRITER PROCESS mid-stream, per journal configuration users choose (issue: C15 for a
 * local store), ≥ 5 cycles each: every batch whose upsert resolved before the kill (acknowledged)
 * must be there from a new connection, whole and unchanged; a batch in flight is all there or
 * absent (never partial); no id twice; the vec0 table holds exactly the records' rowids.
 * What this simulates: the process dies at any instruction, the OS page cache survives (a kill -9
 * is not a power loss: SQLite's `synchronous` setting only matters for the latter, not tested here).
 */
const CYCLES = 5;
const BATCH = 20;
const DIM = 64;
const WRITER = path.join(__dirname, 'helpers', 'durability-writer.ts');
const CONFIGS: Array<{ name: string; journal: JournalConfig }> = [
  { name: 'WAL + synchronous=NORMAL', journal: { journalMode: 'WAL', synchronous: 'NORMAL' } },
  { name: 'WAL + synchronous=FULL', journal: { journalMode: 'WAL', synchronous: 'FULL' } },
  { name: 'DELETE + synchronous=FULL', journal: { journalMode: 'DELETE', synchronous: 'FULL' } },
];

/** Start a writer, SIGKILL it `afterMs` after its first ack; resolves with the acknowledged batch numbers. */
function killedWriter(input: object, afterMs: number): Promise<{ acked: number[]; signal: string | null; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--require', require.resolve('tsx/cjs'), WRITER, JSON.stringify(input)], { stdio: ['ignore', 'pipe', 'pipe'] });
    const acked: number[] = [];
    let buf = '';
    let stderr = '';
    let timer: NodeJS.Timeout | undefined;
    const guard = setTimeout(() => child.kill('SIGKILL'), 60_000);
    child.stdout.setEncoding('utf8').on('data', (d: string) => {
      buf += d;
      for (let nl = buf.indexOf('\n'); nl >= 0; nl = buf.indexOf('\n')) {
        acked.push((JSON.parse(buf.slice(0, nl)) as { ack: number }).ack);
        buf = buf.slice(nl + 1);
        timer ??= setTimeout(() => child.kill('SIGKILL'), afterMs);
      }
    });
    child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
    child.on('error', reject);
    child.on('close', (_status, signal) => {
      clearTimeout(guard);
      if (timer) clearTimeout(timer);
      resolve({ acked, signal, stderr });
    });
  });
}

const same = (a: MemoryRecord, b: MemoryRecord) =>
  a.text === b.text &&
  a.createdAt === b.createdAt &&
  a.namespace === b.namespace &&
  JSON.stringify(a.metadata) === JSON.stringify(b.metadata) &&
  Buffer.from(a.embedding.buffer).equals(Buffer.from(b.embedding.buffer));

const table: string[] = [];
afterAll(() => {
  console.log(
    ['| configuration | cycles | acknowledged | lost | phantom (in flight) | partial batches | duplicated | changed | vec0 ≠ records |', '|---|---|---|---|---|---|---|---|---|', ...table].join('\n'),
  );
});

test.each(CONFIGS)(
  '$name: acknowledged writes survive kill -9 of the writer process',
  async ({ name, journal }) => {
    const engine = await sqliteEmbeddedEngine(journal);
    try {
      const setup = await engine.connect();
      await setup.createCollection({ name: 'durability', dim: DIM, metric: 'cosine', index: { type: 'none' } });
      let acknowledged = 0;
      let lost = 0;
      let phantom = 0;
      let partial = 0;
      let duplicated = 0;
      let changed = 0;
      let vecMismatch = 0;
      for (let cycle = 1; cycle <= CYCLES; cycle++) {
        const w = await killedWriter({ file: engine.file, journal, collection: 'durability', cycle, batch: BATCH, dim: DIM }, 5 + Math.floor(Math.random() * 150));
        expect(w.signal).toBe('SIGKILL');
        const audit = await engine.connect();
        const col = await audit.openCollection('durability');
        const present: MemoryRecord[] = [];
        for (let page = await col.scan({ limit: 1000 }); page.length; page = await col.scan({ after: page[page.length - 1]!.id, limit: 1000 })) present.push(...page);
        const mine = present.filter((r) => r.id.startsWith(`c${cycle}-`));
        const byId = new Map(mine.map((r) => [r.id, r]));
        duplicated += mine.length - byId.size;
        const ackedSet = new Set(w.acked);
        const batches = new Map<number, number>();
        for (const r of mine) {
          const n = Number(r.metadata.batch);
          batches.set(n, (batches.get(n) ?? 0) + 1);
          if (!same(r, durabilityRecord(cycle, n, Number(r.metadata.i), DIM))) changed++;
          if (!ackedSet.has(n)) phantom++;
        }
        for (const n of w.acked) {
          acknowledged += BATCH;
          for (let i = 0; i < BATCH; i++) if (!byId.has(durabilityRecord(cycle, n, i, DIM).id)) lost++;
        }
        for (const k of batches.values()) if (k !== BATCH) partial++;
        const db = audit.ctx.db;
        const counts = db
          .prepare(
            'SELECT (SELECT count(*) FROM mm_durability) AS r, (SELECT count(*) FROM mm_durability_vec) AS v, (SELECT count(*) FROM mm_durability r WHERE NOT EXISTS (SELECT 1 FROM mm_durability_vec v WHERE v.rowid = r.rid)) AS orphan',
          )
          .get() as { r: number; v: number; orphan: number };
        if (counts.r !== counts.v || counts.orphan !== 0) vecMismatch++;
        await audit.close();
      }
      table.push(`| ${name} | ${CYCLES} | ${acknowledged} | ${lost} | ${phantom} | ${partial} | ${duplicated} | ${changed} | ${vecMismatch} |`);
      expect({ lost, partial, duplicated, changed, vecMismatch }).toEqual({ lost: 0, partial: 0, duplicated: 0, changed: 0, vecMismatch: 0 });
      expect(acknowledged).toBeGreaterThan(0);
    } finally {
      await engine.stop();
    }
  },
  300_000,
);
