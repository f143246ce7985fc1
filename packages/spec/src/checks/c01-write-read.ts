import type { MemoryRecord } from '../types';
import { type CheckDefinition, failure, needs } from './check';
import { sampleRecords, describeDifference } from './helpers/sampling';

/**
 * C01 write-read: every written memory reads back byte-identical (text incl. CJK and emoji,
 * metadata incl. falsy values, timestamp, embedding bit for bit) from a NEW client.
 * Uses a deterministic sample of the golden set that always includes every memory with
 * non-ASCII text or metadata and every falsy metadata value.
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
    const failures = [];
    for (const r of records) {
      const b = got.get(r.id);
      const diff = b ? describeDifference(r, b) : 'missing on read';
      if (diff) failures.push(failure(cell, 'roundtrip', `memory ${r.id}: ${diff}`, { id: r.id }));
    }
    return {
      figures: {
        written: records.length,
        readBack: back.length,
        nonAscii: records.filter((r) => /[\x80-\uffff]/.test(r.text + JSON.stringify(r.metadata))).length,
        falsyMetadata: records.filter((r) => Object.values(r.metadata).some((v) => v === 0 || v === '' || v === false)).length,
        mismatched: failures.length,
      },
      failures,
    };
  },
};

function hasEdgeContent(r: MemoryRecord): boolean {
  return /[\x80-\uffff]/.test(r.text) || Object.values(r.metadata).some((v) => v === 0 || v === '' || v === false || v === null || (typeof v === 'string' && /[\x80-\uffff]/.test(v)));
}
