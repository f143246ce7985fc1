import { mkdirSync } from 'node:fs';
import { defineDriver, hnswIndexSchema, ivfflatIndexSchema, type EmbeddedEngine, type EmbeddedInstance, type MemoryStore, type ScoreConversion } from '@memory-matrix/spec';
import { lancedbPackageVersions } from './driver-versions';
import { lancedbEmbeddedEngine } from './engine';
import { createLancedbStore, LANCEDB_CAPABILITIES } from './lancedb-adapter';
import { lancedbAdapterOptionsSchema, type LancedbAdapterOptions } from './options';
import { lancedbProcessEngine } from './process/engine';
import { lancedbToCanonical } from './scores';

/** LanceDB `_distance` → canonical score (scores.ts has the sources). */
export const LANCEDB_SCORES: ScoreConversion = {
  formula:
    'LanceDB _distance: cosine d = 1 − cos → 1 − d; dot d = 1 − x·y → 1 − d; l2 d = squared Euclidean distance → −√d (LanceDB DistanceType docs, rust/lancedb/src/lib.rs v0.37.1; lance-linalg distance kernels)',
  toCanonical: lancedbToCanonical,
};

/** The versions an instance reports: the loaded packages (LanceDB has no version query). */
async function reportedVersions(): Promise<{ serverVersion: string; components: Record<string, string> }> {
  const store = await createLancedbStore();
  try {
    const s = await store.serverInfo();
    return { serverVersion: s.server, components: s.components };
  } finally {
    await store.close();
  }
}

/**
 * Engine `lancedb-0.37`: `@lancedb/lancedb` 0.37.1 (Rust core via napi, linux-x64-gnu binary) in
 * this process, on one database directory.
 * - no `dataDir`: `lancedbEmbeddedEngine()` (a temp dir, removed at close);
 * - `dataDir`: that directory (created), kept at close and reopened by the same directory.
 * Every `connect()` is a new `lancedb.connect` on the directory.
 * `faultProcess`: the same store in a process of its own that owns the directory (process/engine.ts),
 * which the fault checks kill with SIGKILL and restart (catalog `durability:` of an embedded target).
 */
const lancedbEngine: EmbeddedEngine<LancedbAdapterOptions> = {
  description: 'LanceDB 0.37 (@lancedb/lancedb, Rust core via napi), in this process',
  preflight: lancedbPackageVersions,
  faultProcess: lancedbProcessEngine as EmbeddedEngine<LancedbAdapterOptions>['faultProcess'],
  async open({ dataDir, adapterOptions }): Promise<EmbeddedInstance> {
    const index = { hnswPartitions: adapterOptions?.hnswPartitions ?? 1 };
    if (dataDir === undefined) {
      const engine = await lancedbEmbeddedEngine(index);
      return { versions: reportedVersions, connect: (): Promise<MemoryStore> => engine.connect(), close: () => engine.stop() };
    }
    mkdirSync(dataDir, { recursive: true });
    return {
      versions: reportedVersions,
      connect: (): Promise<MemoryStore> => createLancedbStore({ dir: dataDir, index }),
      // every store was closed by the provider; the directory stays for the next open of dataDir
      close: async () => undefined,
    };
  },
};

/**
 * The lancedb driver: agent memory in a local LanceDB database directory (one Lance table per
 * collection). Offers `embedded` (engine `lancedb-0.37`) only: LanceDB OSS is a library; its
 * server is LanceDB Cloud / Enterprise. `adapterOptions`: `hnswPartitions` (options.ts).
 */
export const lancedbDriver = defineDriver<LancedbAdapterOptions>({
  name: 'lancedb',
  description: 'LanceDB (@lancedb/lancedb, in process)',
  capabilities: LANCEDB_CAPABILITIES,
  scores: LANCEDB_SCORES,
  /** Index types: HNSW (built as IVF_HNSW_SQ; m, efConstruction, efSearch) and IVFFlat (IVF_FLAT; lists, probes); spec hnswIndexSchema, ivfflatIndexSchema. */
  indexes: { hnsw: hnswIndexSchema, ivfflat: ivfflatIndexSchema },
  adapterOptions: lancedbAdapterOptionsSchema,
  embedded: { engines: { 'lancedb-0.37': lancedbEngine } },
});
