import type { IndexInEffect } from '../adapter';
import type { Failure } from '../comparator';
import { toRecallQuery } from '../conformance/cell';
import type { GoldenQuery } from '../golden/types';
import type { IndexConfig } from '../types';
import { describeIndex, describeInEffect } from './c05-ann-recall';
import { type CheckDefinition, type CheckOutcome, failure } from './check';

/**
 * C28 index-in-effect: on the shared golden collection (the cell's declared ANN index built),
 * the adapter reads back from the server the index configuration in effect for index-path
 * recalls (`MemoryCollection.indexInEffect`): the first unfiltered golden query and the first
 * filtered one. For each, the type the server uses must be the declared type (a plan that
 * answers without the index, e.g. an index built with another metric's operator class, reports
 * `none`), the index's metric the collection's, and every declared parameter the server reports
 * equal to the declared value (pgvector `SHOW hnsw.ef_search` inside the recall's transaction:
 * a removed `SET LOCAL` shows the server default 40). Parameters the server does not report are
 * named in the notes, never assumed. A cell without an index (`type: none`) passes with a note.
 * Figures: `declared`, `inEffect` (what the report shows: the server's values), `source`,
 * `queries`, `unreported`.
 */
export const c28IndexInEffect: CheckDefinition = {
  id: 'C28',
  name: 'index-in-effect',
  fixtures: ['golden'],
  requires(caps) {
    if (!caps.vectors) return 'capability: vectors';
    if (caps.annIndexes.length === 0) return 'capability: annIndexes';
    if (!caps.indexIntrospection) return 'capability: indexIntrospection';
    return null;
  },
  async run(cell): Promise<CheckOutcome> {
    const declared = cell.config.index;
    if (declared.type === 'none') return { figures: { declared: 'none', inEffect: 'none' }, failures: [], notes: ['the cell builds no ANN index; nothing to read back'] };
    const { collection } = await cell.loaded();
    if (!collection.indexInEffect) {
      return { figures: { declared: describeIndex(declared) }, failures: [failure(cell, 'index-in-effect', 'the target declares indexIntrospection but its collection has no indexInEffect method')] };
    }
    const picked = pickQueries(cell.dataset.queries);
    const failures: Failure[] = [];
    const unreported = new Set<string>();
    const rows: Array<Array<string | number>> = [];
    let first: IndexInEffect | undefined;
    for (const q of picked) {
      const got = await collection.indexInEffect(toRecallQuery(q, 'index'));
      first ??= got;
      const problems = compareIndex(declared, cell.dataset.manifest.metric, got, unreported);
      for (const p of problems) failures.push(failure(cell, 'index-in-effect', `query ${q.id}${q.filter ? ' (filtered)' : ''}: ${p} (server: ${got.source})`, { queryId: q.id }));
      rows.push([q.id, q.filter ? 'yes' : 'no', describeInEffect(got), got.source, problems.length ? 'MISMATCH' : 'ok']);
    }
    return {
      figures: {
        declared: describeIndex(declared),
        inEffect: first ? describeInEffect(first) : '-',
        source: first?.source ?? '-',
        queries: picked.length,
        unreported: [...unreported].join(', ') || 'none',
      },
      failures,
      notes: unreported.size ? [`declared but not reported by the server (not compared): ${[...unreported].join(', ')}`] : [],
      tables: [{ title: 'C28 index in effect per query (as the server reports it)', columns: ['query', 'filtered', 'in effect', 'source', 'verdict'], rows }],
    };
  },
};

/** The first unfiltered and the first filtered golden query (those that exist). */
export function pickQueries(queries: readonly GoldenQuery[]): GoldenQuery[] {
  const plain = queries.find((q) => q.filter === undefined && q.now === undefined);
  const filtered = queries.find((q) => q.filter !== undefined && q.now === undefined);
  return [plain, filtered].filter((q): q is GoldenQuery => q !== undefined);
}

/**
 * Declared index vs what the server reports: one sentence per mismatch (type, metric, each
 * reported parameter); declared parameters the server does not report are added to `unreported`.
 */
export function compareIndex(declared: IndexConfig, metric: string, got: IndexInEffect, unreported: Set<string>): string[] {
  if (got.type !== declared.type) {
    return [`the server answers the index-path recall with index type ${got.type}, not the declared ${describeIndex(declared)}`];
  }
  const out: string[] = [];
  if (got.metric !== metric) out.push(`the index is built for metric ${String(got.metric)}, the collection's metric is ${metric}`);
  for (const [key, want] of Object.entries(declared)) {
    if (key === 'type') continue;
    const have = got.params[key];
    if (have === undefined) unreported.add(key);
    else if (have !== want) out.push(`${key} in effect is ${have}, declared ${String(want)}`);
  }
  return out;
}
