import path from 'node:path';
import { MemoryMatrixError } from '@memory-matrix/spec';
import { dockerStatus, redactUrl, type ImageSource } from '@memory-matrix/backends';
import { runIdOf } from '../run';
import { selectTargets } from '../select';
import { defaultBaselineFile, writeBaseline } from './file';
import { applyIndexOverride, recordBaseline } from './record';
import { baselineCatalog, loadGoldenInputs, prepareProviders } from './setup';

/** Options of `memory-matrix record`. */
export interface RecordOptions {
  backends: string[];
  /** Used when no --backend is given (its fallback targets when no Docker engine answers). */
  profile?: string;
  dataset: string;
  /** One file for one target; default `matrix-baselines/<target>.json` (file.ts). */
  out?: string;
  index: string[];
  imageSource?: ImageSource;
  argv: string[];
}

/**
 * `memory-matrix record`: record each selected target's baseline (record.ts) into its file,
 * written atomically. Everything is validated (catalog, targets, --index, --out, golden data and
 * its expectation) before any backend starts. Returns the exit status: 0 every target recorded,
 * 2 otherwise (the error printed names the target; the other targets are still recorded).
 */
export async function recordCommand(o: RecordOptions, log: (line: string) => void): Promise<number> {
  const catalog = baselineCatalog();
  if (!o.backends.length && !o.profile) throw new MemoryMatrixError('USAGE', 'record: give --backend <target> (repeatable) or --profile <name>');
  const docker = (await dockerStatus()).available;
  const { targets } = selectTargets(catalog, { backends: o.backends, profile: o.profile ?? 'default', docker, shard: null });
  if (o.out && targets.length > 1) throw new MemoryMatrixError('USAGE', `--out ${o.out}: names one file but ${targets.length} targets are selected (${targets.map((t) => t.name).join(', ')}); leave --out out to write matrix-baselines/<target>.json each`);
  const plans = targets.map((t) => {
    const { index, override } = applyIndexOverride(t.name, t.index, o.index);
    return { target: { ...t, index }, catalogIndex: t.index, override, file: o.out ? path.resolve(o.out) : defaultBaselineFile(t.name) };
  });
  const golden = loadGoldenInputs(catalog, o.dataset);
  await prepareProviders(plans.map((p) => p.target), docker, log);
  let failed = 0;
  for (const p of plans) {
    try {
      const b = await recordBaseline(p.target, { ...golden, runId: runIdOf(new Date()), imageSource: o.imageSource, docker, argv: o.argv.map(redactUrl), override: p.override, catalogIndex: p.catalogIndex, log });
      writeBaseline(b, p.file);
      const ex = b.runs.exact ? `, exact path recall@k ${b.runs.exact.oracleRecall.mean.toFixed(4)}` : '';
      log(`recorded ${b.target} → ${path.relative(process.cwd(), p.file) || p.file} (${b.runs.index.queries.length} queries; index path recall@k vs oracle ${b.runs.index.oracleRecall.mean.toFixed(4)}${ex})`);
    } catch (e) {
      failed++;
      const err = e as { code?: string; message?: string };
      log(`memory-matrix: ${p.target.name}: ${err.code ?? 'ERROR'}: ${err.message ?? String(e)}`);
    }
  }
  return failed ? 2 : 0;
}
