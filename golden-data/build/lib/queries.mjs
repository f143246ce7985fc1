/**
 * The queries of agent-memories: held-out sentences (most), self queries (a stored vector), tie
 * queries (a tie group's vector), filter queries across selectivities ~0.1 %, 1 %, 10 %, 50 %,
 * and threshold queries whose minScore lies in a wide gap between two exact scores.
 */
import { namespaceName } from './memories.mjs';
import { matches, sortedScores, thresholdInGap, share } from './select.mjs';

const K_HELD_OUT = [
  [10, 70],
  [5, 12],
  [1, 10],
  [50, 8],
];
const ns = (...idx) => idx.map((i) => namespaceName(i - 1));
const range = (a, b) => Array.from({ length: b - a + 1 }, (_, i) => a + i);

/** Filter queries: [filter, k]; each gets its own held-out vector. */
const FILTERS = [
  [{ namespaces: ns(60) }, 10],
  [{ namespaces: ns(52) }, 10],
  [{ namespaces: ns(44) }, 10],
  [{ namespaces: ns(47) }, 1],
  [{ namespaces: ns(23) }, 10],
  [{ namespaces: ns(22) }, 10],
  [{ namespaces: ns(24) }, 50],
  [{ namespaces: ns(23) }, 5],
  [{ namespaces: ns(1) }, 10],
  [{ namespaces: ns(1) }, 10],
  [{ namespaces: ns(1) }, 50],
  [{ namespaces: ns(2) }, 10],
  [{ namespaces: ns(...range(1, 6), 12) }, 10],
  [{ namespaces: ns(...range(1, 6), 12) }, 10],
  [{ namespaces: ns(...range(1, 6), 12) }, 50],
  [{ namespaces: ns(...range(1, 7)) }, 10],
  [{ namespaces: ns(...range(13, 60)) }, 10],
  [{ namespaces: ['user-999'] }, 10],
  [{ kinds: ['summary'] }, 10],
  [{ kinds: ['summary'] }, 50],
  [{ kinds: ['fact', 'preference'] }, 10],
  [{ kinds: ['fact', 'preference'] }, 10],
  [{ kinds: ['episode'] }, 5],
  [{ metadata: { pinned: true } }, 10],
  [{ metadata: { pinned: true } }, 50],
  [{ metadata: { importance: 0 } }, 10],
  [{ metadata: { importance: 0 } }, 10],
  [{ metadata: { tag: '' } }, 10],
  [{ metadata: { tag: '' } }, 5],
  [{ metadata: { importance: 0, pinned: false } }, 10],
  [{ metadata: { tag: '家族' } }, 10],
  [{ metadata: { source: 'voice 🎙️' } }, 10],
  [{ metadata: { lang: 'en+ja' } }, 10],
  [{ metadata: { source: '' } }, 10],
  [{ metadata: { confidence: 0 } }, 10],
  [{ metadata: { pinned: 0 } }, 10],
  [{ metadata: { importance: false } }, 10],
  [{ metadata: { tag: 'ok 👍' } }, 10],
  [{ metadata: { corpus: 'moby-dick' } }, 10],
  [{ namespaces: ns(1), kinds: ['fact'] }, 10],
  [{ namespaces: ns(2, 3), metadata: { pinned: false } }, 10],
  [{ kinds: ['preference'], metadata: { tag: '' } }, 10],
  [{ namespaces: ns(23), kinds: ['episode', 'summary'] }, 10],
  [{ namespaces: ns(...range(1, 6), 12), kinds: ['fact'], metadata: { importance: 0 } }, 10],
];

/** Threshold queries: [wanted rows above the threshold, k, filter?]. */
const THRESHOLDS = [
  [1, 10],
  [2, 10],
  [3, 50],
  [5, 50],
  [8, 50],
  [13, 50],
  [20, 50],
  [30, 50],
  [40, 50],
  [5, 10],
  [15, 10],
  [25, 10],
  [3, 5],
  [10, 50],
  [6, 50],
  [4, 50],
  [2, 50, { namespaces: ns(1) }],
  [7, 50, { namespaces: ns(1) }],
];

/** A filter with its parts in format order and metadata keys sorted by UTF-16 code unit (golden-data/FORMAT.md). */
export function sortFilter(f) {
  const out = {};
  if (f.namespaces) out.namespaces = f.namespaces;
  if (f.kinds) out.kinds = f.kinds;
  if (f.metadata)
    out.metadata = Object.fromEntries(
      Object.keys(f.metadata)
        .sort()
        .map((k) => [k, f.metadata[k]]),
    );
  return out;
}

/**
 * Build the queries. `held` is a list of held-out `{ text, vector }` (none stored as memory).
 * Returns query objects `{ id, k, filter?, minScore?, now?, purpose, note?, vector }` in file order.
 */
export function buildQueries(rows, tieGroups, held, rng) {
  const q = [];
  let h = 0;
  const nextHeld = () => {
    if (h >= held.length) throw new Error('out of held-out sentences');
    return held[h++];
  };
  const n = rows.length;
  const byId = new Map(rows.map((r) => [r.id, r]));
  for (let i = 0; i < 200; i += 1) {
    const s = nextHeld();
    const query = { k: rng.weighted(K_HELD_OUT), purpose: 'held-out', note: `held-out ${s.ref}: ${s.text}`, vector: s.vector };
    if (i % 8 === 7) query.now = new Date(Date.UTC(2025, 0, 1) + Math.floor(rng.next53() * 180 * 86400000)).toISOString();
    q.push(query);
  }
  const inTie = new Set(tieGroups.flat());
  const candidates = rows.filter((r) => !inTie.has(r.id));
  for (let i = 0; i < 40; i += 1) {
    const r = candidates[rng.int(candidates.length)];
    q.push({ k: i % 5 === 4 ? 1 : 10, purpose: 'self', note: `self: vector of ${r.id}`, vector: r.vector });
  }
  tieGroups.forEach((ids, g) => {
    const sorted = [...ids].sort();
    const k = sorted.length >= 5 && g % 2 === 0 ? (g % 4 === 0 ? 1 : 5) : 10;
    q.push({ k, purpose: 'tie', note: `tie group of ${ids.length}: ${sorted.join(' ')}`, vector: byId.get(ids[0]).vector });
  });
  for (const [f, k] of FILTERS) {
    const filter = sortFilter(f);
    const m = rows.filter((r) => matches(r, filter)).length;
    q.push({ k, filter, purpose: 'filter', note: `filter matches ${share(m, n)}`, vector: nextHeld().vector });
  }
  for (const [want, k, f] of THRESHOLDS) {
    let s = nextHeld();
    let t = thresholdInGap(sortedScores(rows, s.vector, f), want, 2e-4);
    while (t === null) {
      s = nextHeld();
      t = thresholdInGap(sortedScores(rows, s.vector, f), want, 2e-4);
    }
    const query = { k, purpose: 'threshold', minScore: t.minScore, note: `${t.kept} rows score ≥ minScore (gap ≥ 2e-4)`, vector: s.vector };
    if (f) query.filter = sortFilter(f);
    q.push(query);
  }
  // Two thresholds on a tie group's vector: the whole group scores 1, the rest lies below.
  for (const size of [3, 6]) {
    const group = tieGroups.find((ids) => ids.length === size);
    const v = byId.get(group[0]).vector;
    const t = thresholdInGap(sortedScores(rows, v), size, 2e-4);
    q.push({ k: 10, purpose: 'threshold', minScore: t.minScore, note: `${t.kept} rows score ≥ minScore: tie group of ${size}`, vector: v });
  }
  // One threshold that nothing reaches.
  const none = nextHeld();
  if (sortedScores(rows, none.vector)[0] >= 0.9999) throw new Error('threshold 0.9999 is reached');
  q.push({ k: 10, purpose: 'threshold', minScore: 0.9999, note: '0 rows score ≥ minScore', vector: none.vector });
  return q.map((x, i) => ({ id: `q-${String(i + 1).padStart(4, '0')}`, ...x }));
}
