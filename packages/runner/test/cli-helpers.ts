import { spawnSync } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { createHash } from 'node:crypto';
import os from 'node:os';
import path from 'node:path';
import type { MatrixReport } from '../src/report/model';

export const RUNNER_DIR = path.resolve(__dirname, '..');
export const REPO = path.resolve(RUNNER_DIR, '..', '..');
export const GOLDEN = path.join(REPO, 'golden-data', 'agent-memories');

/** Run the real CLI (`tsx src/cli.ts …`) in a child process, as `pnpm matrix …` does. */
export function cli(args: string[], opts: { cwd?: string } = {}): { status: number | null; stdout: string; stderr: string; report?: MatrixReport; reportDir: string } {
  const reportDir = mkdtempSync(path.join(os.tmpdir(), 'mm-report-'));
  const r = spawnSync(process.execPath, [require.resolve('tsx/cli'), path.join(RUNNER_DIR, 'src', 'cli.ts'), '--report-dir', reportDir, ...args], {
    cwd: opts.cwd ?? REPO,
    encoding: 'utf8',
    env: childEnv(),
    timeout: 240_000,
  });
  let report: MatrixReport | undefined;
  try {
    report = JSON.parse(readFileSync(path.join(reportDir, 'report.json'), 'utf8')) as MatrixReport;
  } catch {
    report = undefined;
  }
  return { status: r.status, stdout: r.stdout, stderr: r.stderr, report, reportDir };
}

/** The environment of a child CLI: ours minus jest's worker marker (the child is not in jest's sandbox). */
function childEnv(): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, FORCE_COLOR: '0' };
  delete env.JEST_WORKER_ID;
  return env;
}

/** A throw-away copy of the golden dataset to damage. */
export function copyGolden(): string {
  const dir = path.join(mkdtempSync(path.join(os.tmpdir(), 'mm-golden-')), 'agent-memories');
  cpSync(GOLDEN, dir, { recursive: true });
  return dir;
}

/** Rewrite one data file of a dataset copy and fix its sha256/bytes in the manifest. */
export function rewriteWithManifest(dir: string, file: string, content: Buffer): void {
  writeFileSync(path.join(dir, file), content);
  const mPath = path.join(dir, 'manifest.json');
  const m = JSON.parse(readFileSync(mPath, 'utf8'));
  m.files[file] = { ...m.files[file], sha256: createHash('sha256').update(content).digest('hex'), bytes: content.length };
  writeFileSync(mPath, JSON.stringify(m, null, 2) + '\n');
}
