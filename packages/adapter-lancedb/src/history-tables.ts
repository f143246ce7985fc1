// The two LanceDB tables of the chat history (history.ts): names, Arrow schemas, the turn stamp,
// and creating them on first use.
import type { Table } from '@lancedb/lancedb';
import { Field, Int32, makeData, RecordBatch, Schema, Struct, Table as ArrowTable, Utf8, vectorFromArray } from 'apache-arrow';
import type { StoreContext } from './context';

/** The table of the history's messages, one row per turn. */
export const HISTORY_TABLE = 'mm_history';
/** The table of the sessions' snapshots, one row per snapshot. */
export const SNAPSHOT_TABLE = 'mm_history_snapshots';

const PK = new Map([['lance-schema:unenforced-primary-key:position', '1']]);
const str = (name: string, pk = false) => new Field(name, new Utf8(), false, pk ? PK : undefined);
/** Arrow schemas of the two tables (`key` is the unenforced primary key, every column non-null). */
export const TURN_SCHEMA = new Schema([str('key', true), str('prefix'), str('session'), str('turn'), str('payload'), new Field('chars', new Int32(), false)]);
export const SNAPSHOT_SCHEMA = new Schema([str('key', true), str('prefix'), str('session'), str('snapshot'), str('state')]);

/** One stored turn of a session: its stamp, its payload (versioned JSON) and its length in code points. */
export interface TurnRow {
  turn: string;
  payload: string;
  chars: number;
}

/** This process's writer id and the last stamp it gave (stamps never go back, also when the clock does). */
const WRITER = Math.floor(Math.random() * 0xffffffff)
  .toString(16)
  .padStart(8, '0');
let lastMs = 0;
let counter = 0;

/** A new stamp `<ms, 15>.<counter, 6>.<writer>`, strictly greater than every earlier one of this process. */
export function nextStamp(): string {
  const now = Date.now();
  if (now > lastMs) {
    lastMs = now;
    counter = 0;
  } else counter++;
  return `${String(lastMs).padStart(15, '0')}.${String(counter).padStart(6, '0')}.${WRITER}`;
}

/** An Arrow table of `schema` from string/int columns (every column non-null). */
export function arrowOf(schema: Schema, columns: Record<string, Array<string | number>>, n: number): ArrowTable {
  const children = schema.fields.map((f) =>
    f.type instanceof Int32
      ? makeData({ type: new Int32(), length: n, nullCount: 0, data: Int32Array.from(columns[f.name] as number[]) })
      : vectorFromArray(columns[f.name] as string[], new Utf8()).data[0]!,
  );
  return new ArrowTable(schema, new RecordBatch(schema, makeData({ type: new Struct(schema.fields), length: n, nullCount: 0, children })));
}

/**
 * Open table `name`, creating it (empty, `schema`) when missing: `createEmptyTable` with `existOk`,
 * never a `tableNames()` check first — another process's creation in progress shows its directory
 * before its first version exists, and opening it then fails ("exists but could not be loaded",
 * measured with C22 across processes); two creations race on the commit of version 1 instead, and
 * the loser opens the winner's table.
 */
export async function ensureTable(ctx: StoreContext, name: string, schema: Schema): Promise<Table> {
  try {
    return await ctx.db.createEmptyTable(name, schema, { mode: 'create', existOk: true });
  } catch (err) {
    if (/already exists/i.test((err as Error)?.message ?? '')) return ctx.db.openTable(name);
    throw err;
  }
}
