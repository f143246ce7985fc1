import {
  MEMORY_KINDS,
  MemoryMatrixError,
  parseInstant,
  validateDecay,
  validateVector,
  type CollectionSpec,
  type Metadata,
  type MemoryRecord,
  type RecallFilter,
  type RecallQuery,
} from '@memory-matrix/spec';
import { ADAPTER } from './context';
import { validateName } from './keys';

/**
 * Input validation, run BEFORE anything is sent to Redis, so a bad record fails the whole call
 * with nothing written (CHECKS.md C11, C12). Messages start with `redis:` and name the collection,
 * record id and index, or field. Codes: DIMENSION_MISMATCH, INVALID_VECTOR, INVALID_INPUT,
 * CAPABILITY_MISSING.
 */

/** Millisecond instant `YYYY-MM-DDTHH:MM:SS.sssZ` (chat-history payloads; memories use spec time.ts). */
export const ISO_INSTANT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
/** Largest dimension Vector Sets accept is far above this; 16000 is the spec's bound. */
export const MAX_DIM = 16000;
/** HNSW M and EF bounds Redis accepts (vset.c: M 4..4096 is checked as ≥ 4; EF > 0). */
const M_RANGE = [4, 4096] as const;
const EF_RANGE = [1, 1_000_000] as const;
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

function invalid(message: string): MemoryMatrixError {
  return new MemoryMatrixError('INVALID_INPUT', `${ADAPTER}: ${message}`);
}

/** Well-formed Unicode text (no lone surrogate); INVALID_INPUT naming `where`. */
export function checkText(value: unknown, where: string): asserts value is string {
  if (typeof value !== 'string') throw invalid(`${where} must be a string, got ${typeof value}`);
  if (LONE_SURROGATE.test(value)) throw invalid(`${where} contains a lone UTF-16 surrogate (not well-formed Unicode)`);
}

/** Metadata: an object of JSON scalars; numbers finite and not −0 (JSON cannot carry −0). */
export function checkMetadata(m: unknown, where: string): asserts m is Metadata {
  if (typeof m !== 'object' || m === null || Array.isArray(m)) throw invalid(`${where} must be an object of JSON scalars`);
  for (const [k, v] of Object.entries(m)) {
    checkText(k, `${where} key`);
    if (v === null || typeof v === 'string' || typeof v === 'boolean') {
      if (typeof v === 'string') checkText(v, `${where}.${k}`);
      continue;
    }
    if (typeof v !== 'number' || !Number.isFinite(v) || Object.is(v, -0)) {
      throw invalid(`${where}.${k} must be a string, finite number (not −0), boolean or null, got ${Object.is(v, -0) ? '-0' : String(v)}`);
    }
  }
}

/** Validate a collection spec; Vector Sets compare by cosine only. */
export function validateSpec(spec: CollectionSpec): void {
  validateName(spec.name);
  const where = `collection ${spec.name}`;
  if (!Number.isInteger(spec.dim) || spec.dim < 1 || spec.dim > MAX_DIM) throw invalid(`${where}: dim must be an integer in 1..${MAX_DIM}, got ${spec.dim}`);
  if (spec.metric !== 'cosine') {
    throw new MemoryMatrixError('CAPABILITY_MISSING', `${ADAPTER}: ${where}: Vector Sets compare by cosine only; metric ${spec.metric} is not available (RediSearch would be)`);
  }
  if (spec.embeddingModel !== undefined) checkText(spec.embeddingModel, `${where}: embeddingModel`);
  const ix = spec.index;
  const int = (v: unknown, [lo, hi]: readonly [number, number], field: string) => {
    if (!Number.isInteger(v) || (v as number) < lo || (v as number) > hi) throw invalid(`${where}: index.${field} must be an integer in ${lo}..${hi}, got ${String(v)}`);
  };
  if (ix?.type === 'none') return;
  if (ix?.type === 'hnsw') {
    int(ix.m, M_RANGE, 'm');
    int(ix.efConstruction, EF_RANGE, 'efConstruction');
    int(ix.efSearch, EF_RANGE, 'efSearch');
    return;
  }
  if (ix?.type === 'ivfflat') throw new MemoryMatrixError('CAPABILITY_MISSING', `${ADAPTER}: ${where}: Vector Sets have no IVFFlat index (HNSW only)`);
  throw invalid(`${where}: index.type must be none or hnsw, got ${JSON.stringify((ix as { type?: unknown })?.type)}`);
}

/** Validate every record of an upsert (all before any write); returns them last-wins by id, in id order. */
export function validateRecords(records: MemoryRecord[], dim: number, collection: string): MemoryRecord[] {
  if (!Array.isArray(records)) throw invalid(`upsert into ${collection}: records must be an array`);
  const byId = new Map<string, MemoryRecord>();
  records.forEach((r, i) => {
    const where = `upsert into ${collection}: record ${i}${typeof r?.id === 'string' ? ` (id ${r.id})` : ''}`;
    if (typeof r !== 'object' || r === null) throw invalid(`${where} is not an object`);
    checkText(r.id, `${where}: id`);
    if (r.id.length < 1 || r.id.length > 256) throw invalid(`${where}: id must have 1..256 characters`);
    checkText(r.namespace, `${where}: namespace`);
    checkText(r.text, `${where}: text`);
    if (!MEMORY_KINDS.includes(r.kind)) throw invalid(`${where}: kind must be one of ${MEMORY_KINDS.join(', ')}, got ${JSON.stringify(r.kind)}`);
    parseInstant(r.createdAt, `${ADAPTER}: ${where}: createdAt`); // canonical ms or µs instant, UTC only (spec time.ts)
    checkMetadata(r.metadata, `${where}: metadata`);
    if (!(r.embedding instanceof Float32Array)) throw invalid(`${where}: embedding must be a Float32Array`);
    validateVector(r.embedding, dim, 'cosine', `${ADAPTER}: ${where}: embedding`);
    byId.set(r.id, r);
  });
  return [...byId.values()].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
}

/** Validate a recall query against the collection's dimension. */
export function validateQuery(q: RecallQuery, dim: number, collection: string): void {
  const where = `recall on ${collection}`;
  if (!(q?.vector instanceof Float32Array)) throw invalid(`${where}: vector must be a Float32Array`);
  validateVector(q.vector, dim, 'cosine', `${ADAPTER}: ${where}: query vector`);
  if (!Number.isInteger(q.k) || q.k < 1 || q.k > 1000) throw invalid(`${where}: k must be an integer in 1..1000, got ${q.k}`);
  if (q.minScore !== undefined && !Number.isFinite(q.minScore)) throw invalid(`${where}: minScore must be finite, got ${q.minScore}`);
  if (q.scan !== undefined && q.scan !== 'exact' && q.scan !== 'index') throw invalid(`${where}: scan must be exact or index, got ${JSON.stringify(q.scan)}`);
  validateFilter(q.filter, where);
  validateDecay(q, 'cosine', `${ADAPTER}: ${where}`);
}

/** Validate a filter's shape (lists of strings, metadata scalars). */
export function validateFilter(f: RecallFilter | undefined, where: string): void {
  if (f === undefined) return;
  if (typeof f !== 'object' || f === null) throw invalid(`${where}: filter must be an object`);
  for (const field of ['namespaces', 'kinds'] as const) {
    const v = f[field];
    if (v !== undefined && (!Array.isArray(v) || v.some((x) => typeof x !== 'string'))) throw invalid(`${where}: filter.${field} must be a list of strings`);
  }
  if (f.metadata !== undefined) {
    if (typeof f.metadata !== 'object' || f.metadata === null) throw invalid(`${where}: filter.metadata must be an object`);
    for (const [k, v] of Object.entries(f.metadata)) {
      if (!(v === null || typeof v === 'string' || typeof v === 'boolean' || (typeof v === 'number' && Number.isFinite(v)))) {
        throw invalid(`${where}: filter.metadata.${k} must be a JSON scalar, got ${String(v)}`);
      }
    }
  }
}
