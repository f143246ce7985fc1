/**
 * A writer PROCESS for test/durability.test.ts: opens the store file with the journal
 * configuration it is given, then upserts batches of records into an existing collection without
 * end, printing `{"ack":n}` on stdout after batch n's upsert resolved (acknowledged). The parent
 * SIGKILLs it mid-stream. Input: one JSON argument `{ file, journal, collection, cycle, batch, dim }`.
 */
import { createSqliteStore, type JournalConfig } from '../../src';
import { durabilityRecord } from './durability-records';

interface WriterInput {
  file: string;
  journal: JournalConfig;
  collection: string;
  cycle: number;
  batch: number;
  dim: number;
}

async function main(input: WriterInput): Promise<void> {
  const store = await createSqliteStore({ ...input.journal, file: input.file });
  const c = await store.openCollection(input.collection);
  for (let n = 0; ; n++) {
    await c.upsert(Array.from({ length: input.batch }, (_, i) => durabilityRecord(input.cycle, n, i, input.dim)));
    process.stdout.write(`${JSON.stringify({ ack: n })}\n`);
  }
}

main(JSON.parse(process.argv[2]!) as WriterInput).catch((e: unknown) => {
  process.stderr.write(`${String((e as Error)?.stack ?? e)}\n`);
  process.exit(3);
});
