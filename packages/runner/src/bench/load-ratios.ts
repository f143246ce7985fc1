import { resolveTarget, startTarget, type Catalog, type StartedBackend } from '@memory-matrix/targets';
import type { Quantization } from '@memory-matrix/adapter-redis';
import type { GoldenDataset } from '@memory-matrix/spec';
import { runIdOf } from '../run';
import { chromaLoadRatios } from './load-chroma';
import { pgvectorLoadRatios } from './load-pgvector';
import { redisLoadRatios } from './load-redis';
import type { RatioRow } from './measure';
import { endpointOf } from './pg-connection';

/** The targets of the load ratios: one per backend with a server-side bulk path to compare with. */
export const LOAD_TARGETS = { pgvector: 'pgvector@pg17', redis: 'redis@8.0', chroma: 'chroma@1.4' } as const;

/** A tag for names the bench creates: digits of the run id (`[0-9_]`, valid in every backend's names). */
export function benchTag(): string {
  return runIdOf(new Date()).replace(/[^0-9]/g, '_');
}

async function withTarget<T>(catalog: Catalog, name: string, log: (l: string) => void, fn: (b: StartedBackend) => Promise<T>): Promise<T> {
  const t = resolveTarget(catalog, name);
  const backend = await startTarget(t, { runId: runIdOf(new Date()), log });
  try {
    return await fn(backend);
  } finally {
    await backend.stop();
  }
}

/**
 * Every load ratio: pgvector@pg17 (adapter vs COPY text, COPY binary, LangChain.js PGVectorStore),
 * redis@8.0 (adapter vs pipelined VADD), chroma@1.4 (adapter vs collection.add in max batches).
 * Each target is started through `startTarget`, measured (interleaved, median of `rounds`) and
 * stopped before the next. `only` restricts to some backends. Errors (a target that does not
 * start, a bulk path that fails) are passed on.
 */
export async function loadRatios(
  catalog: Catalog,
  ds: GoldenDataset,
  log: (l: string) => void,
  only: Array<keyof typeof LOAD_TARGETS> = ['pgvector', 'redis', 'chroma'],
  rounds = 3,
): Promise<RatioRow[]> {
  const rows: RatioRow[] = [];
  const tag = benchTag();
  if (only.includes('pgvector')) {
    rows.push(
      ...(await withTarget(catalog, LOAD_TARGETS.pgvector, log, async (b) => {
        const url = endpointOf(b, LOAD_TARGETS.pgvector).connectionString!;
        const store = await b.connect();
        try {
          return await pgvectorLoadRatios(LOAD_TARGETS.pgvector, url, store, ds, tag, rounds);
        } finally {
          await store.close();
        }
      })),
    );
  }
  if (only.includes('redis')) {
    const t = resolveTarget(catalog, LOAD_TARGETS.redis);
    const quantization = ((t.driverOptions as { quantization?: Quantization } | undefined)?.quantization ?? 'q8') as Quantization;
    rows.push(
      ...(await withTarget(catalog, LOAD_TARGETS.redis, log, async (b) => {
        const store = await b.connect();
        try {
          return await redisLoadRatios(LOAD_TARGETS.redis, endpointOf(b, LOAD_TARGETS.redis), store, ds, { tag, quantization, index: t.index, rounds });
        } finally {
          await store.close();
        }
      })),
    );
  }
  if (only.includes('chroma')) {
    rows.push(
      ...(await withTarget(catalog, LOAD_TARGETS.chroma, log, async (b) => {
        const store = await b.connect();
        try {
          return await chromaLoadRatios(LOAD_TARGETS.chroma, endpointOf(b, LOAD_TARGETS.chroma), store, ds, tag, rounds);
        } finally {
          await store.close();
        }
      })),
    );
  }
  return rows;
}
