import { vectorPairTolerance } from '../tolerance';
import type { MemoryCollection } from '../adapter';
import type { Failure } from '../comparator';
import type { LiveCell } from '../conformance/cell';
import type { Figure } from '../conformance/result';
import { referenceScore } from '../scores';
import type { MemoryRecord } from '../types';
import { MemoryMatrixError } from '../errors';
import { failure } from './check';
import { cellClients, type C22Clients } from './c22-clients';
import { runWriters } from './c22-writers';
import { oracleOver, placementOf, placementProblem, reachK, spanWords } from './helpers/placement';
import { describeDifference, sampleRecords } from './helpers/sampling';

/** Concurrent writers, each on its own client (store). */
export const UPSERT_WRITERS = 4;
/** Memories only one writer writes (per writer), in batches of `DISJOINT_BATCH`. */
const DISJOINT_PER_WRITER = 60;
const DISJOINT_BATCH = 10;
/** Memories every writer writes, `REVISIONS` times each, in batches of `SHARED_BATCH`. */
const SHARED = 24;
const SHARED_BATCH = 8;
const REVISIONS = 3;
/** Memories C22's upsert phase needs: one shared memory with its own donor per writer revision (1 + writers·revisions) within 60 % of the dataset. */
export const C22_MIN_MEMORIES = Math.ceil((1 + UPSERT_WRITERS * REVISIONS) / 0.6);

/** The version of a shared memory written by writer `w` in revision `rev`. */
interface Version {
  writer: number;
  rev: number;
  record: MemoryRecord;
}

/**
 * C22, vector part: `UPSERT_WRITERS` clients upsert into ONE collection (with the cell's ANN index
 * built) at the same time.
 * - Disjoint ids: each writer writes its own memories in batches; afterwards every one is present
 *   exactly as written (nothing lost, nothing changed).
 * - Shared ids: every writer writes the same memories `REVISIONS` times, each version with its own
 *   text, metadata and embedding. Each writer's writes are sequential, so the last committed write of
 *   a memory is some writer's LAST revision: the stored memory must equal one such version in every
 *   field at once (a memory whose text comes from one write and embedding from another is torn; an
 *   earlier revision is a lost update).
 * - Count is disjoint + shared (no duplicate rows); a recall with each shared memory's stored
 *   embedding returns its id exactly once — never assumed its own nearest neighbour: k reaches the
 *   span of its tie group in the exact oracle over the rows get() returned, and on the exact path
 *   it must lie in that span with the ranks before it by the tie-group rule (`placementProblem`).
 * - An upsert the store refuses with a coded error (`MemoryMatrixError`) is a `write-refused`
 *   failure naming the writer, the call and the error; that writer stops (as an application that
 *   surfaces the error would), the others go on, and the read-back is judged on the acknowledged
 *   upserts: their ids must be present and whole, the refused call's ids may be there or not
 *   (when there, whole), ids no call wrote must be absent, and the count must lie between the
 *   acknowledged ids and those plus the refused call's. A stopped writer never writes its last
 *   revision, so the lost-update (stale) judgement needs every writer to have finished and is
 *   skipped (with a note) otherwise. An uncoded error stops the check.
 * `clients` (c22-clients.ts): where the collection and the writers' clients come from (default:
 * the cell's store; or one process per writer on one storage).
 * Figures: writers, acknowledged upserts, count, lost, changed, duplicated, torn, stale, refused
 * (writers stopped by a refused upsert), writeMs.
 */
export async function upsertConcurrency(cell: LiveCell, clients: C22Clients = cellClients(cell)): Promise<{ figures: Record<string, Figure>; failures: Failure[]; notes: string[] }> {
  const failures: Failure[] = [];
  const notes: string[] = [];
  const fail = (message: string, extra: Partial<Failure> = {}) => failures.push(failure(cell, 'concurrency', message, extra));
  // Sizes shrink with small datasets (each version needs its own donor embedding): the full plan
  // needs 552 distinct memories; below that, 40 % go to the disjoint writes and 60 % to the shared ones.
  const n = cell.dataset.memories.length;
  const perWriter = Math.min(DISJOINT_PER_WRITER, Math.floor((0.4 * n) / UPSERT_WRITERS));
  const sharedCount = Math.min(SHARED, Math.floor((0.6 * n) / (1 + UPSERT_WRITERS * REVISIONS)));
  if (perWriter < 1 || sharedCount < 1) throw new MemoryMatrixError('INVALID_INPUT', `C22: dataset ${cell.datasetName} has ${n} memories; concurrent upserts need at least ${C22_MIN_MEMORIES}`);
  const pool = sampleRecords(cell.dataset.memories, UPSERT_WRITERS * perWriter + sharedCount * (1 + UPSERT_WRITERS * REVISIONS));
  const disjoint = Array.from({ length: UPSERT_WRITERS }, (_, w) => pool.slice(w * perWriter, (w + 1) * perWriter));
  let next = UPSERT_WRITERS * perWriter;
  const shared = pool.slice(next, (next += sharedCount));
  const donors = pool.slice(next);
  const version = (w: number, rev: number, i: number): Version => {
    const base = shared[i]!;
    const donor = donors[(w * REVISIONS + rev) * sharedCount + i]!;
    return {
      writer: w,
      rev,
      record: { ...base, text: `${base.text} [writer ${w} rev ${rev}]`, metadata: { ...base.metadata, c22writer: w, c22rev: rev }, embedding: donor.embedding },
    };
  };

  const spec = cell.collectionSpec('c22v', cell.config.index);
  const collection = await clients.create(spec);
  // Seed, then build the index, so the concurrent writes also maintain an existing ANN index.
  await collection.upsert(shared.slice(0, 1));
  await collection.buildIndex();
  const writers: MemoryCollection[] = [];
  for (let w = 0; w < UPSERT_WRITERS; w++) writers.push(await (await clients.writer(w)).openCollection(spec.name));

  let upserts = 0;
  // Ids some acknowledged upsert wrote (the seed included), and ids of a refused call (there or not).
  const acked = new Set<string>([shared[0]!.id]);
  const refusedIds = new Set<string>();
  const t0 = performance.now();
  const stopped = await runWriters(cell, failures, UPSERT_WRITERS, `${UPSERT_WRITERS} clients upserted into one collection`, async (w, write) => {
    const col = writers[w]!;
    let call = 0;
    const upsert = async (records: MemoryRecord[]): Promise<void> => {
      await write(
        `upsert call ${++call} (${records.length} memories)`,
        () => col.upsert(records),
        () => records.forEach((r) => refusedIds.add(r.id)),
      );
      upserts++;
      records.forEach((r) => acked.add(r.id));
    };
    const own = disjoint[w]!;
    let d = 0;
    for (let rev = 0; rev < REVISIONS; rev++) {
      // Interleave: a disjoint batch, then this revision of the shared memories, batch by batch.
      for (let s = 0; s < sharedCount; s += SHARED_BATCH) {
        if (d < own.length) {
          await upsert(own.slice(d, d + DISJOINT_BATCH));
          d += DISJOINT_BATCH;
        }
        // Writers walk the shared ids in different orders so their batches overlap in time.
        const idx = Array.from({ length: Math.min(SHARED_BATCH, sharedCount - s) }, (_, j) => (s + j + w * SHARED_BATCH) % sharedCount);
        await upsert(idx.map((i) => version(w, rev, i).record));
      }
    }
    for (; d < own.length; d += DISJOINT_BATCH) await upsert(own.slice(d, d + DISJOINT_BATCH));
  });
  const refused = stopped.size;
  const writeMs = performance.now() - t0;

  const reader = await (await clients.reader()).openCollection(spec.name);
  const expectedCount = UPSERT_WRITERS * perWriter + sharedCount;
  const count = await reader.count();
  const maybe = [...refusedIds].filter((id) => !acked.has(id)).length;
  if (refused === 0 && count !== expectedCount)
    fail(`count ${count} after ${UPSERT_WRITERS} concurrent writers upserted ${expectedCount} distinct memories`, { expected: expectedCount, actual: count });
  if (refused > 0 && (count < acked.size || count > acked.size + maybe))
    fail(`count ${count} after concurrent upserts acknowledged ${acked.size} distinct memories (and ${maybe} more in refused calls)`, {
      expected: `${acked.size}..${acked.size + maybe}`,
      actual: count,
    });

  let lost = 0;
  let changed = 0;
  const all = disjoint.flat();
  const got = new Map((await reader.get(all.map((r) => r.id))).map((r) => [r.id, r]));
  for (const r of all) {
    const b = got.get(r.id);
    const written = acked.has(r.id) ? 'written once, by one writer' : 'in a refused upsert';
    if (!b) {
      if (!acked.has(r.id)) continue;
      lost++;
      fail(`memory ${r.id} (${written}) is lost`, { id: r.id, expected: 'present', actual: 'missing' });
      continue;
    }
    if (!acked.has(r.id) && !refusedIds.has(r.id)) {
      changed++;
      fail(`memory ${r.id} is present although no upsert wrote it (its writer stopped before)`, { id: r.id, expected: 'missing', actual: 'present' });
      continue;
    }
    const diff = describeDifference(r, b, cell.config.tolerances.embeddingReadback, cell.config.capabilities.embeddingReadBack);
    if (diff) {
      changed++;
      fail(`memory ${r.id} (${written}): ${diff}`, { id: r.id });
    }
  }
  if (refused > 0) notes.push(`C22 upsert: ${refused} writer(s) stopped at a refused upsert, so no shared memory is judged stale (a stopped writer never wrote its last revision)`);

  let torn = 0;
  let stale = 0;
  let duplicated = 0;
  let notRecalled = 0;
  const back = new Map((await reader.get(shared.map((r) => r.id))).map((r) => [r.id, r]));
  // The exact oracle over what the store says it holds (every row get() returned): a shared memory
  // need not be its own nearest neighbour (inner product, duplicates), so its recall asks for k
  // reaching its tie group's span and is judged where this oracle puts it.
  const eps = cell.config.tolerances.tieEpsilon;
  const sub = oracleOver([...got.values(), ...back.values()], cell.dataset.manifest.dim, cell.dataset.manifest.metric);
  let recallMaxK = 0;
  for (let i = 0; i < sharedCount; i++) {
    const id = shared[i]!.id;
    const b = back.get(id);
    if (!b) {
      if (!acked.has(id)) continue;
      lost++;
      fail(`shared memory ${id} (upserted ${UPSERT_WRITERS * REVISIONS} times by ${UPSERT_WRITERS} writers) is lost`, { id, expected: 'present', actual: 'missing' });
      continue;
    }
    const m = /\[writer (\d+) rev (\d+)\]$/.exec(b.text);
    const byText = m ? version(Number(m[1]), Number(m[2]), i) : undefined;
    const diff = byText
      ? describeDifference(byText.record, b, cell.config.tolerances.embeddingReadback, cell.config.capabilities.embeddingReadBack)
      : `text ${JSON.stringify(b.text.slice(-40))} is none of the written versions`;
    if (diff) {
      torn++;
      fail(`shared memory ${id} is torn: its text says writer ${m?.[1] ?? '?'} rev ${m?.[2] ?? '?'}, but ${diff}`, { id });
    } else if (refused === 0 && byText!.rev !== REVISIONS - 1) {
      stale++;
      fail(`shared memory ${id} holds writer ${byText!.writer}'s revision ${byText!.rev}, but every writer's last write was revision ${REVISIONS - 1} (a lost update)`, {
        id,
        expected: `rev ${REVISIONS - 1}`,
        actual: `rev ${byText!.rev}`,
      });
    }
    const p = placementOf(sub, id, b.embedding, eps);
    const k = reachK(p, 10);
    recallMaxK = Math.max(recallMaxK, k);
    const hits = await reader.recall({ vector: b.embedding, k, scan: cell.config.capabilities.exactScan ? 'exact' : undefined });
    const self = hits.filter((h) => h.id === id);
    const n = self.length;
    // The index must hold the same version as the record: its own embedding scores as a vector with
    // itself (referenceScore) within the score tolerance of the tolerance model; another writer's vector in the index scores less.
    const selfScore = referenceScore(cell.dataset.manifest.metric, b.embedding, b.embedding);
    if (n >= 1 && Math.abs(self[0]!.score - selfScore) > vectorPairTolerance(cell.config.tolerances.scoreTolerance, cell.dataset.manifest.metric, b.embedding, b.embedding)) {
      torn++;
      fail(`recall with the stored embedding of ${id} scores it ${self[0]!.score.toFixed(6)}, not ${selfScore.toFixed(6)}: the index holds another version's vector than get() returns`, {
        id,
        expected: selfScore,
        actual: self[0]!.score,
      });
    }
    // Exact path: returned inside its tie group's span, the ranks before it by the tie-group rule; absent only when its group is cut by k (k capped at 1000).
    const problem = cell.config.capabilities.exactScan && n <= 1 ? placementProblem(sub.topK({ vector: b.embedding, k }, eps), p, hits, k) : null;
    if (n === 0 && p.end <= k) notRecalled++;
    if (problem)
      fail(`an exact recall (k ${k}) with the stored embedding of ${id}: ${problem}`, { id, expected: spanWords(p.start, p.end), actual: n ? hits.findIndex((h) => h.id === id) + 1 : 'missing' });
    if (n > 1) {
      duplicated += n - 1;
      fail(`recall with the stored embedding of ${id} returns it ${n} times`, { id, expected: 1, actual: n });
    }
  }
  return {
    figures: {
      'upsert/writers': UPSERT_WRITERS,
      'upsert/calls': upserts,
      'upsert/distinct': expectedCount,
      'upsert/count': count,
      'upsert/lost': lost,
      'upsert/changed': changed,
      'upsert/duplicated': duplicated,
      'upsert/torn': torn,
      'upsert/stale': stale,
      'upsert/notRecalled': notRecalled,
      'upsert/recallMaxK': recallMaxK,
      'upsert/refused': refused,
      'upsert/writeMs': Math.round(writeMs),
    },
    failures,
    notes,
  };
}
