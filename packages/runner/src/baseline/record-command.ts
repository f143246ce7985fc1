import path from 'node:path';
import { MemoryMatrixError } from '@memory-matrix/spec';
import { dockerStatus, redactUrl, type ImageSource } from '@memory-matrix/targets';
import { runIdOf } from '../run';
import { selectTargets } from '../select';
import { tempFileOf } from '../report/atomic';
import { checkOutFile, defaultBaselineFile, writeBaseline } from './file';
import { watchInterrupt } from './interrupt';
import { applyIndexOverride, cannotRecord, recordBaseline } from './record';
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
 * written atomically. Everything is validated (catalog, targets, their `vectors` capability,
 * --index, --out, golden data and its expectation) before any backend starts:
 * - a target without capability `vectors` named by --backend: CAPABILITY_MISSING naming it (exit 2);
 *   one from --profile is skipped with the reason printed, the others are recorded;
 * - --out: one target only; a directory or an existing file that is not a baseline: USAGE (file.ts `checkOutFile`).
 * On SIGINT / SIGTERM (interrupt.ts) the started backend is stopped, no baseline or temporary file
 * is left half-written, `INTERRUPTED` is printed with what was recorded, and the process exits 130 / 143.
 * Returns the exit status: 0 every (non-skipped) target recorded, 2 otherwise (the error printed
 * names the target; the other targets are still recorded).
 */
export async function recordCommand(o: RecordOptions, log: (line: string) => void): Promise<number> {
  const catalog = baselineCatalog();
  if (!o.backends.length && !o.profile) throw new MemoryMatrixError('USAGE', 'record: give --backend <target> (repeatable) or --profile <name>');
  const docker = (await dockerStatus()).available;
  const selected = selectTargets(catalog, { backends: o.backends, profile: o.profile ?? 'default', docker, shard: null }).targets;
  const refused = selected.map((t) => ({ t, why: cannotRecord(t) })).filter((x): x is { t: typeof x.t; why: string } => x.why !== null);
  if (refused.length && o.backends.length) throw new MemoryMatrixError('CAPABILITY_MISSING', `record --backend: ${refused.map((r) => r.why).join('; ')}`);
  for (const r of refused) log(`skipped ${r.t.name}: ${r.why}`);
  const targets = selected.filter((t) => !cannotRecord(t));
  if (!targets.length) throw new MemoryMatrixError('CAPABILITY_MISSING', `record --profile ${o.profile}: no target of it can be recorded (every one lacks capability vectors)`);
  if (o.out && targets.length > 1)
    throw new MemoryMatrixError(
      'USAGE',
      `--out ${o.out}: names one file but ${targets.length} targets are selected (${targets.map((t) => t.name).join(', ')}); leave --out out to write matrix-baselines/<target>.json each`,
    );
  if (o.out) checkOutFile(path.resolve(o.out));
  const plans = targets.map((t) => {
    const { index, override } = applyIndexOverride(t.name, t.index, o.index);
    return { target: { ...t, index }, catalogIndex: t.index, override, file: o.out ? path.resolve(o.out) : defaultBaselineFile(t.name) };
  });
  const golden = loadGoldenInputs(catalog, o.dataset);
  const recorded: string[] = [];
  const watch = watchInterrupt(log, (sig) => {
    log(
      `INTERRUPTED by ${sig}: ${recorded.length ? `recorded before it: ${recorded.join(', ')}` : 'nothing recorded'}; no baseline file was half-written (${plans.length - recorded.length} target(s) not recorded)`,
    );
  });
  for (const p of plans) watch.pending(tempFileOf(p.file));
  let failed = 0;
  try {
    await prepareProviders(
      plans.map((p) => p.target),
      docker,
      log,
    );
    for (const p of plans) {
      try {
        const b = await recordBaseline(p.target, {
          ...golden,
          runId: runIdOf(new Date()),
          imageSource: o.imageSource,
          docker,
          argv: o.argv.map(redactUrl),
          override: p.override,
          catalogIndex: p.catalogIndex,
          log,
          watch,
        });
        if (watch.signal) break;
        writeBaseline(b, p.file);
        recorded.push(path.relative(process.cwd(), p.file) || p.file);
        const ex = b.runs.exact ? `, exact path recall@k ${b.runs.exact.oracleRecall.mean.toFixed(4)}` : '';
        log(`recorded ${b.target} → ${recorded[recorded.length - 1]} (${b.runs.index.queries.length} queries; index path recall@k vs oracle ${b.runs.index.oracleRecall.mean.toFixed(4)}${ex})`);
      } catch (e) {
        if (watch.signal) break; // the teardown's error, not the target's
        failed++;
        const err = e as { code?: string; message?: string };
        log(`memory-matrix: ${p.target.name}: ${err.code ?? 'ERROR'}: ${err.message ?? String(e)}`);
      }
    }
    await watch.checkpoint().catch(() => undefined); // a signal dispatched only now still interrupts
  } finally {
    if (!watch.signal) watch.dispose();
  }
  if (watch.signal) return new Promise<number>(() => undefined); // the signal handler prints INTERRUPTED and exits
  return failed ? 2 : 0;
}
