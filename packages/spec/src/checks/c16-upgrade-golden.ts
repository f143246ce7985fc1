import type { Failure } from '../comparator';
import type { LiveCell } from '../conformance/cell';
import type { Figure } from '../conformance/result';
import { requireFaults, type FaultControl, type FaultTarget } from '../durability';
import { MemoryMatrixError } from '../errors';
import type { MemoryStore } from '../adapter';
import type { RecallHit } from '../types';
import { type BaselineAnswers, compareUpgraded, upgradeRecall } from './c16-compare';
import { compareHistorySessions, writeHistorySessions, type HistoryBaseline } from './c16-history';
import { checkMessages, checkPrefix } from './helpers/history';
import { type CheckDefinition, failure, needs } from './check';
import { mapBounded, RECALLS_IN_FLIGHT } from './helpers/bounded';

/** Records per upsert while the older version is loaded. */
const LOAD_CHUNK = 500;

/**
 * C16 upgrade-golden. Registered in the NEWER target's cell: the catalog names the older target
 * in `upgradeFrom` (e.g. `backend@v2` ← `backend@v1`), which gives the cell the `upgrade`
 * capability; every other cell skips it. One cell owns the check, so the report shows it once,
 * under the version that must read the old data.
 *
 * 1. A fresh instance of the older target stores every golden memory through the adapter (the
 *    cell's ANN index), and its exact top-k of every golden query is recorded.
 * 2. Dump/restore (where the target has `exportCollection`): the older instance's dump is
 *    restored into a fresh instance of this target; it must answer the same — count, ids, text,
 *    metadata, embedding bit for bit, top-k ids tie group by tie group and scores within
 *    `scoreTolerance` of the older version's and of the oracle. A restore that fails is a failure.
 * 3. In place: the older instance is shut down cleanly and this target started on its storage,
 *    in its first durability configuration. Refusing to start (pg: "database files are
 *    incompatible with server") is a LOUD failure of that path and passes; starting must then
 *    answer the same, never as an empty store. When it opened the storage, it is killed (kill -9:
 *    nothing rewritten) and started again in each further configuration, since configurations
 *    may read other files (Redis: `appendonly yes` replays the AOF, `no` loads the RDB snapshot);
 *    figure keys `direct/…` for the first, `direct@<configuration>/…` for the others.
 * At least one path must answer the same (else "no upgrade path").
 *
 * When the older target stores no vectors (its store's capabilities: Redis 7.0 has no Vector
 * Sets), chat history is what it wrote: `SESSIONS` sessions (c16-history.ts), compared in place
 * message by message and payload by payload; an empty result is a failure (`upgrade-empty`).
 */
export const c16UpgradeGolden: CheckDefinition = {
  id: 'C16',
  name: 'upgrade-golden',
  // Vectors, or chat history (the branch taken when the older version stores no vectors), then faults and upgrade.
  requires: (caps) => (caps.vectors || caps.history ? needs('faults', 'upgrade')(caps) : 'capability: vectors'),
  timeoutMs: 6 * 60_000,
  async run(cell) {
    const faults = requireFaults(cell.config.faults, cell.target);
    const up = faults.upgradeFrom;
    if (!up) throw new MemoryMatrixError('CAPABILITY_MISSING', `${cell.target}: capability upgrade is declared but the fault control names no upgradeFrom target`);
    const started: FaultTarget[] = [];
    const figures: Record<string, Figure> = { from: up.target, to: cell.target };
    const failures: Failure[] = [];
    const notes: string[] = [];
    try {
      const old = await up.start();
      started.push(old);
      if (!(await storesVectors(old))) {
        const h = await historyUpgrade(cell, faults, old, started, figures);
        return { figures, failures: h.failures, notes: h.notes };
      }
      const { name, baseline, dump } = await writeOnOlder(cell, old, figures);
      let paths = 0;
      if (dump) {
        const r = await restorePath(cell, faults, started, name, dump, baseline, figures);
        failures.push(...r.failures);
        if (r.ok) paths++;
      } else notes.push(`${up.target} has no dump format here (no exportCollection); only the in-place path was tried`);
      await old.shutdown();
      const d = await directPaths(cell, faults, old, started, figures, (store, path) => compareUpgraded(cell, store, name, baseline, cell.dataset.queries, path));
      failures.push(...d.failures);
      notes.push(...d.notes);
      if (d.ok) paths++;
      if (paths === 0 && failures.length === 0)
        failures.push(failure(cell, 'upgrade-path', `no upgrade path from ${up.target} to ${cell.target} answered: dump/restore unavailable and the in-place start was refused`));
    } finally {
      await Promise.allSettled(started.map((t) => t.stop()));
    }
    return { figures, failures, notes };
  },
};

async function writeOnOlder(cell: LiveCell, old: FaultTarget, figures: Record<string, Figure>): Promise<{ name: string; baseline: BaselineAnswers; dump?: Uint8Array }> {
  const store = await old.connect();
  try {
    const spec = cell.collectionSpec('c16', cell.config.index);
    const col = await store.createCollection(spec);
    const all = cell.dataset.memories;
    for (let i = 0; i < all.length; i += LOAD_CHUNK) await col.upsert(all.slice(i, i + LOAD_CHUNK));
    await col.buildIndex();
    const qs = cell.dataset.queries;
    const answers = await mapBounded(qs, RECALLS_IN_FLIGHT, (q) => upgradeRecall(col, q)); // read-only, the load is done
    const hits = new Map<string, RecallHit[]>(qs.map((q, i) => [q.id, answers[i]!.hits]));
    const baseline = { count: await col.count(), hits };
    figures.olderServer = (await store.serverInfo()).server.split(' on ')[0] ?? null;
    figures.written = all.length;
    if (!old.exportCollection) return { name: spec.name, baseline };
    const t0 = performance.now();
    const dump = await old.exportCollection(spec.name);
    Object.assign(figures, { dumpBytes: dump.byteLength, dumpMs: Math.round(performance.now() - t0) });
    return { name: spec.name, baseline, dump };
  } finally {
    await store.close();
  }
}

async function restorePath(cell: LiveCell, faults: FaultControl, started: FaultTarget[], name: string, dump: Uint8Array, baseline: BaselineAnswers, figures: Record<string, Figure>) {
  const fresh = await faults.start(faults.configurations[0]!.name);
  started.push(fresh);
  const store = await fresh.connect();
  try {
    if (!fresh.importCollection) return { ok: false, failures: [failure(cell, 'upgrade-restore', `${cell.target} cannot import the dump of ${faults.upgradeFrom!.target} (no importCollection)`)] };
    const t0 = performance.now();
    try {
      await fresh.importCollection(name, dump);
    } catch (e) {
      const err = e as { code?: string; message?: string };
      figures['restore/error'] = `${err.code ?? 'no code'}: ${err.message ?? String(e)}`.slice(0, 300);
      return {
        ok: false,
        failures: [failure(cell, 'upgrade-restore', `restore of the ${faults.upgradeFrom!.target} dump (${dump.byteLength} bytes) into ${cell.target} failed: ${err.message ?? String(e)}`)],
      };
    }
    figures.restoreMs = Math.round(performance.now() - t0);
    figures.newerServer = (await store.serverInfo()).server.split(' on ')[0] ?? null;
    const r = await compareUpgraded(cell, store, name, baseline, cell.dataset.queries, 'restore');
    Object.assign(figures, r.figures);
    return { ok: r.failures.length === 0, failures: r.failures };
  } finally {
    await store.close();
  }
}

type Compare = (store: MemoryStore, path: string) => Promise<{ figures: Record<string, Figure>; failures: Failure[] }>;

/**
 * The in-place path (see the check's comment): this target on the older instance's storage in its
 * first configuration, then — when that opened it — in each further one, each started on the
 * storage of the previous (killed) instance. `compare` judges what a started instance answers.
 */
async function directPaths(cell: LiveCell, faults: FaultControl, old: FaultTarget, started: FaultTarget[], figures: Record<string, Figure>, compare: Compare) {
  const failures: Failure[] = [];
  const notes: string[] = [];
  let ok = false;
  let prev = old;
  for (const [i, config] of faults.configurations.entries()) {
    const path = i === 0 ? 'direct' : `direct@${config.name}`;
    const how = i === 0 ? '' : ` in configuration ${config.name}`;
    let inPlace: FaultTarget;
    try {
      inPlace = await faults.start(config.name, { storageOf: prev });
    } catch (e) {
      const err = e as { code?: string; message?: string };
      const loud = typeof err.code === 'string' && err.code !== '';
      const why = firstReason(err.message ?? String(e));
      figures[`${path}/opened`] = false;
      figures[`${path}/refused`] = `${err.code ?? 'no code'}: ${why}`;
      if (!loud) failures.push(failure(cell, 'upgrade-direct', `starting ${cell.target}${how} on the storage of ${old.target} failed without an error code: ${why}`));
      notes.push(`in place: ${cell.target}${how} refused the storage written by ${old.target}, loudly (${err.code}): ${why}`);
      if (i === 0) break;
      continue;
    }
    started.push(inPlace);
    const store = await inPlace.connect();
    let r;
    try {
      if (i === 0) figures.newerServer ??= (await store.serverInfo()).server.split(' on ')[0] ?? null;
      r = await compare(store, path);
    } finally {
      await store.close();
    }
    Object.assign(figures, r.figures);
    failures.push(...r.failures);
    if (r.failures.length === 0) ok = true;
    notes.push(`in place: ${cell.target}${how} opened the storage written by ${old.target}${r.failures.length ? ' and answered differently' : ' and answered the same'}`);
    if (i + 1 < faults.configurations.length) await inPlace.kill();
    prev = inPlace;
  }
  return { ok, failures, notes };
}

/** Whether the older target's store keeps vectors (its adapter's capabilities as connected). */
async function storesVectors(old: FaultTarget): Promise<boolean> {
  const store = await old.connect();
  try {
    return store.capabilities.vectors;
  } finally {
    await store.close();
  }
}

/** The chat-history branch (older version without vectors): write on the older, clean shutdown, read in place. */
async function historyUpgrade(cell: LiveCell, faults: FaultControl, old: FaultTarget, started: FaultTarget[], figures: Record<string, Figure>) {
  if (!cell.config.capabilities.history) {
    return { failures: [failure(cell, 'upgrade-path', `${old.target} stores no vectors and ${cell.target} has no chat history: nothing to carry over`)], notes: [] };
  }
  const store = await old.connect();
  let baseline: HistoryBaseline;
  try {
    baseline = await writeHistorySessions(store, checkMessages(cell, 40), checkPrefix(cell, 'c16'));
    figures.olderServer = (await store.serverInfo()).server.split(' on ')[0] ?? null;
    figures.written = 'chat history';
    figures.writtenSessions = baseline.sessions.length;
    figures.writtenMessages = baseline.sessions.reduce((n, s) => n + s.messages.length, 0);
  } finally {
    await store.close();
  }
  await old.shutdown();
  const d = await directPaths(cell, faults, old, started, figures, async (s, path) => {
    const r = await compareHistorySessions(s, baseline, path);
    return { figures: r.figures, failures: r.problems.map((p) => failure(cell, p.kind, p.message, { expected: p.expected, actual: p.actual })) };
  });
  const notes = [`${old.target} stores no vectors: chat history (${figures.writtenSessions} sessions, ${figures.writtenMessages} messages) was written and read in place`, ...d.notes];
  if (!d.ok && d.failures.length === 0) d.failures.push(failure(cell, 'upgrade-path', `no upgrade path from ${old.target} to ${cell.target} answered: the in-place start was refused`));
  return { failures: d.failures, notes };
}

/** The telling part of a start failure: the server's FATAL/ERROR/PANIC log line and its DETAIL, else the first line. */
function firstReason(message: string): string {
  const lines = [/(FATAL|ERROR|PANIC):[^|;]*/.exec(message)?.[0], /DETAIL:[^|;]*/.exec(message)?.[0]].filter((l): l is string => l !== undefined);
  return (lines.length ? lines.map((l) => l.replace(/\s+/g, ' ').trim()).join(' ') : (message.split('\n')[0] ?? message)).slice(0, 400);
}
