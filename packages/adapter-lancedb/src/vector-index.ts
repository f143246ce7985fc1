import { Index, type Table, type VectorQuery } from '@lancedb/lancedb';
import { isHnsw, isIvfflat, MemoryMatrixError, type CollectionSpec, type IndexInEffect, type Metric } from '@memory-matrix/spec';
import { ADAPTER } from './context';
import { LANCE_DISTANCE } from './scores';

/** The target's `adapterOptions` (driver.ts schema): IVF partitions of the IVF_HNSW_SQ index (LanceDB recommends 1 for HNSW; each partition is its own graph). */
export interface LancedbIndexOptions {
  hnswPartitions: number;
}

/** Defaults of `LancedbIndexOptions`. */
export const DEFAULT_INDEX_OPTIONS: LancedbIndexOptions = { hnswPartitions: 1 };

/** LanceDB's `indexType` names (`listIndices`, `indexStats`) → the contract's index type names. */
const INDEX_TYPES: Record<string, string> = { IVF_HNSW_SQ: 'hnsw', IvfHnswSq: 'hnsw', IVF_FLAT: 'ivfflat', IvfFlat: 'ivfflat' };

/** LanceDB's reported distance type → contract metric. */
const METRIC_OF: Record<string, Metric> = { cosine: 'cosine', dot: 'ip', l2: 'l2' };

/**
 * Build (replace) the vector index on `embedding`:
 * - `hnsw` → `Index.hnswSq({ distanceType, m, efConstruction, numPartitions: hnswPartitions })`
 *   (IVF_HNSW_SQ: an HNSW graph per IVF partition over 8-bit scalar-quantized vectors; LanceDB's
 *   HNSW indexes are all IVF-partitioned and quantized: IVF_HNSW_SQ / IVF_HNSW_PQ);
 * - `ivfflat` → `Index.ivfFlat({ distanceType, numPartitions: lists })` (IVF over raw float32).
 * Nothing to do on an empty table (IVF training needs rows). Throws BACKEND_ERROR (LanceDB's).
 */
export async function buildVectorIndex(tbl: Table, spec: CollectionSpec, opts: LancedbIndexOptions): Promise<void> {
  if ((await tbl.countRows()) === 0) return;
  const distanceType = LANCE_DISTANCE[spec.metric];
  const idx = spec.index;
  let config: Index;
  if (isHnsw(idx)) config = Index.hnswSq({ distanceType, m: idx.m, efConstruction: idx.efConstruction, numPartitions: opts.hnswPartitions });
  else if (isIvfflat(idx)) config = Index.ivfFlat({ distanceType, numPartitions: idx.lists });
  else return;
  await tbl.createIndex('embedding', { config, replace: true });
}

/**
 * What LanceDB reports for the recall `vq`: the index on `embedding` (`listIndices` → its name,
 * `indexStats` → `indexType`, `distanceType`), and the query plan (`explainPlan`): when the plan
 * has no ANN operator (`ANNSubIndex` / `ANNIvfPartition`), the recall is a flat scan and the
 * type is `none`. LanceDB reports no HNSW m / ef construction / ef search nor IVF probes, so
 * `params` holds the IVF partition count only when `indexDetails` has it; `extra` the LanceDB
 * index type and the plan's ANN line.
 */
export async function readIndexInEffect(tbl: Table, spec: CollectionSpec, vq: VectorQuery): Promise<IndexInEffect> {
  const plan = await vq.explainPlan(true);
  const ann = plan.split('\n').find((l) => /ANN(SubIndex|IvfPartition)/.test(l));
  const indices = (await tbl.listIndices()).filter((i) => i.columns.includes('embedding'));
  if (!ann || indices.length === 0) return { type: 'none', metric: null, params: {}, source: `explainPlan: no ANN operator; listIndices: ${indices.map((i) => i.name).join(', ') || 'none'}` };
  const cfg = indices[0]!;
  const stats = await tbl.indexStats(cfg.name);
  if (!stats) throw new MemoryMatrixError('BACKEND_ERROR', `${ADAPTER}: index ${cfg.name} is listed but has no statistics`);
  const type = INDEX_TYPES[stats.indexType] ?? stats.indexType;
  const metric = stats.distanceType !== undefined ? METRIC_OF[stats.distanceType.toLowerCase()] : undefined;
  if (!metric) throw new MemoryMatrixError('BACKEND_ERROR', `${ADAPTER}: index ${cfg.name} reports distance type ${String(stats.distanceType)}, not one of cosine, dot, l2`);
  const params: IndexInEffect['params'] = {};
  const details = cfg.indexDetails as Record<string, unknown> | undefined;
  if (isIvfflat(spec.index) && typeof details?.num_partitions === 'number') params.lists = details.num_partitions;
  return {
    type,
    metric,
    params,
    extra: { lanceIndexType: stats.indexType, plan: ann.trim() },
    source: `listIndices: ${cfg.name}; indexStats: ${stats.indexType} ${stats.distanceType}; explainPlan: ${ann.trim()}`,
  };
}
