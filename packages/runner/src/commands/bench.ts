import Table from 'cli-table3';
import { loadGoldenDataset, MemoryMatrixError } from '@memory-matrix/spec';
import { loadCatalog, resolveTarget, startTarget, type Catalog } from '@memory-matrix/targets';
import { loadExpectation } from '../golden';
import { datasetDir, runIdOf } from '../run';
import { cellPhases, START_GOAL_MS, type PhaseRow } from '../bench/phases';
import { loadRatios } from '../bench/load-ratios';
import { oracleRatio } from '../bench/oracle-ratio';
import { GATE_GOAL_MS, timeGate } from '../bench/gate';
import { formatGrowth, formatPoint, parseScale, runPointInChild, SCALE_TARGET } from '../bench/scale';
import { endpointOf } from '../bench/pg-connection';
import { benchTag } from '../bench/load-ratios';
import type { RatioRow } from '../bench/measure';
import type { ScalePoint } from '../bench/scale-point';
import { DEFAULT_BENCH_SECTIONS, type BenchSection } from './bench-sections';
import { DEFAULT_BENCH_PROFILES, profileCosts } from '../bench/profiles';

export { BENCH_SECTIONS, DEFAULT_BENCH_SECTIONS, parseSections, type BenchSection } from './bench-sections';

/** The catalog profile whose targets `bench` times when no --backend is given. */
export const BENCH_PROFILE = 'bench';

/** The `bench` profile's targets. Throws USAGE naming the catalog file when it has none. */
export function benchDefaults(catalog: Catalog): string[] {
  const profile = catalog.profiles.get(BENCH_PROFILE);
  if (!profile) throw new MemoryMatrixError('USAGE', `${catalog.file}: no profile "${BENCH_PROFILE}" (the targets bench times by default); give --backend or add profiles.${BENCH_PROFILE}`);
  return profile.targets;
}

/** Goals from the containers issue, ms: start from a cached image, and the PR gate's wall time. */
export const GOALS = { startMs: START_GOAL_MS, gateMs: GATE_GOAL_MS } as const;

/** Options of `bench` (CLI: --backend, --dataset, --section, --scale). */
export interface BenchOptions {
  /** Targets of the per-cell phases (default: the catalog's bench profile). */
  targets: string[];
  dataset: string;
  /** Sections to run (default DEFAULT_BENCH_SECTIONS: all but `profiles`). */
  sections?: BenchSection[];
  /** Catalog profiles of the `profiles` section (CLI --profile; default DEFAULT_BENCH_PROFILES). */
  profiles?: string[];
  /** --scale as given (`none`, `10k,100k,1m`; default DEFAULT_SCALE). */
  scale?: string;
}

function ratioTable(rows: RatioRow[]): string {
  const table = new Table({ head: ['measured', 'ratio (definition)', 'numerator ms', 'denominator ms', 'ratio', 'goal', 'met'], style: { head: [], border: [] } });
  for (const r of rows) table.push([r.group, r.definition, r.numeratorMs.toFixed(0), r.denominatorMs.toFixed(0), r.ratio.toFixed(2), r.goal, r.met === null ? 'reported' : r.met ? 'yes' : 'NO']);
  return table.toString();
}

function phaseTable(rows: PhaseRow[]): string {
  const table = new Table({ head: ['target', 'phase', 'ms', 'goal ms', 'ms ÷ goal'], style: { head: [], border: [] } });
  for (const [target, phase, ms, goal] of rows) table.push([target, phase, ms.toFixed(0), goal ?? '–', goal ? (ms / goal).toFixed(2) : '–']);
  return table.toString();
}

/**
 * `memory-matrix bench`: figures measured in this one invocation (compare ratios, never times
 * across runs: the machine is shared and noisy). Sections, in order:
 * - `phases`: per target (default the catalog's `bench` profile) a cell's start / load / index /
 *   queries / compare times, start against its goal;
 * - `load`: load ratios against each backend's own bulk path (bench/load-ratios.ts): pgvector@pg17
 *   vs COPY text, COPY binary and LangChain.js PGVectorStore; redis@8.0 vs pipelined VADD;
 *   chroma@1.4 vs collection.add in max batches; each "reference time ÷ adapter time";
 * - `oracle`: the oracle's brute force vs usearch's exact search ("oracle time ÷ library time");
 * - `gate`: `run --profile pr-gate` in process: its phases and wall time against 60 s;
 * - `scale`: the scale curve on pgvector@pg17 (bench/scale.ts), one child process per point;
 * - `profiles` (only when named): each catalog profile of `profiles` run once in process, its wall
 *   time and CPU-seconds (bench/profiles.ts), the figure docs/profiles.md tabulates.
 * Every ratio is printed with its definition and goal. Returns 0, or 1 when a goal is missed or
 * the gate run did not pass. Throws USAGE (no bench profile, bad --section / --scale, unknown
 * target) and passes on a backend's errors (TARGET_UNAVAILABLE, BACKEND_ERROR).
 */
export async function bench(opts: BenchOptions, out: (l: string) => void): Promise<number> {
  const sections = opts.sections ?? [...DEFAULT_BENCH_SECTIONS];
  const scalePoints = parseScale(opts.scale);
  const catalog = loadCatalog();
  const targets = (opts.targets.length ? opts.targets : benchDefaults(catalog)).map((n) => resolveTarget(catalog, n));
  const ds = loadGoldenDataset(datasetDir(opts.dataset));
  let missed = false;
  if (sections.includes('phases')) {
    const tieEpsilon = Math.max(...[...catalog.targets.values()].map((t) => t.tolerances.tieEpsilon));
    const { expectation } = loadExpectation(ds, { update: false, tieEpsilon });
    const rows = await cellPhases(targets, ds, expectation, out);
    out('Phases of one cell per target (ms, measured in this run):');
    out(phaseTable(rows));
    if (rows.some(([, , ms, goal]) => goal !== null && ms > goal)) missed = true;
  }
  const ratios: RatioRow[] = [];
  if (sections.includes('load')) ratios.push(...(await loadRatios(catalog, ds, out)));
  let oracleNote: string | undefined;
  if (sections.includes('oracle')) {
    const r = await oracleRatio(ds);
    ratios.push(r.row);
    oracleNote = `oracle vs usearch: top-${r.row.group.match(/k (\d+)/)?.[1]} id sets equal for ${r.sameIds}/${r.queries} queries; ${r.nearTieOnly} more differ only at a near-tie (|Δ| ≤ 1e-6) at the k-th score; ${r.queries - r.sameIds - r.nearTieOnly} differ otherwise`;
  }
  if (ratios.length) {
    out('Ratios, each pair measured interleaved in this process (median of 3):');
    out(ratioTable(ratios));
    if (oracleNote) out(oracleNote);
    if (ratios.some((r) => r.met === false)) missed = true;
  }
  if (sections.includes('gate')) {
    const g = await timeGate(opts.dataset);
    out(`PR gate (run --profile pr-gate in process, targets ${g.targets.join(', ')}):`);
    const table = new Table({ head: ['phase', 'ms', 'goal ms', 'ms ÷ goal'], style: { head: [], border: [] } });
    for (const p of g.phases) table.push([p.what, p.ms.toFixed(0), p.goalMs ?? '–', p.goalMs ? (p.ms / p.goalMs).toFixed(2) : '–']);
    out(table.toString());
    if (!g.met || g.exitCode !== 0) missed = true;
  }
  if (sections.includes('scale') && scalePoints.length) {
    const points: ScalePoint[] = [];
    const backend = await startTarget(resolveTarget(catalog, SCALE_TARGET), { runId: runIdOf(new Date()), log: out });
    try {
      const url = endpointOf(backend, SCALE_TARGET).connectionString!;
      const tag = benchTag();
      out(`Scale curve (memories derived from ${ds.manifest.name}, bench/derive.ts; one process per point):`);
      for (const n of scalePoints) {
        const p = await runPointInChild(url, ds.dir, n, `bench_${tag}_scale_${n}`, out);
        const f = formatPoint(p);
        f.lines.forEach((l) => out(l)); // each point as soon as it is done (1 M takes long)
        if (points.length) out(formatGrowth(points[points.length - 1]!, p));
        points.push(p);
        if (!f.met) missed = true;
      }
    } finally {
      await backend.stop();
    }
    if (!scalePoints.includes(1_000_000)) out('(1 M not run: it takes longer than ~10 min on this machine; run `pnpm bench --section scale --scale 1m` for it)');
  }
  if (sections.includes('profiles')) {
    const names = opts.profiles?.length ? opts.profiles : [...DEFAULT_BENCH_PROFILES];
    const p = await profileCosts(names, opts.dataset, out);
    out('Profiles, each run once in this process (CPU-seconds compare across machines; wall times follow the host):');
    out(p.text);
    if (!p.allPassed) missed = true;
  }
  out(missed ? 'a goal was missed (see the tables)' : 'every goal met');
  return missed ? 1 : 0;
}
