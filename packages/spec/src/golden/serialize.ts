import { sortedMetadataValue } from '../metadata-value';
import type { Metadata, MemoryRecord, RecallFilter } from '../types';
import type { GoldenManifest } from './manifest';
import type { GoldenQuery } from './types';

/**
 * Canonical serialisation of golden files (golden-data/FORMAT.md): fixed key order, metadata
 * keys sorted, no spaces, one record per line ending in '\n'; manifest.json indented by 2 with a
 * final '\n'. golden-data/build/lib/write.mjs produces the same bytes.
 */

/** Metadata with its keys sorted at every level (arrays keep their order). */
const sortedMetadata = <M extends Metadata>(m: M): M =>
  Object.fromEntries(
    Object.keys(m)
      .sort()
      .map((k) => [k, sortedMetadataValue(m[k]!)]),
  ) as M;

/** One memories.jsonl line (without '\n'): id, namespace, text, kind, createdAt, metadata. */
export function memoryToLine(r: MemoryRecord): string {
  return JSON.stringify({ id: r.id, namespace: r.namespace, text: r.text, kind: r.kind, createdAt: r.createdAt, metadata: sortedMetadata(r.metadata) });
}

function canonicalFilter(f: RecallFilter): RecallFilter {
  const out: RecallFilter = {};
  if (f.namespaces !== undefined) out.namespaces = f.namespaces;
  if (f.kinds !== undefined) out.kinds = f.kinds;
  if (f.metadata !== undefined) out.metadata = sortedMetadata(f.metadata);
  return out;
}

/** One queries.jsonl line (without '\n'): id, k, filter?, minScore?, now?, purpose, note?. */
export function queryToLine(q: GoldenQuery): string {
  const o: Record<string, unknown> = { id: q.id, k: q.k };
  if (q.filter !== undefined) o.filter = canonicalFilter(q.filter);
  if (q.minScore !== undefined) o.minScore = q.minScore;
  if (q.now !== undefined) o.now = q.now;
  o.purpose = q.purpose;
  if (q.note !== undefined) o.note = q.note;
  return JSON.stringify(o);
}

const entry = (e: { source: string; licence: string; note?: string }) => (e.note === undefined ? { source: e.source, licence: e.licence } : { source: e.source, licence: e.licence, note: e.note });

/** manifest.json text with keys in the documented order. */
export function manifestToText(m: GoldenManifest): string {
  const f = m.files;
  const canonical = {
    format: m.format,
    name: m.name,
    version: m.version,
    dim: m.dim,
    metric: m.metric,
    normalization: m.normalization,
    embeddingModel: { id: m.embeddingModel.id, description: m.embeddingModel.description, source: m.embeddingModel.source },
    counts: { memories: m.counts.memories, queries: m.counts.queries, namespaces: m.counts.namespaces },
    provenance: { text: m.provenance.text.map(entry), vectors: entry(m.provenance.vectors), builder: m.provenance.builder, seed: m.provenance.seed },
    files: {
      'memories.jsonl': { sha256: f['memories.jsonl'].sha256, bytes: f['memories.jsonl'].bytes },
      'memories.f32': { sha256: f['memories.f32'].sha256, bytes: f['memories.f32'].bytes },
      'queries.jsonl': { sha256: f['queries.jsonl'].sha256, bytes: f['queries.jsonl'].bytes },
      'queries.f32': { sha256: f['queries.f32'].sha256, bytes: f['queries.f32'].bytes },
    },
  };
  return JSON.stringify(canonical, null, 2) + '\n';
}
