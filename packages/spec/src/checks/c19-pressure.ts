import type { MemoryCollection, MemoryStore } from '../adapter';
import type { LiveCell } from '../conformance/cell';
import type { ChatHistory, ChatMessage } from '../history';
import type { MemoryRecord } from '../types';
import { checkMessages } from './helpers/history';

/** Headroom above the instance's used memory that each phase allows, bytes. */
export const BUDGET_BYTES = 4 * 1024 * 1024;
/** Each phase writes about this many times the budget (measured from its first unit). */
const OVERSHOOT = 2.5;
const MAX_UNITS = 4000;
/** Units written before the size of one is measured. */
const SIZING_UNITS = 8;
/** Memories per collection unit and messages per history unit. */
const MEMORIES_PER_UNIT = 40;
const MESSAGES_PER_UNIT = 20;

/** One "user" of the pressure phase: a collection of memories and/or a history session. */
interface Unit {
  collection?: string;
  ids: string[];
  memoriesAcked: number;
  session?: ChatHistory;
  messagesAcked: number;
  failedIds: string[];
}

/** What one phase measured (all counts of THIS phase; the instance holds nothing else). */
export interface PhaseResult {
  policy: string;
  limitBytes: number;
  units: number;
  /** Acknowledged memories + messages, and how many of them no longer read back (or recall). */
  acknowledged: number;
  lost: number;
  /** Units whose collection or session is gone entirely. */
  unitsGone: number;
  /** Keys the server evicted during the phase (INFO evicted_keys delta) and keys it held in all. */
  keysEvicted: number;
  keysTotal: number;
  /** The first write error (code and message) and how many writes failed. */
  error: { code: string; message: string } | null;
  failedWrites: number;
  /** Records of a failed upsert that landed anyway (must be 0: a batch is atomic). */
  partial: number;
  peakUsedBytes: number;
}

/**
 * One pressure phase on `store` (an instance the check owns): limit = used memory + BUDGET_BYTES
 * under `policy`, then units of 40 golden memories (a new collection each, when the target has
 * vectors) and 20 messages (a history session each, when it has history) until about 2.5 × the
 * budget is written (sized from the first 8 units, and extended while no write has failed and
 * fewer than a tenth of the keys written have been evicted, up to 4000 units). `stopOnError`
 * ends the phase at the first failed write (noeviction); else failures are counted and writing
 * goes on. The limit is lifted (maxmemory 0) before the audit, which reads every unit back
 * through the contract. Units are dropped at the end.
 */
export async function pressurePhase(cell: LiveCell, store: MemoryStore, policy: string, tag: string, stopOnError: boolean): Promise<PhaseResult> {
  const caps = cell.config.capabilities;
  const before = await store.memoryPolicy!();
  const limitBytes = before.usedBytes + BUDGET_BYTES;
  await store.setMemoryPolicy!({ maxmemoryBytes: limitBytes, policy });
  const units: Unit[] = [];
  const r: PhaseResult = {
    policy,
    limitBytes,
    units: 0,
    acknowledged: 0,
    lost: 0,
    unitsGone: 0,
    keysEvicted: 0,
    keysTotal: 0,
    error: null,
    failedWrites: 0,
    partial: 0,
    peakUsedBytes: before.usedBytes,
  };
  const mem = cell.dataset.memories;
  const msgs = caps.history ? checkMessages(cell, MESSAGES_PER_UNIT) : [];
  let planned = MAX_UNITS;
  try {
    for (let i = 0; i < planned; i++) {
      const u: Unit = { ids: [], memoriesAcked: 0, messagesAcked: 0, failedIds: [] };
      units.push(u);
      try {
        if (caps.vectors) await writeCollection(cell, store, u, `c19_${tag}_${i}`, slice(mem, i));
        if (caps.history) await writeSession(store, u, `c19-${tag}-${cell.runId}-${i}`, msgs);
      } catch (e) {
        r.failedWrites++;
        const err = e as { code?: string; message?: string };
        r.error ??= { code: err.code ?? '<no code>', message: String(err.message ?? e) };
        if (stopOnError) break;
      }
      if (i === SIZING_UNITS - 1 || i % 25 === 0 || i === planned - 1) {
        const now = await store.memoryPolicy!();
        r.peakUsedBytes = Math.max(r.peakUsedBytes, now.usedBytes);
        // Size a unit from the first SIZING_UNITS (the first one alone also pays the script cache
        // and client buffers), before any eviction can have happened (they use < 1/4 of the budget).
        const perUnit = (now.usedBytes - before.usedBytes) / SIZING_UNITS;
        if (i === SIZING_UNITS - 1 && now.evictedKeys === before.evictedKeys) planned = Math.min(MAX_UNITS, Math.max(SIZING_UNITS, Math.ceil((OVERSHOOT * BUDGET_BYTES) / Math.max(1, perUnit))));
        // The estimate can be low (encodings grow unevenly): go on until the limit has shown itself
        // — a write failed, or at least a tenth of the keys written were evicted.
        const evicted = now.evictedKeys - before.evictedKeys;
        if (i === planned - 1 && r.error === null && evicted < Math.max(1, 0.1 * (now.keys - before.keys + evicted))) planned = Math.min(MAX_UNITS, planned + 25);
      }
    }
    const after = await store.memoryPolicy!();
    r.peakUsedBytes = Math.max(r.peakUsedBytes, after.usedBytes);
    await store.setMemoryPolicy!({ maxmemoryBytes: 0, policy }); // nothing more may be evicted while we read
    r.units = units.length;
    r.keysEvicted = after.evictedKeys - before.evictedKeys;
    r.keysTotal = after.keys - before.keys + r.keysEvicted;
    await audit(store, units, r);
    return r;
  } finally {
    await store.setMemoryPolicy!({ maxmemoryBytes: 0, policy: before.policy }).catch(() => undefined);
    await cleanup(store, units);
  }
}

function slice(mem: MemoryRecord[], i: number): MemoryRecord[] {
  const start = (i * MEMORIES_PER_UNIT) % Math.max(1, mem.length - MEMORIES_PER_UNIT);
  return mem.slice(start, start + MEMORIES_PER_UNIT);
}

async function writeCollection(cell: LiveCell, store: MemoryStore, u: Unit, label: string, records: MemoryRecord[]): Promise<void> {
  const spec = cell.collectionSpec(label);
  u.failedIds = records.map((r) => r.id);
  const c = await store.createCollection(spec);
  u.collection = spec.name;
  await c.upsert(records);
  u.ids = u.failedIds;
  u.failedIds = [];
  u.memoriesAcked = records.length;
}

async function writeSession(store: MemoryStore, u: Unit, sessionId: string, msgs: ChatMessage[]): Promise<void> {
  const h = await store.openHistory!({ sessionId, keyPrefix: 'mmcheck:c19:' });
  u.session = h;
  await h.append(msgs);
  u.messagesAcked = msgs.length;
}

/** Read every unit back: a collection counts its memories that both `get` and `count` still see. */
async function audit(store: MemoryStore, units: Unit[], r: PhaseResult): Promise<void> {
  for (const u of units) {
    r.acknowledged += u.memoriesAcked + u.messagesAcked;
    let gone = false;
    if (u.collection !== undefined) {
      let c: MemoryCollection | undefined;
      try {
        c = await store.openCollection(u.collection);
      } catch {
        c = undefined;
      }
      const got = c ? (await c.get(u.ids)).length : 0;
      const counted = c ? await c.count() : 0;
      const present = Math.min(got, counted);
      r.lost += u.memoriesAcked - Math.min(present, u.memoriesAcked);
      if (u.memoriesAcked > 0 && present === 0) gone = true;
      if (c && u.failedIds.length) r.partial += (await c.get(u.failedIds)).length;
    }
    if (u.session !== undefined && u.messagesAcked > 0) {
      const n = (await u.session.read()).length;
      r.lost += u.messagesAcked - Math.min(n, u.messagesAcked);
      if (n === 0) gone = true;
    }
    if (gone) r.unitsGone++;
  }
}

async function cleanup(store: MemoryStore, units: Unit[]): Promise<void> {
  for (const u of units) {
    if (u.collection !== undefined) await store.dropCollection(u.collection).catch(() => undefined);
    if (u.session !== undefined) await u.session.clear().catch(() => undefined);
  }
}

/** `PhaseResult` → flat figures under `<prefix>.`. */
export function phaseFigures(prefix: string, r: PhaseResult): Record<string, number | string | null> {
  return {
    [`${prefix}.policy`]: r.policy,
    [`${prefix}.limitBytes`]: r.limitBytes,
    [`${prefix}.peakUsedBytes`]: r.peakUsedBytes,
    [`${prefix}.units`]: r.units,
    [`${prefix}.acknowledged`]: r.acknowledged,
    [`${prefix}.lost`]: r.lost,
    [`${prefix}.unitsGone`]: r.unitsGone,
    [`${prefix}.keysEvicted`]: r.keysEvicted,
    [`${prefix}.keysTotal`]: r.keysTotal,
    [`${prefix}.failedWrites`]: r.failedWrites,
    [`${prefix}.error`]: r.error ? r.error.code : null,
  };
}
