import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { REPO, RUNNER_DIR } from './cli-helpers';

/**
 * Run the real CLI (`tsx src/cli.ts …`) for `sample` and the runs on its datasets, with
 * SOURCE_DATE_EPOCH pinned (the one date a sample writes), from the repository root; 240 s limit.
 */
export function runSampleCli(args: string[], env: NodeJS.ProcessEnv = {}): { status: number | null; stdout: string; stderr: string } {
  const e: NodeJS.ProcessEnv = { ...process.env, FORCE_COLOR: '0', SOURCE_DATE_EPOCH: '1764460800', ...env };
  delete e.JEST_WORKER_ID;
  const r = spawnSync(process.execPath, ['--require', require.resolve('tsx/cjs'), path.join(RUNNER_DIR, 'src', 'cli.ts'), ...args], { cwd: REPO, env: e, encoding: 'utf8', timeout: 240_000 });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

/** `rows` deterministic unit vectors of `dim` components (mulberry32 from `seed`), as float32. */
export function unitVectors(rows: number, dim: number, seed = 12345): Float32Array[] {
  let a = seed;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296 - 0.5;
  };
  return Array.from({ length: rows }, () => {
    const v = Array.from({ length: dim }, next);
    const n = Math.hypot(...v);
    return Float32Array.from(v.map((x) => x / n));
  });
}
