/**
 * The queries of a user-data fixture (golden-data/FORMAT.md, queries.jsonl): held-out vectors
 * (sentences not stored), self queries (a stored memory's own vector: under ip or with norms far
 * from 1 the memory need not be its own nearest), tie queries (the vector of a group of identical
 * stored vectors), filter queries (namespaces, kinds, metadata, their AND, a namespace that matches
 * nothing) and threshold queries whose minScore lies in a wide gap between two exact scores.
 */
import { sortFilter } from '../queries.mjs';
import { score } from './vectors.mjs';

/** Memory matches a RecallFilter (packages/spec/src/filter.ts: AND of parts, IN for lists, === for metadata). */
export function matches(r, f) {
  if (!f) return true;
  if (f.namespaces && !f.namespaces.includes(r.namespace)) return false;
  if (f.kinds && !f.kinds.includes(r.kind)) return false;
  if (f.metadata) for (const [k, v] of Object.entries(f.metadata)) if (!Object.prototype.hasOwnProperty.call(r.metadata, k) || !Object.is(r.metadata[k], v)) return false;
  return true;
}

/**
 * A minScore between the `want`-th and (want+1)-th best exact scores of `v` (among rows matching
 * `filter`) when the gap between them is at least `rel` × the largest |score| (so the threshold is
 * far from float32 noise at any scale); null when there is no such gap.
 */
function thresholdInGap(metric, rows, v, want, filter, rel) {
  const s = rows
    .filter((r) => matches(r, filter))
    .map((r) => score(metric, v, r.vector))
    .sort((a, b) => b - a);
  if (s.length <= want) return null;
  const scale = Math.max(...s.map(Math.abs));
  const hi = s[want - 1];
  const lo = s[want];
  if (hi - lo < rel * scale) return null;
  return { minScore: Number(((hi + lo) / 2).toPrecision(12)), kept: want };
}

const K_HELD = [10, 5, 10, 1, 20, 10, 50, 10];

/**
 * Build the queries. `rows`: the fixture's memories `{ id, namespace, kind, metadata, vector }`;
 * `held`: held-out `{ ref, text, vector }` in the fixture's own space; `opts`: `{ metric, rng,
 * heldOut, self, selfIds?, tieGroups?, filters, thresholds }`, where `selfIds` (optional) lists
 * the memories whose vectors the self queries use (default: drawn from `rng`), `tieGroups` arrays
 * of ids with identical vectors, `filters` `[filter, k]` pairs and `thresholds` `[want, k, filter?]`.
 * Returns queries `{ id, k, filter?, minScore?, purpose, note?, vector }` in file order.
 */
export function buildQueries(rows, held, opts) {
  const { metric, rng } = opts;
  const q = [];
  let h = 0;
  const nextHeld = () => {
    if (h >= held.length) throw new Error('out of held-out vectors');
    return held[h++];
  };
  for (let i = 0; i < opts.heldOut; i += 1) {
    const s = nextHeld();
    q.push({ k: K_HELD[i % K_HELD.length], purpose: 'held-out', note: `held-out ${s.ref}: ${s.text.slice(0, 200)}`, vector: s.vector });
  }
  const byId = new Map(rows.map((r) => [r.id, r]));
  const selfIds = opts.selfIds ?? Array.from({ length: opts.self }, () => rows[rng.int(rows.length)].id);
  selfIds.forEach((id, i) => q.push({ k: i % 4 === 3 ? 1 : 10, purpose: 'self', note: `self: vector of ${id}`, vector: byId.get(id).vector }));
  for (const ids of opts.tieGroups ?? []) {
    const sorted = [...ids].sort();
    q.push({ k: Math.min(10, Math.max(1, sorted.length - 1)), purpose: 'tie', note: `tie group of ${ids.length}: ${sorted.join(' ')}`, vector: byId.get(ids[0]).vector });
  }
  for (const [f, k] of opts.filters) {
    const filter = sortFilter(f);
    const m = rows.filter((r) => matches(r, filter)).length;
    q.push({ k, filter, purpose: 'filter', note: `filter matches ${m} of ${rows.length}`, vector: nextHeld().vector });
  }
  for (const [want, k, f] of opts.thresholds) {
    let s = nextHeld();
    let t = thresholdInGap(metric, rows, s.vector, want, f, 1e-3);
    while (t === null) {
      s = nextHeld();
      t = thresholdInGap(metric, rows, s.vector, want, f, 1e-3);
    }
    const query = { k, purpose: 'threshold', minScore: t.minScore, note: `${t.kept} rows score ≥ minScore (gap ≥ 1e-3 of the largest |score|)`, vector: s.vector };
    if (f) query.filter = sortFilter(f);
    q.push(query);
  }
  return q.map((x, i) => ({ id: `q-${String(i + 1).padStart(4, '0')}`, ...x }));
}

/** The standard filter set over the fixture's namespaces `ns` (most populous first) and common metadata. */
export function standardFilters(ns) {
  return [
    [{ namespaces: [ns[0]] }, 10],
    [{ namespaces: [ns[ns.length - 1]] }, 10],
    [{ namespaces: [ns[1], ns[2]] }, 20],
    [{ namespaces: ['nobody'] }, 10],
    [{ kinds: ['summary'] }, 10],
    [{ kinds: ['fact', 'preference'] }, 10],
    [{ metadata: { pinned: true } }, 10],
    [{ metadata: { importance: 0 } }, 10],
    [{ metadata: { tag: '' } }, 5],
    [{ namespaces: [ns[0]], kinds: ['fact'] }, 10],
  ];
}

/** The standard threshold set: [rows above the threshold, k, filter?]. */
export function standardThresholds(ns) {
  return [
    [1, 10],
    [3, 10],
    [8, 50],
    [2, 10, { namespaces: [ns[0]] }],
  ];
}
