import type { MemoryCollection, MemoryStore } from '../adapter';
import type { LiveCell } from '../conformance/cell';
import type { FaultTarget, WriteLockHold } from '../durability';
import { MemoryMatrixError } from '../errors';
import type { ChatHistory, HistoryOptions } from '../history';
import type { CollectionSpec } from '../types';

/**
 * Where C22's clients come from. `cell`: new clients of the cell's own store (for an embedded
 * engine: connections inside this process). `processes`: one PROCESS per writer, each its own
 * fault instance on the SAME storage (`FaultControl.sharedStorage`: a store in files that several
 * processes open at once, SQLite), so the writers contend the way an application's worker
 * processes do (file locks, `busy_timeout`) instead of taking turns inside one process.
 */
export interface C22Clients {
  /** `''` for the cell's clients, `processes/` for the process variant (figure prefix). */
  readonly prefix: string;
  /** What the rows of the C22 table say about the writers, e.g. `4 processes`. */
  readonly label: string;
  /** A new, empty collection that the writers then open (dropped or removed with the storage afterwards). */
  create(spec: CollectionSpec): Promise<MemoryCollection>;
  /** A new client for writer `w` (0-based). */
  writer(w: number): Promise<MemoryStore>;
  /** A new client that reads back after the writers. */
  reader(): Promise<MemoryStore>;
  /** Stop what was started for these clients (processes and their storage); idempotent. */
  stop(): Promise<void>;
  /** Take the storage's write lock from a process none of writers 0 and 2 talks to (process 1); absent where the store has none to hold (`FaultTarget.holdWriteLock`). */
  holdWriteLock?(): Promise<WriteLockHold>;
}

/** The cell's own store: every client is `cell.connect()`, the collection a `cell.scratch` (dropped by the cell). */
export function cellClients(cell: LiveCell): C22Clients {
  return {
    prefix: '',
    label: 'one process',
    create: async (spec) => (await cell.scratch('c22v', spec)).collection,
    writer: () => cell.connect(),
    reader: () => cell.connect(),
    stop: async () => undefined,
  };
}

/**
 * `writers` processes on one storage: the first fault instance of the target's default
 * configuration owns it, the others start on it (`storageOf`, while it runs); writer w talks to
 * process w, the reader to the first. Throws CAPABILITY_MISSING when the cell has no fault control
 * with `sharedStorage`, or what `FaultControl.start` throws (the processes started are stopped).
 */
export async function processClients(cell: LiveCell, writers: number): Promise<C22Clients> {
  const faults = cell.config.faults;
  if (!faults?.sharedStorage) throw new MemoryMatrixError('CAPABILITY_MISSING', `${cell.target}: C22 across processes needs a fault control with sharedStorage`);
  const name = faults.configurations[0]!.name;
  const started: FaultTarget[] = [];
  const stop = async () => {
    // The sharing processes first: the owner removes the storage when it stops.
    for (const ft of started.splice(0).reverse()) await ft.stop();
  };
  try {
    const owner = await faults.start(name);
    started.push(owner);
    const others = await Promise.all(Array.from({ length: writers - 1 }, () => faults.start(name, { storageOf: owner })));
    started.push(...others);
  } catch (err) {
    await stop().catch(() => undefined); // the start's error is the one that matters
    throw err;
  }
  const procs = [...started];
  return {
    prefix: 'processes/',
    label: `${writers} processes`,
    create: async (spec) => (await procs[0]!.connect()).createCollection(spec),
    writer: (w) => procs[w % procs.length]!.connect(),
    reader: () => procs[0]!.connect(),
    stop,
    ...(procs[1]?.holdWriteLock ? { holdWriteLock: () => procs[1]!.holdWriteLock!() } : {}),
  };
}

/** A chat history on `store`; CAPABILITY_MISSING when the store has no `openHistory`. */
export async function historyOn(cell: LiveCell, store: MemoryStore, opts: HistoryOptions): Promise<ChatHistory> {
  if (typeof store.openHistory !== 'function') {
    throw new MemoryMatrixError('CAPABILITY_MISSING', `${cell.target}: the catalog declares capability history but adapter ${store.adapter} has no openHistory`);
  }
  return store.openHistory(opts);
}
