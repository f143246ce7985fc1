import { MemoryMatrixError, type CollectionSpec } from '@memory-matrix/spec';
import type { Quantization } from './collection';
import { ADAPTER } from './context';

/**
 * Format tag of the collection marker (`<prefix>{name}:meta`). @2: element attributes of
 * attributes.ts (`t`, `tu`, `e`, `k`, `x_<hex>`) and the `nkeys` registry; a @1 collection (typed
 * `m_<hex>` attributes) is refused at open, never filtered with the wrong layout.
 */
export const MARKER_FORMAT = 'memory-matrix/redis-collection@2';

/** VINFO `quant-type` → quantization (what the server says it stores). */
export const VINFO_QUANT: Record<string, Quantization | undefined> = { int8: 'q8', f32: 'noquant', float32: 'noquant' };

/** The marker JSON: format, the spec as created (name, dim, metric, index, model id) and the quantization. */
export function markerOf(spec: CollectionSpec, quantization: Quantization): string {
  return JSON.stringify({ format: MARKER_FORMAT, ...spec, quantization });
}

/** Parse and check a marker; BACKEND_ERROR naming the key for anything unexpected (never a default). */
export function parseMarker(raw: string, key: string, name: string): { spec: CollectionSpec; quantization: Quantization } {
  const bad = (why: string) => new MemoryMatrixError('BACKEND_ERROR', `${ADAPTER}: collection ${name}: marker ${key} ${why}`);
  let m: Record<string, unknown>;
  try {
    m = JSON.parse(raw) as Record<string, unknown>;
  } catch {
    throw bad('is not JSON');
  }
  if (m?.format !== MARKER_FORMAT) throw bad(`has format ${JSON.stringify(m?.format)}, expected ${MARKER_FORMAT}`);
  if (m.name !== name) throw bad(`names collection ${JSON.stringify(m.name)}`);
  if (!Number.isInteger(m.dim) || (m.dim as number) < 1) throw bad(`has dim ${JSON.stringify(m.dim)}`);
  if (m.metric !== 'cosine') throw bad(`has metric ${JSON.stringify(m.metric)}; Vector Sets are cosine only`);
  const index = m.index as CollectionSpec['index'] | undefined;
  if (!index || (index.type !== 'none' && index.type !== 'hnsw')) throw bad(`has index ${JSON.stringify(m.index)}`);
  if (m.quantization !== 'q8' && m.quantization !== 'noquant') throw bad(`has quantization ${JSON.stringify(m.quantization)}`);
  const spec: CollectionSpec = { name, dim: m.dim as number, metric: 'cosine', index };
  if (typeof m.embeddingModel === 'string') spec.embeddingModel = m.embeddingModel;
  return { spec, quantization: m.quantization };
}
