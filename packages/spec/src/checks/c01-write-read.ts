import type { Failure } from '../comparator';
import { inAskedOrder } from '../get-order';
import type { MemoryRecord } from '../types';
import { type CheckDefinition, failure, needs } from './check';
import { sampleRecords, describeDifference } from './helpers/sampling';

/**
 * C01 write-read: every written memory reads back byte-identical (text incl. CJK and emoji,
 * metadata incl. falsy values, timestamp, embedding bit for bit) from a NEW client.
 * Uses a deterministic sample of the golden set that always includes every memory with
 * non-ASCII text or metadata and every falsy metadata value.
 * Then `get` asked in a shuffled order with repeats and unknown ids (`shuffledAsk`) must answer
 * exactly `inAskedOrder`: the order asked, each id once, unknown ids left out (adapter.ts).
 * A target declaring `embeddingReadBack: false` is held to everything but the vector (it must
 * return an empty one), and the outcome says so (note, figure `embeddings`).
 */
export const c01WriteRead: CheckDefinition = {
  id: 'C01',
  name: 'write-read',
  requires: needs('vectors', 'reopen'),
  async run(cell) {
    const records = sampleRecords(cell.dataset.memories, 300, (r) => hasEdgeContent(r));
    const { collection } = await cell.scratch('c01');
    await collection.upsert(records);
    const reader = await cell.connect();
    const reopened = await reader.openCollection(collection.spec.name);
    const back = await reopened.get(records.map((r) => r.id));
    const got = new Map(back.map((r) => [r.id, r]));
    const failures: Failure[] = [];
    for (const r of records) {
      const b = got.get(r.id);
      const diff = b ? describeDifference(r, b, cell.config.tolerances.embeddingReadback, cell.config.capabilities.embeddingReadBack) : 'missing on read';
      if (diff) failures.push(failure(cell, 'roundtrip', `memory ${r.id}: ${diff}`, { id: r.id }));
    }
    const ask = shuffledAsk(records.map((r) => r.id));
    const want = inAskedOrder(ask, new Map(records.map((r) => [r.id, r.id])));
    const answer = (await reopened.get(ask)).map((r) => r.id);
    const at = answer.findIndex((id, i) => id !== want[i]);
    if (at >= 0 || answer.length !== want.length) {
      const i = at >= 0 ? at : Math.min(answer.length, want.length);
      failures.push(
        failure(
          cell,
          'get-order',
          `get of ${ask.length} ids (shuffled, ${ask.length - new Set(ask).size} repeats, ${GET_UNKNOWN} unknown) returned ${answer.length} records, expected ${want.length} (order asked, each id once, unknown left out); first difference at position ${i + 1}: expected ${want[i] ?? 'the end'} got ${answer[i] ?? 'the end'}`,
          { expected: want.length, actual: answer.length },
        ),
      );
    }
    const vectors = cell.config.capabilities.embeddingReadBack;
    return {
      ...(vectors ? {} : { notes: ['embeddings not compared: the target returns no stored vector (capability: embeddingReadBack false); id, text, namespace, kind, createdAt and metadata were'] }),
      figures: {
        embeddings: vectors ? 'compared' : 'skipped (capability: embeddingReadBack)',
        written: records.length,
        readBack: back.length,
        nonAscii: records.filter((r) => /[\x80-\uffff]/.test(r.text + JSON.stringify(r.metadata))).length,
        falsyMetadata: records.filter((r) => Object.values(r.metadata).some((v) => v === 0 || v === '' || v === false)).length,
        mismatched: failures.filter((f) => f.kind === 'roundtrip').length,
        getAsked: ask.length,
        getAnswered: answer.length,
      },
      failures,
    };
  },
};

function hasEdgeContent(r: MemoryRecord): boolean {
  return /[\x80-\uffff]/.test(r.text) || Object.values(r.metadata).some((v) => v === 0 || v === '' || v === false || v === null || (typeof v === 'string' && /[\x80-\uffff]/.test(v)));
}

/** Unknown ids `shuffledAsk` mixes in. */
const GET_UNKNOWN = 3;

/**
 * The ids C01 asks `get` for after the plain read: `ids` in a fixed shuffled order (reversed, then
 * each adjacent pair swapped: for 3 ids or more neither the given order nor its reverse), the first
 * three of that order repeated at the end and the first once more right after itself, and
 * `GET_UNKNOWN` ids no dataset holds (`c01-unknown-<i>`) at the start, middle and end.
 * Deterministic; `ids` must be distinct.
 */
export function shuffledAsk(ids: readonly string[]): string[] {
  const shuffled = [...ids].reverse();
  if (shuffled.length >= 3) for (let i = 0; i + 1 < shuffled.length; i += 2) [shuffled[i], shuffled[i + 1]] = [shuffled[i + 1]!, shuffled[i]!];
  const unknown = Array.from({ length: GET_UNKNOWN }, (_, i) => `c01-unknown-${i}`);
  const mid = Math.floor(shuffled.length / 2);
  const out = [unknown[0]!, ...shuffled.slice(0, mid), unknown[1]!, ...shuffled.slice(mid), ...shuffled.slice(0, 3), unknown[2]!];
  if (shuffled.length) out.splice(2, 0, shuffled[0]!); // a repeat right after its first occurrence
  return out;
}
