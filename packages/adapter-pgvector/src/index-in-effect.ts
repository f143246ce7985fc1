import type { IndexInEffect, Metric } from '@memory-matrix/spec';
import { OPERATOR_CLASS } from './scores';
import type { RecallPlan } from './where-sql';
import type { SqlQueryable } from './sql';

/**
 * The index's access method, operator class and reloptions as the catalog has them (`$1` = index
 * name); no row when the index does not exist.
 */
const INDEX_CATALOG_SQL = `
SELECT am.amname AS am, opc.opcname AS opclass, ic.reloptions AS reloptions
FROM pg_class ic JOIN pg_am am ON am.oid = ic.relam JOIN pg_index i ON i.indexrelid = ic.oid JOIN pg_opclass opc ON opc.oid = i.indclass[0]
WHERE ic.oid = to_regclass(quote_ident($1))`;

/**
 * pgvector's defaults for reloptions a CREATE INDEX did not give (pgvector README, "HNSW":
 * m 16, ef_construction 64; "IVFFlat": lists 100).
 */
const RELOPTION_DEFAULTS: Record<string, Record<string, number>> = { hnsw: { m: 16, ef_construction: 64 }, ivfflat: { lists: 100 } };

/** reloption name → IndexConfig parameter name. */
const PARAM_OF: Record<string, 'm' | 'efConstruction' | 'lists'> = { m: 'm', ef_construction: 'efConstruction', lists: 'lists' };

/**
 * What the server has in effect for one recall plan (recall-sql.ts), read inside ONE
 * transaction with the recall's own settings (`plan.settings`, the transaction-local settings recall runs):
 * `EXPLAIN (COSTS OFF)` of the recall SQL — the index type is the access method of `indexName`
 * when the plan has an `Index Scan using <indexName>` node, else `none`; the index's operator
 * class (→ metric) and reloptions (m, ef_construction, lists; pgvector's defaults where absent)
 * from the catalog; and `SHOW hnsw.ef_search` / `hnsw.iterative_scan` or `ivfflat.probes` /
 * `ivfflat.iterative_scan` (iterative ones only when `iterativeScan`, pgvector ≥ 0.8.0). Throws
 * what the driver throws (the caller wraps it as BACKEND_ERROR).
 */
export async function readIndexInEffect(tx: SqlQueryable, plan: RecallPlan, indexName: string, iterativeScan: boolean): Promise<IndexInEffect> {
  for (const s of plan.settings) await tx.query(s);
  const lines = ((await tx.query(`EXPLAIN (COSTS OFF) ${plan.sql}`, plan.params)).rows as Array<Record<string, string>>).map((r) => r['QUERY PLAN']!);
  const used = lines.some((l) => new RegExp(`Index (?:Only )?Scan using ${escapeRe(indexName)}\\b`).test(l));
  const scanLine = (lines.find((l) => /Scan/.test(l)) ?? lines[0] ?? '').trim();
  const cat = (await tx.query(INDEX_CATALOG_SQL, [indexName])).rows[0] as { am: string; opclass: string; reloptions: string[] | null } | undefined;
  if (!used || !cat) return { type: 'none', metric: null, params: {}, source: `EXPLAIN: ${scanLine}${cat ? '' : `; index ${indexName} does not exist`}` };
  const params: IndexInEffect['params'] = {};
  const rel = { ...RELOPTION_DEFAULTS[cat.am], ...parseReloptions(cat.reloptions ?? []) };
  for (const [k, v] of Object.entries(rel)) if (PARAM_OF[k]) params[PARAM_OF[k]] = v;
  const extra: Record<string, string> = {};
  const show = async (name: string): Promise<string> => String(((await tx.query(`SHOW ${name}`)).rows[0] as Record<string, unknown>)[name]);
  const shown: string[] = [];
  if (cat.am === 'hnsw') {
    params.efSearch = Number(await show('hnsw.ef_search'));
    shown.push('hnsw.ef_search');
    if (iterativeScan) extra['hnsw.iterative_scan'] = await show('hnsw.iterative_scan');
  } else if (cat.am === 'ivfflat') {
    params.probes = Number(await show('ivfflat.probes'));
    shown.push('ivfflat.probes');
    if (iterativeScan) extra['ivfflat.iterative_scan'] = await show('ivfflat.iterative_scan');
  }
  return {
    type: cat.am,
    metric: metricOfOpclass(cat.opclass),
    params,
    ...(Object.keys(extra).length ? { extra } : {}),
    source: `EXPLAIN: ${scanLine}; pg_index opclass ${cat.opclass}, reloptions ${JSON.stringify(cat.reloptions ?? [])}; SHOW ${[...shown, ...Object.keys(extra)].join(', ')} in the recall's transaction`,
  };
}

/** `['m=16', 'ef_construction=64']` → `{ m: 16, ef_construction: 64 }` (numeric options only). */
export function parseReloptions(opts: string[]): Record<string, number> {
  const out: Record<string, number> = {};
  for (const o of opts) {
    const m = /^([a-z_]+)=(\d+)$/.exec(o);
    if (m) out[m[1]!] = Number(m[2]);
  }
  return out;
}

/** The metric of a pgvector operator class, or null for one this adapter never builds. */
export function metricOfOpclass(opclass: string): Metric | null {
  const hit = (Object.entries(OPERATOR_CLASS) as Array<[Metric, string]>).find(([, c]) => c === opclass);
  return hit ? hit[0] : null;
}

function escapeRe(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
