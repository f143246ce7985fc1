/**
 * Which table layout a user's table has (`sample` without `--columns`): the source's known
 * layouts (`SampleSource.layouts`, e.g. packages/adapter-pgvector/src/sample/layouts.ts) matched
 * against the table's shape (`SampleSource.describeTable`). Nothing here names a backend.
 *
 * The rule: a layout matches when the table has each of its required columns with an accepted
 * type and each table it references. Of the layouts that match, the one with the most required
 * columns and references wins (LangChain.js with a collection table over LangChain.js alone); on
 * a tie, the earlier in the source's list. With none matching, the closest is the layout with the
 * largest share of its requirements met, then the largest share of its missing columns that a
 * column of another name has the type of, then the fewest unmet, then list order.
 */
import { MemoryMatrixError, type SampleColumnMapping, type SampleLayout, type SampleSource, type SampleTableShape } from '@memory-matrix/spec';
import { applyColumns, formatMapping, type ColumnOverrides } from './columns';

/** How one layout compares with a table: `unmet` lists what the table lacks (empty = it matches). */
export interface LayoutFit {
  layout: SampleLayout;
  /** Required columns and references. */
  requirements: number;
  unmet: string[];
  /** Of the required columns the table lacks, how many a column of another name could stand for (same type): ranks the closest layout. */
  lookalikes: number;
}

/** The layout chosen for a table, with its mapping (optional columns the table lacks unset) and the other layouts that also matched. */
export interface LayoutChoice {
  layout: SampleLayout;
  mapping: SampleColumnMapping;
  /** The referenced tables found, e.g. `collection_id → lc_collections`. */
  references: string[];
  alsoMatched: string[];
}

const lastPart = (t: string) => t.slice(t.lastIndexOf('.') + 1).replace(/^"|"$/g, '');

/** Compare `layout` with `shape` (see the file comment). Pure. */
export function fitLayout(layout: SampleLayout, shape: SampleTableShape): LayoutFit {
  const unmet: string[] = [];
  let lookalikes = 0;
  const types = new Map(shape.columns.map((c) => [c.name, c.type]));
  for (const c of layout.columns) {
    const type = types.get(c.name);
    if (type === undefined) {
      if (!c.optional) unmet.push(`no column ${c.name} (${c.types.join(' or ')})`);
      if (!c.optional && shape.columns.some((x) => c.types.includes(x.type))) lookalikes += 1;
    } else if (!c.types.includes(type)) unmet.push(`column ${c.name} is ${type}, not ${c.types.join(' or ')}`);
  }
  for (const r of layout.references ?? []) {
    const ok = shape.references.some((x) => x.column === r.column && (!r.table || lastPart(x.table) === r.table) && r.columns.every((c) => x.columns.includes(c)));
    if (!ok) unmet.push(`${r.column} references no table ${r.table ? `${r.table} ` : ''}with columns ${r.columns.join(', ')}`);
  }
  return { layout, requirements: layout.columns.filter((c) => !c.optional).length + (layout.references?.length ?? 0), unmet, lookalikes };
}

/**
 * The layout of `shape` among `layouts` (see the file comment): `chosen` when one matches, else
 * null and `closest` (null only when `layouts` is empty). Pure.
 */
export function matchLayouts(layouts: readonly SampleLayout[], shape: SampleTableShape): { chosen: LayoutChoice | null; closest: LayoutFit | null } {
  const fits = layouts.map((l) => fitLayout(l, shape));
  const matching = fits.filter((f) => f.unmet.length === 0);
  if (matching.length) {
    const best = matching.reduce((a, b) => (b.requirements > a.requirements ? b : a));
    const present = new Set(shape.columns.map((c) => c.name));
    const absent = new Set(best.layout.columns.filter((c) => c.optional && !present.has(c.name)).map((c) => c.name));
    const mapping = { ...best.layout.mapping };
    for (const f of ['text', 'created_at', 'namespace', 'kind'] as const) {
      const s = mapping[f as 'namespace'];
      if (s && 'column' in s && absent.has(s.column)) mapping[f as 'namespace'] = null;
    }
    if (mapping.metadata && absent.has(mapping.metadata)) mapping.metadata = null;
    const references = (best.layout.references ?? []).map((r) => {
      const x = shape.references.find((y) => y.column === r.column && (!r.table || lastPart(y.table) === r.table))!;
      return `${r.column} → ${x.table}`;
    });
    return { chosen: { layout: best.layout, mapping, references, alsoMatched: matching.filter((f) => f !== best).map((f) => f.layout.name) }, closest: null };
  }
  const share = (f: LayoutFit) => (f.requirements - f.unmet.length) / Math.max(1, f.requirements);
  const alike = (f: LayoutFit) => f.lookalikes / Math.max(1, f.requirements);
  const closer = (b: LayoutFit, a: LayoutFit) => share(b) - share(a) || alike(b) - alike(a) || a.unmet.length - b.unmet.length;
  const closest = fits.reduce<LayoutFit | null>((a, b) => (!a || closer(b, a) > 0 ? b : a), null);
  return { chosen: null, closest };
}

/** The mapping `sample` reads with, how it was decided, and the lines it prints about it. */
export interface ResolvedMapping {
  mapping: SampleColumnMapping;
  /** The detected layout; null when the source has no layouts or `--columns` mapped a table of no known layout. */
  layout: LayoutChoice | null;
  /** What `sample` prints before it reads: the layout (or why none), the mapping in `--columns` syntax, the layout's notes. */
  lines: string[];
}

/**
 * Decide the mapping for `table`: the detected layout's, with `overrides` (`--columns`) applied;
 * for a source without layouts, its defaults with the overrides. A table of no known layout
 * needs `--columns` naming at least id, text and embedding. Throws USAGE listing the table's
 * columns and the closest known layout with what it lacks when it matches none and the overrides
 * do not name those three; the source's errors from `describeTable` (USAGE: no such table,
 * TARGET_UNAVAILABLE, BACKEND_ERROR); `applyColumns`' USAGE.
 */
export async function resolveMapping(
  source: Pick<SampleSource, 'defaults' | 'layouts' | 'describeTable'>,
  req: { url: string; label: string; table: string },
  overrides: ColumnOverrides,
): Promise<ResolvedMapping> {
  const given = Object.keys(overrides).length > 0;
  if (!source.layouts || !source.describeTable) {
    const mapping = applyColumns(source.defaults.columns, overrides);
    return { mapping, layout: null, lines: [`mapping${given ? ' (--columns over the defaults)' : ''}: ${formatMapping(mapping)}`] };
  }
  const shape = await source.describeTable(req);
  const { chosen, closest } = matchLayouts(source.layouts, shape);
  if (chosen) {
    const mapping = applyColumns(chosen.mapping, overrides);
    const l = chosen.layout;
    const lines = [`layout: ${l.name} — ${l.client}${chosen.references.length ? ` (${chosen.references.join(', ')})` : ''}`, `  verified against ${l.verifiedAgainst}`];
    if (chosen.alsoMatched.length) lines.push(`  also matches ${chosen.alsoMatched.join(', ')} (fewer columns: the layout matching the most columns and references wins)`);
    lines.push(`mapping${given ? ` (--columns over ${l.name}'s)` : ''}: ${formatMapping(mapping)}`);
    for (const n of l.notes ?? []) lines.push(`  note: ${n}`);
    return { mapping, layout: chosen, lines };
  }
  const columns = shape.columns.map((c) => `${c.name} ${c.type}`).join(', ');
  const near = closest ? `closest known layout: ${closest.layout.name} (${closest.layout.client}), which needs ${closest.unmet.join('; ')}` : 'no layouts are known';
  if (overrides.id && overrides.text && overrides.embedding) {
    const mapping = applyColumns({ id: overrides.id, text: overrides.text, embedding: overrides.embedding, metadata: null, created_at: null, namespace: null, kind: null }, overrides);
    return { mapping, layout: null, lines: [`layout: none known (${near})`, `mapping (--columns): ${formatMapping(mapping)}`] };
  }
  throw new MemoryMatrixError(
    'USAGE',
    `${req.label} ${req.table}: the table matches no known layout (${source.layouts.map((l) => l.name).join(', ')}); its columns: ${columns || 'none'}; ${near}. Give --columns naming at least id, text and embedding (e.g. id=<column>,text=<column>,embedding=<column>,metadata=<column>)`,
  );
}
