import os from 'node:os';
import { LiveCell, MemoryMatrixError, tieGroups, type Expectation, type GoldenDataset, type IndexConfig, type ScanMode } from '@memory-matrix/spec';
import { startTarget, type ImageSource, type ResolvedTarget } from '@memory-matrix/targets';
import { TOOL_VERSION, displayPath } from '../version';
import { recordFiltered } from './filtered';
import type { InterruptWatch } from './interrupt';
import type { Baseline, BaselineRun } from './model';

/**
 * Parse `--index key=value` overrides (repeatable) onto a target's index config: keys are the
 * fields of its index type (hnsw: m, efConstruction, efSearch; ivfflat: lists, probes), values
 * positive integers. USAGE naming the flag and the target on an unknown key, a bad value, or an
 * index of type `none`. The adapter checks the backend's own ranges when it creates the collection.
 */
export function applyIndexOverride(target: string, index: IndexConfig, specs: string[]): { index: IndexConfig; override: Record<string, number> | null } {
  if (!specs.length) return { index, override: null };
  const keys = Object.keys(index).filter((k) => k !== 'type');
  const override: Record<string, number> = {};
  for (const s of specs) {
    const m = /^([A-Za-z]+)=(\d+)$/.exec(s.trim());
    if (!m) throw new MemoryMatrixError('USAGE', `--index "${s}": expected key=value with a positive integer, e.g. --index efSearch=40`);
    if (!keys.includes(m[1]!)) {
      throw new MemoryMatrixError('USAGE', `--index "${s}": ${target} has a ${index.type} index${keys.length ? ` whose parameters are ${keys.join(', ')}` : ' (no parameters to change)'}`);
    }
    if (Number(m[2]) < 1) throw new MemoryMatrixError('USAGE', `--index "${s}": ${m[1]} must be ≥ 1`);
    override[m[1]!] = Number(m[2]);
  }
  return { index: { ...index, ...override } as IndexConfig, override };
}

/** What `recordBaseline` needs besides the target. */
export interface RecordContext {
  dataset: GoldenDataset;
  /** The dataset's oracle expectation (golden.ts `loadExpectation`) and its sha256: recall against the oracle is kept per run. */
  expectation: Expectation;
  expectationSha256: string;
  runId: string;
  imageSource?: ImageSource;
  docker: boolean;
  argv: string[];
  /** The `--index` override applied to `target.index` (applyIndexOverride), and the catalog's index before it. */
  override?: Record<string, number> | null;
  catalogIndex?: IndexConfig;
  log?: (line: string) => void;
  /** Ctrl-C handling of the command (interrupt.ts): the started backend is tracked there until it is stopped. */
  watch?: InterruptWatch;
}

/**
 * The capability a target needs to be recorded: `vectors` (top-k recall). Returns the sentence
 * naming the target and the capability when it lacks it (the caller refuses or skips it before
 * anything starts), else null.
 */
export function cannotRecord(target: { name: string; capabilities: { vectors: boolean } }): string | null {
  return target.capabilities.vectors ? null : `${target.name} has no capability vectors (it stores no embeddings and answers no top-k recall, so there is nothing to record or diff)`;
}

/**
 * Record a target's baseline: start it with its provider (targets `startTarget`, the same path
 * `memory-matrix run` takes), load the golden memories and build the target's index in a spec
 * `LiveCell`, replay every golden query on the index path and — when the target can force one
 * (`capabilities.exactScan`) — on the exact path, and the dataset's golden filter set (filtered.ts
 * `recordFiltered`, when it has one), then drop what the cell created and stop the
 * backend (also on errors). Returns the baseline with its provenance; throws what the provider
 * or the adapter threw (TARGET_UNAVAILABLE, BACKEND_ERROR …) naming the target.
 */
export async function recordBaseline(target: ResolvedTarget, ctx: RecordContext): Promise<Baseline> {
  const log = ctx.log ?? (() => undefined);
  const s0 = performance.now();
  log(`${target.name}: starting (${target.provider})…`);
  const backend = await startTarget(target, { runId: ctx.runId, imageSource: ctx.imageSource, log });
  ctx.watch?.track(backend);
  const checkpoint = async (): Promise<void> => ctx.watch?.checkpoint();
  const startMs = performance.now() - s0;
  const cell = new LiveCell({
    target: target.name,
    capabilities: target.capabilities,
    tolerances: target.tolerances,
    index: target.index,
    dataset: ctx.dataset,
    expectation: ctx.expectation,
    connect: () => backend.connect(),
  });
  try {
    // A dataset the target cannot hold (its metric, maxDim) has nothing to record: said as such, never a backend error.
    if (cell.fit.vectors) throw new MemoryMatrixError('CAPABILITY_MISSING', `${target.name} cannot hold dataset ${ctx.dataset.manifest.name}: ${cell.fit.vectors}`);
    await checkpoint();
    const loaded = await cell.loaded();
    await checkpoint();
    log(
      `${target.name}: ${backend.info.serverVersion.split(' on ')[0]}; loaded ${ctx.dataset.memories.length} memories (${Math.round(loaded.loadMs)} ms), ${cell.config.index.type} index (${Math.round(loaded.indexMs)} ms)${cell.fit.indexPath ? ` (${cell.fit.indexPath})` : ''}`,
    );
    const index = await replay(cell, 'index', cell.config.index); // none above maxIndexDim (spec fit.ts)
    await checkpoint();
    const exact = target.capabilities.exactScan ? await replay(cell, 'exact', { type: 'none' }) : undefined;
    await checkpoint();
    log(`${target.name}: replayed ${ctx.dataset.queries.length} queries on the index path${exact ? ' and the exact path' : ''}`);
    const filtered = await recordFiltered(cell, log);
    await checkpoint();
    const m = ctx.dataset.manifest;
    return {
      format: 'memory-matrix-baseline',
      version: 1,
      target: target.name,
      backend: target.backend,
      provider: target.provider,
      provenance: {
        tool: { name: 'memory-matrix', version: TOOL_VERSION, node: process.version },
        recordedAt: new Date().toISOString(),
        host: { hostname: os.hostname(), platform: process.platform, arch: process.arch, docker: ctx.docker },
        argv: ctx.argv,
        image: backend.info.image ?? null,
        imageId: backend.info.imageId ?? null,
        serverVersion: backend.info.serverVersion,
        components: backend.info.components,
        catalogIndex: ctx.catalogIndex ?? target.index,
        indexOverride: ctx.override ?? null,
        adapterOptions: target.adapterOptions ?? {},
        tolerances: { ...target.tolerances },
        timings: { startMs, loadMs: loaded.loadMs, indexMs: loaded.indexMs },
      },
      dataset: {
        name: m.name,
        version: String(m.version),
        sha256: ctx.dataset.datasetSha256,
        dir: displayPath(ctx.dataset.dir),
        memories: ctx.dataset.memories.length,
        queries: ctx.dataset.queries.length,
        dim: m.dim,
        metric: m.metric,
        expectationSha256: ctx.expectationSha256,
      },
      runs: exact ? { index, exact } : { index },
      clusterQueries: ctx.dataset.queries
        .filter((q) => {
          const e = cell.expectationFor(q.id);
          return e.hits.length >= q.k && tieGroups(e.hits, target.tolerances.tieEpsilon)[0]!.length >= Math.max(2, q.k); // a cluster has ≥ 2 members
        })
        .map((q) => q.id),
      ...(filtered ? { filtered } : {}),
    };
  } finally {
    await cell.dispose().catch((e: unknown) => log(`${target.name}: cleanup: ${(e as Error).message}`));
    await backend.stop();
    ctx.watch?.release(backend);
  }
}

/** Every golden query on one scan path (LiveCell.queryRuns), kept as top-k ids and scores, with recall against the oracle. */
async function replay(cell: LiveCell, scan: ScanMode, index: IndexConfig): Promise<BaselineRun> {
  const runs = await cell.queryRuns(scan);
  const queries: BaselineRun['queries'] = [];
  let sum = 0;
  let min = 1;
  for (const run of runs.values()) {
    const hits = run.hits.slice(0, run.query.k);
    queries.push({ query: run.query.id, k: run.query.k, ids: hits.map((h) => h.id), scores: hits.map((h) => h.score), ms: Math.round(run.ms * 1000) / 1000 });
    const r = cell.compare(run, 'ann').recallAtK;
    sum += r;
    min = Math.min(min, r);
  }
  return { scan, index, oracleRecall: { mean: queries.length ? sum / queries.length : 1, min }, queries };
}
