import type { ReadYourWrites } from '../capabilities';
import { referenceScore } from '../scores';
import type { MemoryRecord, Metric, RecallHit } from '../types';
import { C27_RECALL_K, type C27Round } from './c27-rounds';
import { describeDifference } from './helpers/sampling';

/**
 * The clients C27 reads through after each acknowledged write:
 * - `same`: the client (`MemoryStore`) that wrote, through the collection handle it wrote with;
 * - `other`: a second client that opened the collection before the first write and stays open (another process's client);
 * - `new`: a client connected after the write was acknowledged (closed after its round).
 */
export type C27Client = 'same' | 'other' | 'new';

/** How each client is named in a failure. */
export const C27_CLIENT_WORDS: Readonly<Record<C27Client, string>> = {
  same: 'client same (the one that wrote)',
  other: 'client other (a second client, open since before the first write)',
  new: 'client new (connected after the write was acknowledged)',
};

/**
 * One recall C27 made after a round's write: the vector of memory `id` (`vector`: `written` — the
 * embedding just written; `old` — the embedding an overwrite replaced; `deleted` — the embedding of
 * a memory just deleted), on scan path `scan`, k `C27_RECALL_K`, and what it returned.
 */
export interface C27Recall {
  id: string;
  vector: 'written' | 'old' | 'deleted';
  scan: 'exact' | 'index';
  hits: RecallHit[];
}

/** What one client read after one round's acknowledged write: `get` of the round's ids, `count()`, and the recalls. */
export interface C27Read {
  client: C27Client;
  got: MemoryRecord[];
  count: number;
  recalls: C27Recall[];
}

/** One way a read did not reflect an acknowledged write; `message` names the round, operation, client and id. */
export interface C27Problem {
  round: number;
  op: 'upsert' | 'delete';
  client: C27Client;
  read: 'get' | 'count' | 'recall';
  id?: string;
  expected?: unknown;
  actual?: unknown;
  message: string;
}

/**
 * Judge what `read` saw after `round`'s acknowledged write, on `metric`:
 * - upsert: `get` returns every written record exactly (type-strict, bit-exact: `describeDifference`;
 *   for an overwrite, the old version is named as such); `count()` equals `round.expectedCount`;
 *   each recall with a written embedding returns its id (k ≥ everything stored), and for an
 *   overwritten id its score is the NEW version's (closer to referenceScore(new, new) than to
 *   referenceScore(new, old)); a recall with the OLD embedding must not score the id as the old
 *   version (closer to referenceScore(old, old) than to referenceScore(old, new));
 * - delete: `get` returns none of the ids, `count()` equals `round.expectedCount`, no recall with a
 *   deleted memory's embedding returns its id.
 * `embeddingReadback`: the target's declared readback tolerance (`describeDifference`; absent = bit-exact).
 * `embeddingReadBack`: the target's capability (default true); false = `get` returns no vector, so
 * get's records are compared on everything but the vector (the old version is then told from the
 * new by its payload; the recalls still use the written embeddings).
 * Returns the problems, empty when the read reflects the write. Pure: no I/O.
 */
export function judgeRead(round: C27Round, read: C27Read, metric: Metric, embeddingReadback?: number, embeddingReadBack = true): C27Problem[] {
  const out: C27Problem[] = [];
  const where = `round ${round.round} (${round.label}): after the acknowledged ${round.op}, ${C27_CLIENT_WORDS[read.client]}`;
  const add = (p: Omit<C27Problem, 'round' | 'op' | 'client'>) => out.push({ round: round.round, op: round.op, client: read.client, ...p });
  const got = new Map(read.got.map((r) => [r.id, r]));
  const written = new Map(round.records.map((r) => [r.id, r]));
  if (round.op === 'upsert') {
    for (const r of round.records) {
      const g = got.get(r.id);
      const old = round.replaced?.get(r.id);
      if (!g) add({ read: 'get', id: r.id, expected: r.id, actual: 'missing', message: `${where}: get did not return ${r.id}` });
      else if (old && describeDifference(old, g, embeddingReadback, embeddingReadBack) === null)
        add({ read: 'get', id: r.id, expected: 'the new version', actual: 'the old version', message: `${where}: get returned the OLD version of ${r.id}` });
      else {
        const diff = describeDifference(r, g, embeddingReadback, embeddingReadBack);
        if (diff) add({ read: 'get', id: r.id, message: `${where}: get returned ${r.id} other than written: ${diff}` });
      }
    }
  } else {
    for (const r of round.records) if (got.has(r.id)) add({ read: 'get', id: r.id, expected: 'absent', actual: 'returned', message: `${where}: get still returned ${r.id}` });
  }
  if (read.count !== round.expectedCount) {
    add({ read: 'count', expected: round.expectedCount, actual: read.count, message: `${where}: count() is ${read.count}, expected ${round.expectedCount}` });
  }
  for (const q of read.recalls) {
    const hit = q.hits.find((h) => h.id === q.id);
    const path = `recall (${q.scan} scan, k ${C27_RECALL_K})`;
    if (q.vector === 'deleted') {
      if (hit) add({ read: 'recall', id: q.id, expected: 'absent', actual: hit.score, message: `${where}: ${path} with its embedding still returned ${q.id} (score ${hit.score})` });
      continue;
    }
    const r = written.get(q.id)!;
    const old = round.replaced?.get(q.id);
    if (q.vector === 'written') {
      if (!hit) {
        add({
          read: 'recall',
          id: q.id,
          expected: q.id,
          actual: q.hits.map((h) => h.id),
          message: `${where}: ${path} with its ${old ? 'new ' : ''}embedding did not return ${q.id} (${q.hits.length} hits)`,
        });
      } else if (old) {
        const now = referenceScore(metric, r.embedding, r.embedding);
        const before = referenceScore(metric, r.embedding, old.embedding);
        if (Math.abs(hit.score - before) < Math.abs(hit.score - now)) {
          add({
            read: 'recall',
            id: q.id,
            expected: now,
            actual: hit.score,
            message: `${where}: ${path} with its new embedding scored ${q.id} as the OLD version (score ${hit.score}: old ${before}, new ${now})`,
          });
        }
      }
    } else if (old && hit) {
      const stale = referenceScore(metric, old.embedding, old.embedding);
      const fresh = referenceScore(metric, old.embedding, r.embedding);
      if (Math.abs(hit.score - stale) < Math.abs(hit.score - fresh)) {
        add({
          read: 'recall',
          id: q.id,
          expected: fresh,
          actual: hit.score,
          message: `${where}: ${path} with its replaced embedding still scored ${q.id} as the OLD version (score ${hit.score}: old ${stale}, new ${fresh})`,
        });
      }
    }
  }
  return out;
}

/**
 * Which problems fail C27 under the declared `level`: `strong` every client's; `session` the
 * writing client's only (the others' are reported, not failed); `eventual` none (C27 is skipped).
 */
export function bindingProblems(level: ReadYourWrites, problems: readonly C27Problem[]): { failing: C27Problem[]; reported: C27Problem[] } {
  const binds = (p: C27Problem) => level === 'strong' || (level === 'session' && p.client === 'same');
  return { failing: problems.filter(binds), reported: problems.filter((p) => !binds(p)) };
}
