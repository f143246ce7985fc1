import { randomBytes } from 'node:crypto';
import type { Failure } from '../comparator';
import type { ChatHistory, ChatMessage } from '../history';
import type { LiveCell } from '../conformance/cell';
import type { Figure } from '../conformance/result';
import { type CheckDefinition, failure } from './check';
import { checkPrefix } from './helpers/history';
import { upsertConcurrency } from './c22-upsert';
import { runWriters } from './c22-writers';
import { lockedWrites } from './c22-lock';
import { mixedWriters } from './c22-mixed';
import { cellClients, historyOn, processClients, type C22Clients } from './c22-clients';

/** Writers (one client each), single appends per writer, and the size of each writer's one batch. */
const WRITERS = 4;
const SINGLES = 20;
const BATCH = 5;

/**
 * C22 concurrency, on every target that stores vectors or chat history (each part where the
 * capability is present):
 * - vectors + upsert: several clients upsert into one collection at once (`c22-upsert.ts`);
 * - history: several clients append to ONE session at the same time — each writer awaits its own
 *   appends in order (one message per call, plus one call of 5 in the middle), the writers
 *   interleave freely. Read from a new client: nothing lost, nothing duplicated, each writer's
 *   messages in its own order, each batch contiguous (one append call is atomic). An append the
 *   store refuses with a coded error is a `write-refused` failure naming the writer, the call and
 *   the error; that writer stops (as an application surfacing the error would), the others go
 *   on, and the read is judged on the acknowledged appends (the refused call's messages may be
 *   there or not). An uncoded error stops the check. Both parts run their writers through
 *   `runWriters` (c22-writers.ts).
 * Where the target's store lives in files several processes open at once (its fault control says
 * `sharedStorage`: SQLite), both parts run a second time with each writer in its own PROCESS on one
 * storage (c22-clients.ts), so writers contend through file locks and `busy_timeout` as an
 * application's worker processes do; those figures are prefixed `processes/`. That variant also
 * makes two writes while another process holds the storage's write lock past the writers' wait
 * limit (`lockedWrites`, c22-lock.ts: each must land or fail with a coded error).
 * With vectors + upsert, a mixed step follows the upsert part on the same clients (`mixedWriters`,
 * c22-mixed.ts): concurrent batches of which some are invalid and must be refused whole, while
 * every acknowledged one must be stored.
 * History figures are prefixed `history/`, vector figures `upsert/` and `mixed/`.
 * A target that declares `concurrentClients: false` (one client's call at a time) skips it, naming the flag.
 */
export const c22Concurrency: CheckDefinition = {
  id: 'C22',
  name: 'concurrency',
  requires: (caps) => (!(caps.history || (caps.vectors && caps.upsert)) ? 'capability: history or vectors + upsert' : caps.concurrentClients ? null : 'capability: concurrentClients'),
  async run(cell) {
    const figures: Record<string, Figure> = {};
    const failures: Failure[] = [];
    const notes: string[] = [];
    const caps = cell.config.capabilities;
    const rows: Figure[][] = [];
    const variants: Array<() => Promise<C22Clients>> = [async () => cellClients(cell)];
    if (cell.config.faults?.sharedStorage) variants.push(() => processClients(cell, WRITERS));
    for (const open of variants) {
      const clients = await open();
      const p = clients.prefix;
      try {
        if (caps.vectors && caps.upsert) {
          const v = await upsertConcurrency(cell, clients);
          for (const [k, val] of Object.entries(v.figures)) figures[`${p}${k}`] = val;
          failures.push(...v.failures);
          notes.push(...v.notes);
          const m = await mixedWriters(cell, clients);
          for (const [k, val] of Object.entries(m.figures)) figures[`${p}${k}`] = val;
          failures.push(...m.failures);
          notes.push(...m.notes);
        }
        if (caps.history) {
          const h = await historyConcurrency(cell, clients);
          for (const [k, val] of Object.entries(h.figures)) figures[`${p}history/${k}`] = val;
          failures.push(...h.failures);
        }
        if (p) {
          const l = await lockedWrites(cell, clients);
          for (const [k, val] of Object.entries(l.figures)) figures[`${p}${k}`] = val;
          failures.push(...l.failures);
          notes.push(...l.notes);
        }
      } finally {
        await clients.stop();
      }
      const f = (k: string) => figures[`${p}${k}`] ?? '–';
      const across = p ? `, ${clients.label}` : '';
      if (caps.vectors && caps.upsert)
        rows.push([
          `upsert, one collection${across}`,
          f('upsert/writers'),
          f('upsert/calls'),
          f('upsert/distinct'),
          f('upsert/lost'),
          f('upsert/duplicated'),
          `${f('upsert/torn')} torn, ${f('upsert/stale')} stale, ${f('upsert/changed')} changed, ${f('upsert/refused')} refused`,
          f('upsert/writeMs'),
        ]);
      if (caps.vectors && caps.upsert)
        rows.push([
          `upsert, some batches invalid${across}`,
          f('mixed/writers'),
          f('mixed/batches'),
          f('mixed/acknowledged'),
          f('mixed/lost'),
          '–',
          `${f('mixed/refused')} refused, ${f('mixed/partial')} partly stored`,
          f('mixed/writeMs'),
        ]);
      if (caps.history)
        rows.push([
          `append, one session${across}`,
          f('history/writers'),
          WRITERS * (SINGLES + 1),
          WRITERS * (SINGLES + BATCH),
          f('history/lost'),
          f('history/duplicates'),
          `${f('history/orderViolations')} out of order, ${f('history/splitBatches')} split batches`,
          f('history/writeMs'),
        ]);
    }
    const tables = [{ title: 'C22 concurrency', columns: ['writes', 'writers', 'calls', 'distinct items', 'lost', 'duplicated', 'order / consistency', 'ms'], rows }];
    return { figures, failures, notes, tables };
  },
};

/** C22, history part (see `c22Concurrency`), on the clients of `clients`. */
async function historyConcurrency(cell: LiveCell, clients: C22Clients): Promise<{ figures: Record<string, Figure>; failures: Failure[] }> {
  const failures: Failure[] = [];
  const fail = (message: string, extra: Partial<Failure> = {}) => failures.push(failure(cell, 'concurrency', message, extra));
  const prefix = checkPrefix(cell, 'c22');
  const sessionId = `s-${randomBytes(4).toString('hex')}`;
  const writers: ChatHistory[] = [];
  for (let w = 0; w < WRITERS; w++) writers.push(await historyOn(cell, await clients.writer(w), { sessionId, keyPrefix: prefix }));
  const at = new Date(Date.UTC(2024, 4, 1, 9, 30)).getTime();
  const msg = (w: number, seq: number, batch: boolean): ChatMessage => ({
    role: w % 2 ? 'assistant' : 'user',
    content: `writer ${w} message ${seq}${batch ? ' (batch)' : ''} — 並行 ✍️`,
    createdAt: new Date(at + w * 1000 + seq).toISOString(),
    metadata: { writer: w, seq, batch },
  });
  // Per writer: the seqs of its acknowledged appends, and the call the store refused (the writer
  // stops there, as an application that surfaces the error would; its messages may or may not
  // have landed, so they are neither lost nor unexpected).
  const acked: Array<Set<number>> = writers.map(() => new Set<number>());
  const refusedSeqs: Array<Set<number>> = writers.map(() => new Set<number>());
  try {
    const t0 = performance.now();
    const stopped = await runWriters(cell, failures, WRITERS, `${WRITERS} clients appended to one session`, async (w, write) => {
      const h = writers[w]!;
      let seq = 0;
      let call = 0;
      const append = async (n: number, batch: boolean): Promise<void> => {
        const seqs = Array.from({ length: n }, () => seq++);
        await write(
          `append call ${++call} (message${n > 1 ? 's' : ''} ${seqs.join(', ')})`,
          () => h.append(seqs.map((q) => msg(w, q, batch))),
          () => seqs.forEach((q) => refusedSeqs[w]!.add(q)),
        );
        seqs.forEach((q) => acked[w]!.add(q));
      };
      for (let i = 0; i < SINGLES; i++) {
        if (i === SINGLES / 2) await append(BATCH, true);
        await append(1, false);
      }
    });
    const ms = performance.now() - t0;
    const refused = stopped.size;
    const reader = await historyOn(cell, await clients.reader(), { sessionId, keyPrefix: prefix });
    writers.push(reader);
    const got = await reader.read();
    const expected = WRITERS * (SINGLES + BATCH);
    if (refused === 0 && got.length !== expected) fail(`${got.length} messages after ${WRITERS} concurrent writers appended ${expected}`, { expected, actual: got.length });
    const seen = new Set<string>();
    const lastSeq = new Map<number, number>();
    let duplicates = 0;
    let orderViolations = 0;
    let interleaved = 0;
    got.forEach((m, i) => {
      const w = Number(m.metadata.writer);
      const seq = Number(m.metadata.seq);
      const key = `${w}/${seq}`;
      if (seen.has(key)) {
        duplicates++;
        fail(`writer ${w} message ${seq} appears twice (again at position ${i + 1})`, { rank: i + 1 });
      }
      seen.add(key);
      if (!acked[w]?.has(seq) && !refusedSeqs[w]?.has(seq))
        fail(`writer ${w} message ${seq} at position ${i + 1} was never appended`, { rank: i + 1, kind: 'unexpected-id', expected: 'absent', actual: key });
      const prev = lastSeq.get(w) ?? -1;
      if (seq <= prev) {
        orderViolations++;
        fail(`writer ${w}: message ${seq} at position ${i + 1} comes after its message ${prev}`, { rank: i + 1, expected: `> ${prev}`, actual: seq });
      }
      lastSeq.set(w, Math.max(prev, seq));
      if (i > 0 && Number(got[i - 1]!.metadata.writer) !== w) interleaved++;
    });
    let lost = 0;
    let splitBatches = 0;
    for (let w = 0; w < WRITERS; w++) {
      for (const seq of acked[w]!) {
        if (!seen.has(`${w}/${seq}`)) {
          lost++;
          fail(`writer ${w} message ${seq} is lost`, { expected: 'present', actual: 'missing' });
        }
      }
      const positions = got.map((m, i) => (Number(m.metadata.writer) === w && m.metadata.batch === true ? i : -1)).filter((i) => i >= 0);
      if (positions.length === BATCH && positions[BATCH - 1]! - positions[0]! !== BATCH - 1) {
        splitBatches++;
        fail(`writer ${w}'s batch of ${BATCH} (one append call) is split: positions ${positions.map((p) => p + 1).join(', ')}`);
      }
    }
    return { figures: { writers: WRITERS, messages: got.length, refused, lost, duplicates, orderViolations, splitBatches, writerSwitches: interleaved, writeMs: Math.round(ms) }, failures };
  } finally {
    await Promise.allSettled(writers.map((h) => h.clear()));
  }
}
