import type { MemoryCollection } from '../adapter';
import type { Failure } from '../comparator';
import type { LiveCell } from '../conformance/cell';
import type { Figure } from '../conformance/result';
import { MemoryMatrixError } from '../errors';
import type { MemoryRecord } from '../types';
import { failure } from './check';
import type { C22Clients } from './c22-clients';
import { describeDifference, sampleRecords } from './helpers/sampling';

/** Writers, batches per writer and memories per batch of the mixed step. */
const WRITERS = 4;
const BATCHES = 8;
const BATCH = 4;

/** Why a batch of the mixed step must fail: the record at position 2 carries it (`badRecord`). */
type BadKind = 'dimension' | 'nan';

/**
 * The batch plan: writers 1 and 3 send a bad batch every third call (calls 1, 4, 7), alternating
 * a record one dimension too long and a record with a NaN component; writers 0 and 2 send only
 * good ones. So good and failing batches from different clients are in flight at once.
 */
function badKindOf(w: number, b: number): BadKind | null {
  if (w % 2 === 0 || b % 3 !== 1) return null;
  return (w + b) % 2 ? 'dimension' : 'nan';
}

/** `r` made invalid by `kind`: its embedding one component longer, or with NaN in the middle. */
function badRecord(r: MemoryRecord, kind: BadKind): MemoryRecord {
  const e = kind === 'dimension' ? new Float32Array(r.embedding.length + 1) : Float32Array.from(r.embedding);
  if (kind === 'dimension') e.set(r.embedding);
  else e[e.length >> 1] = Number.NaN;
  return { ...r, embedding: e };
}

/**
 * Who acknowledged last, for the mixed step's writers (0-based, `writers` of them): `otherAcked(w)`
 * resolves once the newest acknowledged batch is another writer's (or every other writer is done),
 * so a bad batch always fails right after another client's write was acknowledged, never right
 * after its own: a failure that takes the newest acknowledged batch with it then always takes
 * another client's (without the wait, a writer's bad batch, refused at once by validation, mostly
 * followed its own acknowledgement and such a layer passed by chance). Never rejects.
 */
export function ackTurns(writers: number): { acked(w: number): void; done(w: number): void; otherAcked(w: number): Promise<void> } {
  let last = -1;
  const finished = new Set<number>();
  let waiting: Array<() => void> = [];
  const wake = (): void => {
    const ws = waiting;
    waiting = [];
    for (const f of ws) f();
  };
  const othersDone = (w: number): boolean => Array.from({ length: writers }, (_, x) => x).every((x) => x === w || finished.has(x));
  return {
    acked: (w) => {
      last = w;
      wake();
    },
    done: (w) => {
      finished.add(w);
      wake();
    },
    otherAcked: async (w) => {
      while ((last === -1 || last === w) && !othersDone(w)) await new Promise<void>((resolve) => waiting.push(resolve));
    },
  };
}

/**
 * C22, mixed step (issue 36, kind 6): `WRITERS` clients upsert `BATCHES` batches of `BATCH` new
 * memories each into one new collection at once, and some batches fail: writers 1 and 3 send, on
 * every third call, a batch whose third record is invalid (one dimension too many, or a NaN
 * component) — a batch the store must refuse as a whole, sent only once another writer's batch is
 * the newest acknowledged one (`ackTurns`). Unlike the other C22 writers, a writer
 * goes on after a refused batch, as an application that logs and continues would. Afterwards,
 * read through a new client: every memory of an acknowledged batch is present exactly as written
 * (a layer whose failing batch rolls back others' writes — BEGIN / ROLLBACK on a pooled
 * connection another writer's transaction is on — loses them), and every memory of a refused
 * batch is absent (a partly written batch); the count is the acknowledged memories (kind
 * `mixed-batch`). A good batch refused is a `write-refused` failure, a refusal without a code a
 * `mixed-batch` one. Where the adapter refuses both bad kinds in its own input validation, before
 * the backend sees the batch (every built-in adapter), no transaction is ever rolled back, so a
 * layer's ROLLBACK on the wrong pooled connection shows only in a layer that validates later. A bad batch the store
 * ACKNOWLEDGES is named in a note and its valid records judged like a good batch's; the invalid
 * record itself (stored or not, and as what) is C11's and C12's finding, not reported twice, and
 * the count may include it.
 * Memories are the dataset's, sampled, under ids of the step's own (`c22m-<w>-<b>-<j>`: a
 * dataset's ids may be as long as the format allows), so any dataset size serves. Figures (prefix `mixed/`): writers, batches, refused, acknowledged, lost, partial, count, writeMs.
 */
export async function mixedWriters(cell: LiveCell, clients: C22Clients): Promise<{ figures: Record<string, Figure>; failures: Failure[]; notes: string[] }> {
  const failures: Failure[] = [];
  const notes: string[] = [];
  const fail = (message: string, extra: Partial<Failure> = {}, kind = 'mixed-batch') => failures.push(failure(cell, kind, `mixed writers: ${message}`, extra));
  const pool = sampleRecords(cell.dataset.memories, Math.min(cell.dataset.memories.length, WRITERS * BATCHES * BATCH));
  const batches = Array.from({ length: WRITERS }, (_, w) =>
    Array.from({ length: BATCHES }, (_, b) =>
      Array.from({ length: BATCH }, (_, j): MemoryRecord => {
        const src = pool[(((w * BATCHES + b) * BATCH + j) * 7) % pool.length]!;
        return { ...src, id: `c22m-${w}-${b}-${j}`, metadata: { ...src.metadata, c22mixed: `${w}.${b}` } };
      }),
    ),
  );
  const spec = cell.collectionSpec('c22m', cell.config.index);
  await clients.create(spec);
  const writers: MemoryCollection[] = [];
  for (let w = 0; w < WRITERS; w++) writers.push(await (await clients.writer(w)).openCollection(spec.name));

  const acked: MemoryRecord[] = [];
  let acceptedBad = 0; // invalid records in batches the store acknowledged: stored or not, not judged
  const refused: MemoryRecord[] = [];
  let refusedBatches = 0;
  const turn = ackTurns(WRITERS);
  const t0 = performance.now();
  await Promise.all(
    writers.map(async (col, w) => {
      for (let b = 0; b < BATCHES; b++) {
        const kind = badKindOf(w, b);
        const batch = batches[w]![b]!;
        if (kind) await turn.otherAcked(w);
        const sent = kind ? batch.map((r, j) => (j === 2 ? badRecord(r, kind) : r)) : batch;
        const what = `writer ${w} batch ${b + 1} (${kind ? `record 3 ${kind === 'dimension' ? `of dimension ${cell.dataset.manifest.dim + 1}` : 'with a NaN component'}` : 'valid'})`;
        try {
          await col.upsert(sent);
        } catch (err) {
          if (!(err instanceof MemoryMatrixError)) {
            fail(`${what} failed without a code: ${(err as Error)?.message ?? String(err)}`, { expected: 'a coded error', actual: 'uncoded' });
          } else if (!kind) {
            fail(`${what} was refused while other writers' batches failed: ${err.code}: ${err.message}`, { expected: 'acknowledged', actual: err.code }, 'write-refused');
          }
          refusedBatches++;
          refused.push(...batch);
          continue;
        }
        // An accepted bad batch: its valid records are judged as acknowledged; what the store made of the
        // invalid one (a NaN stored as 0, a vector cut to the dimension) is C11's and C12's to judge.
        if (kind) notes.push(`mixed writers: ${what} was acknowledged (an invalid record accepted: C11 / C12 judge that); its valid records judged as written`);
        acked.push(...(kind ? batch.filter((_, j) => j !== 2) : batch));
        if (kind) acceptedBad++;
        turn.acked(w);
      }
      turn.done(w);
    }),
  );
  const writeMs = performance.now() - t0;

  const reader = await (await clients.reader()).openCollection(spec.name);
  const got = new Map((await reader.get([...acked, ...refused].map((r) => r.id))).map((r) => [r.id, r]));
  let lost = 0;
  for (const r of acked) {
    const b = got.get(r.id);
    if (!b) {
      lost++;
      if (lost <= 10) fail(`memory ${r.id} of an acknowledged batch is missing after other writers' batches failed`, { id: r.id, expected: 'present', actual: 'missing' });
      continue;
    }
    const diff = describeDifference(r, b, cell.config.tolerances.embeddingReadback, cell.config.capabilities.embeddingReadBack);
    if (diff) fail(`memory ${r.id} of an acknowledged batch: ${diff}`, { id: r.id });
  }
  if (lost > 10) fail(`${lost} memories of acknowledged batches are missing in all (10 named above)`, { expected: 0, actual: lost });
  const partial = new Set(refused.filter((r) => got.has(r.id)).map((r) => String(r.metadata.c22mixed)));
  for (const p of partial) fail(`refused batch ${p} (writer.batch) is partly or wholly stored`, { expected: 'absent', actual: 'stored' });
  const count = await reader.count();
  if (count < acked.length || count > acked.length + acceptedBad) {
    const expected = acceptedBad ? `${acked.length}..${acked.length + acceptedBad}` : acked.length;
    fail(`count ${count} after ${acked.length} valid memories were acknowledged in ${WRITERS * BATCHES - refusedBatches} batches${acceptedBad ? ` (and ${acceptedBad} invalid ones accepted)` : ''}`, {
      expected,
      actual: count,
    });
  }
  return {
    figures: {
      'mixed/writers': WRITERS,
      'mixed/batches': WRITERS * BATCHES,
      'mixed/refused': refusedBatches,
      'mixed/acknowledged': acked.length,
      'mixed/lost': lost,
      'mixed/partial': partial.size,
      'mixed/count': count,
      'mixed/writeMs': Math.round(writeMs),
    },
    failures,
    notes,
  };
}
