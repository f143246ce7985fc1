/**
 * The memories of agent-memories: real sentences assigned to 60 users with a skewed size
 * distribution, kinds, timestamps and metadata with real variety (CJK, emoji, falsy values),
 * plus genuine tie groups (the same sentence stored under several ids).
 */
import { vectorKey } from './embed.mjs';

/**
 * Rows per namespace user-001 … user-060: ⌊510·0.9^(i−1)⌋, at least 5 (5,111 rows in all).
 * user-001 ≈ 10 %, user-023 ≈ 1 %, user-044 … user-060 ≈ 0.1 % each.
 */
export const NAMESPACE_SIZES = [
  510, 459, 413, 371, 334, 301, 271, 243, 219, 197, 177, 160, 144, 129, 116, 105, 94, 85, 76, 68, 62, 55, 50, 45, 40, 36, 32, 29, 26, 24, 21, 19, 17, 15, 14, 12, 11, 10, 9, 8, 7, 6, 6, 5, 5, 5, 5, 5,
  5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5,
];
export const namespaceName = (i) => `user-${String(i + 1).padStart(3, '0')}`;

/** Sizes of the tie groups (rows sharing one sentence and one vector), cycled over 48 groups. */
const TIE_GROUP_SIZES = [2, 3, 4, 5, 6, 8];
export const TIE_GROUPS = 48;

/** Suffixes appended to about 1.5 % of texts, with the `lang` they imply. */
const SUFFIXES = [
  [' 🐳', 'en'],
  [' 👍', 'en'],
  [' 🎉🎉', 'en'],
  [' (メモ)', 'en+ja'],
  [' ——重要', 'en+zh'],
  [' ✈️ 旅行', 'en+ja'],
  [' 家族 ❤️', 'en+ja'],
  [' — 备忘录', 'en+zh'],
];

const KINDS = [
  ['fact', 40],
  ['episode', 30],
  ['preference', 20],
  ['summary', 10],
];
const SOURCES = [
  ['chat', 45],
  ['email', 15],
  ['doc', 15],
  ['import', 10],
  ['', 10],
  ['voice 🎙️', 5],
];
const IMPORTANCE = [
  [0, 30],
  [1, 20],
  [2, 20],
  [3, 15],
  [4, 10],
  [5, 5],
];
const TAGS = [
  ['', 25],
  ['work', 20],
  ['family', 12],
  ['travel', 10],
  ['health', 8],
  ['家族', 5],
  ['仕事', 5],
  ['旅行 ✈️', 5],
  ['🎉', 5],
  ['ok 👍', 5],
];
/** createdAt range: [2023-01-01, 2025-01-01) UTC, millisecond precision. */
const T0 = Date.UTC(2023, 0, 1);
const T1 = Date.UTC(2025, 0, 1);

/** Metadata with sorted keys; keys vary with corpus and kind. */
function metadataFor(src, kind, lang, rng) {
  const m = {
    corpus: src.corpus,
    importance: rng.weighted(IMPORTANCE),
    lang,
    pinned: rng.chance(0.1),
    ref: src.ref,
    source: rng.weighted(SOURCES),
    tag: rng.weighted(TAGS),
  };
  if (src.corpus === 'sotu') Object.assign(m, { speaker: src.meta.speaker, year: src.meta.year });
  else m.chapter = src.meta.chapter;
  if (kind === 'fact') m.confidence = rng.pick([0, 0.25, 0.5, 0.75, 0.9, 1]);
  if (kind === 'preference') m.polarity = rng.pick(['like', 'dislike', '']);
  if (kind === 'episode') m.turn = rng.int(41);
  if (kind === 'summary') m.covers = 2 + rng.int(19);
  return Object.fromEntries(
    Object.keys(m)
      .sort()
      .map((k) => [k, m[k]]),
  );
}

/**
 * Build the memory rows from `bases` (unique sentences, already shuffled, each `{ text, corpus,
 * ref, meta }`). Returns `{ rows, tieGroups }`: rows `{ id, namespace, text, kind, createdAt,
 * metadata, vector }` in id order; tieGroups: arrays of ids sharing one vector.
 */
export function buildMemories(bases, embedder, rng) {
  const total = NAMESPACE_SIZES.reduce((a, b) => a + b, 0);
  const sizes = Array.from({ length: TIE_GROUPS }, (_, g) => TIE_GROUP_SIZES[g % TIE_GROUP_SIZES.length]);
  const uniques = total - sizes.reduce((a, s) => a + s - 1, 0);
  if (bases.length < uniques) throw new Error(`need ${uniques} sentences, have ${bases.length}`);
  // Draft rows: each unique sentence once, then the extra copies of the first TIE_GROUPS sentences.
  const drafts = bases.slice(0, uniques).map((src, i) => ({ src, group: i < TIE_GROUPS ? i : -1, suffix: null }));
  for (let g = 0; g < TIE_GROUPS; g += 1) {
    for (let c = 1; c < sizes[g]; c += 1) {
      // Every 4th group's last copy carries an emoji suffix that leaves the vector unchanged.
      const suffix = g % 4 === 0 && c === sizes[g] - 1 ? SUFFIXES[g % 3] : null;
      drafts.push({ src: bases[g], group: g, suffix });
    }
  }
  for (const d of drafts) {
    if (d.group < 0 && rng.chance(0.015)) d.suffix = rng.pick(SUFFIXES);
  }
  rng.shuffle(drafts);
  const slots = rng.shuffle(NAMESPACE_SIZES.flatMap((n, i) => Array(n).fill(namespaceName(i))));
  drafts.forEach((d, i) => {
    d.namespace = slots[i];
  });
  sameNamespaceGroups(drafts, sizes);

  const rows = drafts.map((d, i) => {
    const text = d.suffix ? d.src.text + d.suffix[0] : d.src.text;
    const kind = d.group >= 0 && d.group % 3 === 0 ? 'fact' : rng.weighted(KINDS);
    const createdAt = new Date(T0 + Math.floor(rng.next53() * (T1 - T0))).toISOString();
    const vector = embedder.embed(text);
    if (vector === null) throw new Error(`no embedding for ${JSON.stringify(text)}`);
    const metadata = metadataFor(d.src, kind, d.suffix ? d.suffix[1] : 'en', rng);
    return { id: `mem-${String(i + 1).padStart(5, '0')}`, namespace: d.namespace, text, kind, createdAt, metadata, vector, group: d.group };
  });
  return { rows, tieGroups: checkTies(rows) };
}

/**
 * Groups g ≡ 0 (mod 3) are "duplicated facts": every copy moves into the namespace of the
 * group's first row by swapping namespaces with a non-tie row, when that namespace is big enough.
 */
function sameNamespaceGroups(drafts, sizes) {
  for (let g = 0; g < TIE_GROUPS; g += 3) {
    const members = drafts.filter((d) => d.group === g);
    const ns = members[0].namespace;
    if (NAMESPACE_SIZES[Number(ns.slice(5)) - 1] < 4 * sizes[g]) continue;
    for (const m of members.slice(1)) {
      if (m.namespace === ns) continue;
      const other = drafts.find((d) => d.group < 0 && d.namespace === ns);
      other.namespace = m.namespace;
      m.namespace = ns;
    }
  }
}

/** Assert that exactly the designed groups share vectors; return them as id lists. */
function checkTies(rows) {
  const byKey = new Map();
  for (const r of rows) {
    const k = vectorKey(r.vector);
    if (!byKey.has(k)) byKey.set(k, []);
    byKey.get(k).push(r);
  }
  const groups = [...byKey.values()].filter((g) => g.length > 1);
  for (const g of groups) {
    if (g.some((r) => r.group < 0 || r.group !== g[0].group)) {
      throw new Error(`unplanned identical vectors: ${g.map((r) => r.id).join(', ')}`);
    }
  }
  if (groups.length !== TIE_GROUPS) throw new Error(`expected ${TIE_GROUPS} tie groups, found ${groups.length}`);
  for (const g of groups) {
    const planned = rows.filter((r) => r.group === g[0].group).length;
    if (planned !== g.length) throw new Error(`tie group of ${g[0].id} split: ${g.length} of ${planned} rows share its vector`);
  }
  return groups.map((g) => g.map((r) => r.id));
}
