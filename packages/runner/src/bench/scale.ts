import { spawn } from 'node:child_process';
import path from 'node:path';
import { MemoryMatrixError } from '@memory-matrix/spec';
import type { ScalePoint } from './scale-point';

/** Scale points `pnpm bench` runs when --scale is not given: 10 k, 100 k and 1 M (the 1 M point took 2 min 24 s here; docs/bench.md). */
export const DEFAULT_SCALE = [10_000, 100_000, 1_000_000];
/** The target of the scale curve. */
export const SCALE_TARGET = 'pgvector@pg17';
/** Peak RSS goal: at most 2 × the raw vector bytes (issue). */
export const RSS_GOAL = 2;

/**
 * Parse `--scale`: `none`, or comma-separated sizes `10k`, `100k`, `1m`, `250000` (k = 10³,
 * m = 10⁶), each 1..10 M, returned ascending without repeats. Throws USAGE naming the bad item.
 */
export function parseScale(spec: string | undefined): number[] {
  if (spec === undefined) return DEFAULT_SCALE;
  if (spec.trim() === 'none') return [];
  const out = new Set<number>();
  for (const part of spec.split(',')) {
    const m = /^\s*(\d+)\s*([kKmM]?)\s*$/.exec(part);
    const n = m ? Number(m[1]) * (m[2]!.toLowerCase() === 'k' ? 1e3 : m[2]!.toLowerCase() === 'm' ? 1e6 : 1) : NaN;
    if (!Number.isInteger(n) || n < 1 || n > 10_000_000) throw new MemoryMatrixError('USAGE', `--scale: ${JSON.stringify(part)} is not a size like 10k, 100k, 1m or 250000 (1..10m), nor "none"`);
    out.add(n);
  }
  return [...out].sort((a, b) => a - b);
}

/**
 * V8 old-space limit of a scale point's process, MB. Without it V8 lets the garbage of finished
 * chunks pile up before a major GC (measured: peak RSS 288 MB at 10 k and 468 MB at 100 k, Node
 * baseline ≈ 155 MB), so maxRSS measured V8's laziness instead of what the pipeline holds. Live
 * data of a point is the modules + golden set (≈ 100 MB of heap) plus one chunk of 10,000
 * records and their SQL literals (≈ 80 MB); 384 MB leaves room for both, and a pipeline that
 * kept the N records would fail here instead of passing.
 */
export const CHILD_HEAP_MB = 384;

/**
 * Run one scale point in a child Node process (scale-child.ts through tsx) against the postgres
 * `url`, returning its ScalePoint. The child's stderr (progress) goes to `log`. Throws
 * BACKEND_ERROR with the child's last stderr lines when it exits non-zero or prints no result.
 */
export function runPointInChild(url: string, dataset: string, n: number, name: string, log: (l: string) => void): Promise<ScalePoint> {
  return new Promise((resolve, reject) => {
    const child = spawn(
      process.execPath,
      [`--max-old-space-size=${CHILD_HEAP_MB}`, '--require', require.resolve('tsx/cjs'), require.resolve(`./scale-child${path.extname(__filename)}`), JSON.stringify({ url, dataset, n, name })],
      {
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => {
      stderr += d.toString();
      const lines = stderr.split('\n');
      stderr = lines.pop()!;
      for (const l of lines) log(l);
    });
    child.on('error', reject);
    child.on('close', (code) => {
      const line = stdout.trim().split('\n').pop();
      if (code === 0 && line) return resolve(JSON.parse(line) as ScalePoint);
      reject(new MemoryMatrixError('BACKEND_ERROR', `scale point ${n}: child exited ${code}${stderr ? `: ${stderr.slice(-2000)}` : ''}`));
    });
  });
}

/** Growth exponent between two points: log(t2 / t1) ÷ log(n2 / n1) (1 = linear). */
export function growthExponent(n1: number, t1: number, n2: number, t2: number): number {
  return Math.log(t2 / t1) / Math.log(n2 / n1);
}

/** The timed phases of a ScalePoint, in pipeline order. */
export const SCALE_PHASES: Array<[keyof ScalePoint, string]> = [
  ['loadMs', 'load (adapter upsert)'],
  ['indexMs', 'index build'],
  ['exactQueriesMs', 'queries, exact scan'],
  ['indexQueriesMs', 'queries, index scan'],
  ['oracleMs', 'oracle (streaming)'],
  ['compareMs', 'compare'],
];

/** Exponent above which a phase is reported as growing faster than linear (noise margin on a shared machine). */
export const SUPERLINEAR = 1.15;

/**
 * Text lines of one scale point: each phase's time, the checks, and peak RSS against the raw vector
 * bytes (goal ≤ RSS_GOAL×, Node baseline shown too); `met` whether the RSS goal holds. The goal is
 * judged only where it can be met at all: when the Node baseline alone (modules and golden set,
 * ≈ 150–220 MB here) is more than RSS_GOAL × the raw bytes — the 10 k point, 15.4 MB — no pipeline
 * could meet it, so that point prints its ratio as "not judged" and `met` is true.
 */
export function formatPoint(p: ScalePoint): { lines: string[]; met: boolean } {
  const mb = (b: number) => `${(b / 1e6).toFixed(1)} MB`;
  const idx = p.index.type === 'ivfflat' ? `ivfflat lists ${p.index.lists} probes ${p.index.probes}` : p.index.type;
  const lines = [`${p.n} × ${p.dim} on ${SCALE_TARGET} (${idx}; ${p.queries} queries, k ${p.k}):`];
  for (const [key, label] of SCALE_PHASES) lines.push(`  ${label.padEnd(24)} ${(p[key] as number).toFixed(0).padStart(9)} ms`);
  lines.push(`  exact scan = oracle: ${p.exactAgree}/${p.queries} queries, max |Δscore| ${p.maxAbsDelta.toExponential(1)}; index recall@${p.k} ${p.indexRecall.toFixed(4)}`);
  const peak = p.peakRssKb * 1024;
  const ratio = peak / p.rawVectorBytes;
  const baseline = p.baselineRssKb * 1024;
  const judged = baseline <= RSS_GOAL * p.rawVectorBytes;
  const met = !judged || ratio <= RSS_GOAL;
  const verdict = judged ? (met ? 'met' : 'MISSED') : `not judged: the Node baseline alone is over ${RSS_GOAL}× these raw vectors`;
  lines.push(
    `  peak RSS ${mb(peak)} (Node baseline ${mb(baseline)}) ÷ raw vectors ${mb(p.rawVectorBytes)} = ${ratio.toFixed(2)}× (goal ≤ ${RSS_GOAL}×: ${verdict}); above baseline ${((peak - baseline) / p.rawVectorBytes).toFixed(2)}×`,
  );
  return { lines, met };
}

/** One line: each phase's growth exponent from point `a` to the larger point `b`, flagged above SUPERLINEAR. */
export function formatGrowth(a: ScalePoint, b: ScalePoint): string {
  const parts = SCALE_PHASES.map(([key, label]) => {
    const e = growthExponent(a.n, a[key] as number, b.n, b[key] as number);
    return `${label} ${e.toFixed(2)}${e > SUPERLINEAR ? ' (faster than linear)' : ''}`;
  });
  return `growth ${a.n} → ${b.n} (exponent, 1 = linear): ${parts.join('; ')}`;
}
