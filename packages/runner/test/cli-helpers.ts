import { spawnSync } from 'node:child_process';
import { appendFileSync, cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createHash } from 'node:crypto';
import os from 'node:os';
import path from 'node:path';
import {
  capabilities,
  DEFAULT_TOLERANCES,
  loadGoldenDataset,
  registerConformance,
  type Capabilities,
  type CheckDefinition,
  type CheckResult,
  type MemoryStore,
  type PreparedStep,
  type RegisterOptions,
} from '@memory-matrix/spec';
import type { MatrixReport } from '../src/report/model';
import { MatrixRuntime, timedOutResult, type RanTest } from '../src/runtime';
import { driver } from './fixtures/toy-driver';

export const RUNNER_DIR = path.resolve(__dirname, '..');
export const REPO = path.resolve(RUNNER_DIR, '..', '..');
export const GOLDEN = path.join(REPO, 'golden-data', 'agent-memories');

/**
 * `catalogWith(name, edit)`: a copy of the repository's matrix/targets.yaml with `edit` applied,
 * written as `name` in a temp dir (prefix `prefix`) that is removed after the test file; its path.
 * Throws when the edit changed nothing (a stale search string). Call at a test file's top level.
 */
export function catalogEditor(prefix: string): (name: string, edit: (yaml: string) => string) => string {
  const catalog = path.join(REPO, 'matrix', 'targets.yaml');
  const tmp = mkdtempSync(path.join(os.tmpdir(), prefix));
  afterAll(() => rmSync(tmp, { recursive: true, force: true }));
  return (name, edit) => {
    const f = path.join(tmp, name);
    const before = readFileSync(catalog, 'utf8');
    const after = edit(before);
    if (after === before) throw new Error(`catalogWith(${name}): the edit changed nothing`);
    writeFileSync(f, after);
    return f;
  };
}

/** The report dirs `cli` made in this test file: removed after its last test. */
const reportDirs: string[] = [];
afterAll(() => {
  for (const d of reportDirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

/** Run the real CLI (`tsx src/cli.ts …`) in a child process, as `pnpm matrix …` does, stopped (SIGTERM) after `timeoutMs` (default 240 s). Its report dir is a temp dir removed after the test file. */
export function cli(args: string[], opts: { cwd?: string; env?: NodeJS.ProcessEnv; timeoutMs?: number } = {}): CliResult {
  const reportDir = mkdtempSync(path.join(os.tmpdir(), 'mm-report-'));
  reportDirs.push(reportDir);
  const r = spawnSync(process.execPath, [require.resolve('tsx/cli'), path.join(RUNNER_DIR, 'src', 'cli.ts'), '--report-dir', reportDir, ...args], {
    cwd: opts.cwd ?? REPO,
    encoding: 'utf8',
    env: { ...childEnv(), ...opts.env },
    timeout: opts.timeoutMs ?? 240_000,
  });
  let report: MatrixReport | undefined;
  try {
    report = JSON.parse(readFileSync(path.join(reportDir, 'report.json'), 'utf8')) as MatrixReport;
  } catch {
    report = undefined;
  }
  return { status: r.status, stdout: r.stdout, stderr: r.stderr, report, reportDir };
}

/** What `cli` returns: exit status, output, and report.json when one was written. */
export interface CliResult {
  status: number | null;
  stdout: string;
  stderr: string;
  report?: MatrixReport;
  reportDir: string;
}

/**
 * The first line of what the CLI said about the failure: the run's error (`CODE: message`), else
 * the first cell's error, else the first stderr line (commander's usage errors).
 */
export function firstErrorLine(r: CliResult): string {
  const e = r.report?.error ?? r.report?.cells.find((c) => c.error)?.error;
  const text = e ? `${e.code ?? 'ERROR'}: ${e.message}` : (r.stderr.split('\n').find((l) => l.trim()) ?? '');
  return text.split('\n')[0]!;
}

/**
 * The bad-input table (case → exit code → first line of the message): when MM_BAD_INPUT_TABLE
 * names a file, every recorded case appends one markdown row to it.
 */
export function recordCase(name: string, r: CliResult): void {
  const file = process.env.MM_BAD_INPUT_TABLE;
  if (!file) return;
  const cell = (s: string) => s.replace(/\|/g, '\\|');
  appendFileSync(file, `| ${cell(name)} | ${r.status} | \`${cell(firstErrorLine(r)).replace(/`/g, "'")}\` |\n`);
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

/** What `runToyCell` gives: the checks' results as run.ts records them, the steps prepared before the checks, the runtime's tests. */
export interface ToyCellRun {
  results: CheckResult[];
  steps: PreparedStep[];
  tests: RanTest[];
}

/**
 * One cell of the toy store (fixtures/toy-driver, engine `toy-1`, target `toy@1`) over spec's
 * golden-tiny dataset, registered and run as `pnpm matrix` runs one (registerConformance on a
 * MatrixRuntime): `checks`; capabilities `caps` (default: vectors, cosine/ip/l2); every store the
 * cell opens passed through `wrap` (a fault: a hang, a refusal); `options` over the registration's
 * (its sink, onStep and teardown are this helper's). Results as run.ts records them: a check
 * stopped at its time limit is TIMEOUT, its body ending later no second verdict. The engine is
 * closed at the cell's teardown.
 */
export async function runToyCell(
  checks: CheckDefinition[],
  opts: { caps?: Capabilities; wrap?: (s: MemoryStore) => MemoryStore; options?: Omit<RegisterOptions, 'checks' | 'sink' | 'onStep' | 'teardown'> } = {},
): Promise<ToyCellRun> {
  const engine = await driver.embedded!.engines['toy-1']!.open({ where: 'toy@1' });
  const dataset = loadGoldenDataset(path.join(REPO, 'packages', 'spec', 'test', 'fixtures', 'golden-tiny'));
  const caps = opts.caps ?? capabilities({ vectors: true, metrics: ['cosine', 'ip', 'l2'] });
  const wrap = opts.wrap ?? ((s: MemoryStore): MemoryStore => s);
  const rt = new MatrixRuntime();
  const results: CheckResult[] = [];
  const steps: PreparedStep[] = [];
  registerConformance(
    rt,
    { target: 'toy@1', dataset: 'tiny', capabilities: caps },
    async () => ({
      target: 'toy@1',
      capabilities: caps,
      tolerances: DEFAULT_TOLERANCES,
      index: { type: 'none' },
      dataset,
      expectation: { entries: [] } as never,
      connect: async () => wrap(await engine.connect()),
    }),
    {
      ...opts.options,
      checks,
      sink: { record: (r) => void (results.some((x) => x.id === r.id && x.error?.code === 'TIMEOUT') || results.push(r)) },
      onStep: (s) => void steps.push(s),
      teardown: () => engine.close(),
    },
  );
  const tests: RanTest[] = [];
  await rt.run((t) => {
    tests.push(t);
    const timed = timedOutResult(t, checks);
    if (timed) results.push(timed);
  });
  return { results, steps, tests };
}
