import type { MemoryCollection } from '../adapter';
import type { Failure } from '../comparator';
import type { LiveCell } from '../conformance/cell';
import type { Figure } from '../conformance/result';
import type { MemoryRecord } from '../types';
import { yieldToEventLoop } from '../yield';
import { type CheckDefinition, type CheckOutcome, failure } from './check';
import { deleteVerified } from './helpers/delete-verified';
import { bindingProblems, type C27Client, type C27Problem, type C27Read, type C27Recall, judgeRead } from './c27-judge';
import { C27_RECALL_K, c27Rounds, type C27Round } from './c27-rounds';

/** The reads after each write, in the order of round 1; later rounds rotate it, so each kind of read comes first after some write. */
const READS = ['get', 'count', 'recall'] as const;

/**
 * C27 read-your-writes: after an ACKNOWLEDGED write (an `upsert` or `delete` that resolved), the
 * very next `get`, `count` and `recall` reflect it — with no sleep, no retry, no flush call of
 * the check's own. Six rounds in fresh ids (c27-rounds.ts: a single write, batches of 5 and 3,
 * an overwrite of 2 existing ids with new embeddings and payloads, deletes of 1 and of 4 ids) on
 * a scratch collection with the cell's ANN index built before the first write. After each write
 * three clients read (c27-judge.ts `C27Client`): the writer's own (`same`), a second client open
 * since before the first write (`other`), and one connected after the acknowledgement (`new`,
 * capability `reopen`); the client that reads first, and the read it starts with, rotate by round.
 * Recalls (k `C27_RECALL_K`, on the exact path where the target has one and on the index path
 * where it has an index or no exact scan) use each written / replaced / deleted embedding.
 * Each delete is also verified, after those reads, by the shared delete verification
 * (helpers/delete-verified.ts `deleteVerified`: the count it reports, get, count and recall of the
 * deleted ids on the writing client, every other memory intact).
 * Judged against the target's `readYourWrites` (capabilities.ts): `strong` fails a problem of any
 * client, `session` only the writer's (the others' are notes); `eventual` skips the check.
 * Kind `read-your-writes`; each failure names the round, the operation, the client, the read and the id.
 * Figures: `readYourWrites`, `rounds`, `writes`, `deletes`, `reads`, `scanPaths`, `clients`,
 * `problems.same`, `problems.other`, `problems.new`.
 */
export const c27ReadYourWrites: CheckDefinition = {
  id: 'C27',
  name: 'read-your-writes',
  requires(caps) {
    for (const n of ['vectors', 'upsert', 'delete'] as const) if (!caps[n]) return `capability: ${n}`;
    if (caps.readYourWrites === 'eventual') return 'capability: readYourWrites (eventual)';
    return null;
  },
  async run(cell): Promise<CheckOutcome> {
    const caps = cell.config.capabilities;
    const level = caps.readYourWrites;
    const rounds = c27Rounds(cell.datasetName, cell.dataset.memories, cell.dataset.manifest.metric, cell.config.tolerances.scoreTolerance);
    const scans: Array<'exact' | 'index'> = [];
    if (caps.exactScan) scans.push('exact');
    if (!caps.exactScan || cell.config.index.type !== 'none') scans.push('index');
    const { collection } = await cell.scratch('c27', { index: cell.config.index });
    await collection.buildIndex();
    const clients: C27Client[] = caps.reopen ? ['same', 'other', 'new'] : ['same'];
    const other = caps.reopen ? await (await cell.connect()).openCollection(collection.spec.name) : undefined;

    const failures: Failure[] = [];
    const notes: string[] = [];
    const problems: C27Problem[] = [];
    const rows: Figure[][] = [];
    let reads = 0;
    const live = new Map<string, MemoryRecord>(); // the collection's contents, as stored
    for (const round of rounds) {
      const order = rotate(clients, round.round - 1);
      const readOrder = rotate([...READS], round.round - 1 + Math.floor((round.round - 1) / clients.length));
      const found: C27Problem[] = [];
      const readRound = async (): Promise<void> => {
        for (const client of order) {
          const read =
            client === 'same'
              ? await readAll(collection, client, round, scans, readOrder)
              : client === 'other'
                ? await readAll(other!, client, round, scans, readOrder)
                : await readNew(cell, collection.spec.name, round, scans, readOrder);
          reads += 2 + read.recalls.length;
          found.push(...judgeRead(round, read, cell.dataset.manifest.metric, cell.config.tolerances.embeddingReadback, caps.embeddingReadBack));
        }
      };
      if (round.op === 'upsert') {
        await collection.upsert(round.records);
        await readRound();
        for (const r of round.records) live.set(r.id, r);
      } else {
        // The clients' reads come first after the acknowledgement; then the shared delete verification (reported count, get, count, recall, the rest intact).
        const gone = new Set(round.records.map((r) => r.id));
        const kept = [...live.values()].filter((r) => !gone.has(r.id));
        const v = await deleteVerified(cell, collection, { deleted: round.records, kept, what: `round ${round.round} (${round.label})`, kind: 'read-your-writes' }, readRound);
        failures.push(...v.failures);
        notes.push(...v.notes);
        for (const id of gone) live.delete(id);
      }
      problems.push(...found);
      rows.push([round.round, round.label, order.join(' → '), readOrder.join(' → '), ...clients.map((c) => found.filter((p) => p.client === c).length)]);
      await yieldToEventLoop(); // in-process engines: let signals in (yield.ts)
    }

    const { failing, reported } = bindingProblems(level, problems);
    for (const p of failing) failures.push(failure(cell, 'read-your-writes', p.message, { id: p.id, expected: p.expected, actual: p.actual }));
    for (const p of reported) notes.push(`not failed (readYourWrites: ${level}, binds the writing client only): ${p.message}`);
    if (!caps.reopen) notes.push('only the writing client read: the target cannot open a collection from a second client (capability: reopen)');
    if (!caps.embeddingReadBack) notes.push("get's records compared on everything but the vector: the target returns no stored vector (capability: embeddingReadBack false)");
    const figures: Record<string, Figure> = {
      readYourWrites: level,
      embeddings: caps.embeddingReadBack ? 'compared' : 'skipped (capability: embeddingReadBack)',
      rounds: rounds.length,
      writes: rounds.filter((r) => r.op === 'upsert').reduce((s, r) => s + r.records.length, 0),
      deletes: rounds.filter((r) => r.op === 'delete').reduce((s, r) => s + r.records.length, 0),
      reads,
      scanPaths: scans.join(', '),
      clients: clients.join(', '),
    };
    for (const c of clients) figures[`problems.${c}`] = problems.filter((p) => p.client === c).length;
    return {
      figures,
      failures,
      notes,
      tables: [{ title: 'C27 problems per round and client (0 = every read reflected the write)', columns: ['round', 'write', 'clients in order', 'reads in order', ...clients], rows }],
    };
  },
};

/** `items` rotated left by `n` (a new array). */
function rotate<T>(items: readonly T[], n: number): T[] {
  const k = ((n % items.length) + items.length) % items.length;
  return [...items.slice(k), ...items.slice(0, k)];
}

/** One client's reads after `round`: get of the round's ids, count(), and the recalls with each affected embedding on every scan path, in `order`. */
async function readAll(collection: MemoryCollection, client: C27Client, round: C27Round, scans: ReadonlyArray<'exact' | 'index'>, order: ReadonlyArray<(typeof READS)[number]>): Promise<C27Read> {
  const read: C27Read = { client, got: [], count: -1, recalls: [] };
  const asks: Array<{ id: string; vector: C27Recall['vector']; embedding: Float32Array }> = round.records.map((r) => ({
    id: r.id,
    vector: round.op === 'delete' ? 'deleted' : 'written',
    embedding: r.embedding,
  }));
  for (const [id, old] of round.replaced ?? []) asks.push({ id, vector: 'old', embedding: old.embedding });
  for (const step of order) {
    if (step === 'get') read.got = await collection.get(round.records.map((r) => r.id));
    else if (step === 'count') read.count = await collection.count();
    else {
      for (const a of asks) {
        for (const scan of scans) read.recalls.push({ id: a.id, vector: a.vector, scan, hits: await collection.recall({ vector: a.embedding, k: C27_RECALL_K, scan }) });
      }
    }
  }
  return read;
}

/** The reads of a client connected after the acknowledgement; it is closed afterwards (and again, idempotently, at the cell's dispose). */
async function readNew(cell: LiveCell, name: string, round: C27Round, scans: ReadonlyArray<'exact' | 'index'>, order: ReadonlyArray<(typeof READS)[number]>): Promise<C27Read> {
  const store = await cell.connect();
  try {
    return await readAll(await store.openCollection(name), 'new', round, scans, order);
  } finally {
    await store.close();
  }
}
