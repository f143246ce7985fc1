/**
 * What the packages ship: every publishable workspace package packed as `npm publish` would
 * (.ci/pack.sh: build, then `pnpm pack`, which applies publishConfig and rewrites workspace:
 * dependencies), each tarball unpacked and checked — built JavaScript with its types and README,
 * package.json pointing at files that are there, no workspace: left, no sources, tests or fixtures,
 * no absolute path of the build machine in any file; the golden data and the catalog complete, the
 * CLI's bin there. About 10 s when the packages are built (turbo's cache), a minute or two of tsc
 * from a fresh clone.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { REPO } from './cli-helpers';

interface Packed {
  name: string;
  version: string;
  filename: string;
  files: Array<{ path: string }>;
}
interface Manifest {
  name: string;
  version: string;
  main?: string;
  types?: string;
  bin?: Record<string, string>;
  exports?: Record<string, string | Record<string, string>>;
  [field: string]: unknown;
}

const DEP_FIELDS = ['dependencies', 'devDependencies', 'optionalDependencies', 'peerDependencies'];
/**
 * Absolute paths that would name the machine the packages were built on. `/root/.npm` is allowed
 * in the catalog only: an offline image recipe's command that runs inside the image it builds.
 */
const FORBIDDEN = ['/work/', '/root/', '/tmp/', `${REPO}/`, `${os.tmpdir()}/`, `${os.homedir()}/`].filter((p) => p !== '//');
const ALLOWED: Record<string, string[]> = { '@memory-matrix/catalog': ['/root/.npm'] };
/**
 * Whole files whose text may hold such a path as data, not as the build machine's: the e-mails of
 * the email-sample dataset quote paths of their senders' machines (`/tmp/rpm-tmp.26673`,
 * `/root/Download`); the manifest's sha256 pins the file, and the golden-data test compares it byte for byte.
 */
const ALLOWED_FILES: Record<string, string[]> = { '@memory-matrix/golden-data': ['email-sample/memories.jsonl'] };

const tmp = mkdtempSync(path.join(os.tmpdir(), 'mm-pack-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));
let packed: Packed[] = [];
const dirOf = new Map<string, string>();

beforeAll(() => {
  const r = spawnSync('bash', [path.join(REPO, '.ci', 'pack.sh'), path.join(tmp, 'tgz')], { cwd: REPO, encoding: 'utf8', timeout: 900_000 });
  if (r.status !== 0) throw new Error(`.ci/pack.sh failed (${r.status ?? r.signal}):\n${r.stderr.slice(-4000)}`);
  packed = JSON.parse(readFileSync(path.join(tmp, 'tgz', 'pack.json'), 'utf8')) as Packed[];
  for (const p of packed) {
    const dir = path.join(tmp, 'x', p.name);
    mkdirSync(dir, { recursive: true });
    const x = spawnSync('tar', ['-xzf', p.filename, '-C', dir, '--strip-components=1'], { encoding: 'utf8' });
    if (x.status !== 0) throw new Error(`tar -xzf ${p.filename}: ${x.stderr}`);
    dirOf.set(p.name, dir);
  }
}, 900_000);

/** Every file of the unpacked package `name`, relative, sorted. */
function filesOf(name: string): string[] {
  const dir = dirOf.get(name)!;
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => path.relative(dir, path.join(e.parentPath, e.name)))
    .sort();
}
const manifestOf = (name: string): Manifest => JSON.parse(readFileSync(path.join(dirOf.get(name)!, 'package.json'), 'utf8')) as Manifest;
/** The workspace's packages: packages/*, golden-data, matrix (package.json name → folder), the private root left out. */
function workspacePackages(): Map<string, string> {
  const dirs = [...readdirSync(path.join(REPO, 'packages')).map((d) => path.join(REPO, 'packages', d)), path.join(REPO, 'golden-data'), path.join(REPO, 'matrix')];
  return new Map(dirs.filter((d) => existsSync(path.join(d, 'package.json'))).map((d) => [(JSON.parse(readFileSync(path.join(d, 'package.json'), 'utf8')) as Manifest).name, d]));
}
const codePackages = (): string[] => packed.map((p) => p.name).filter((n) => existsSync(path.join(workspacePackages().get(n)!, 'tsconfig.build.json')));

test('every workspace package is packed (none private), at the repository version', () => {
  const ws = workspacePackages();
  expect(packed.map((p) => p.name).sort()).toEqual([...ws.keys()].sort());
  const version = (JSON.parse(readFileSync(path.join(REPO, 'package.json'), 'utf8')) as Manifest).version;
  for (const p of packed) expect(`${p.name}@${p.version}`).toBe(`${p.name}@${version}`);
  for (const n of ws.keys()) expect(manifestOf(n).private).toBeUndefined();
});

test('package.json: no workspace: left, every dependency on our packages at the packed version', () => {
  const ours = new Map(packed.map((p) => [p.name, p.version]));
  for (const p of packed) {
    const m = manifestOf(p.name);
    for (const field of DEP_FIELDS) {
      for (const [dep, range] of Object.entries((m[field] as Record<string, string> | undefined) ?? {})) {
        expect(`${p.name} ${field}.${dep}: ${range}`).not.toContain('workspace:');
        if (ours.has(dep) && field !== 'devDependencies') expect(`${p.name} ${field}.${dep}: ${range}`).toMatch(new RegExp(`: \\^?${ours.get(dep)!.replace(/\./g, '\\.')}$`));
      }
    }
  }
});

test('code packages: built JavaScript with types, README, main / types / exports pointing at packed files; no sources, tests or build state', () => {
  const code = codePackages();
  expect(code.length).toBeGreaterThanOrEqual(9);
  for (const name of code) {
    const files = filesOf(name);
    const m = manifestOf(name);
    expect({ name, main: m.main, types: m.types }).toEqual({ name, main: 'dist/index.js', types: 'dist/index.d.ts' });
    expect(m.exports?.['.']).toEqual({ types: './dist/index.d.ts', default: './dist/index.js' });
    expect(files).toEqual(expect.arrayContaining(['dist/index.js', 'dist/index.d.ts', 'README.md', 'package.json']));
    if (existsSync(path.join(workspacePackages().get(name)!, 'LICENSE'))) expect(files).toContain('LICENSE');
    // Each module compiled with its declarations.
    for (const js of files.filter((f) => f.startsWith('dist/') && f.endsWith('.js') && !f.includes('/client/') && !f.endsWith('chroma-launcher.js')))
      expect(files).toContain(js.replace(/\.js$/, '.d.ts'));
    const stray = files.filter((f) => !f.startsWith('dist/') && !['README.md', 'LICENSE', 'package.json'].includes(f));
    expect({ name, stray }).toEqual({ name, stray: [] });
    expect({ name, ts: files.filter((f) => f.endsWith('.ts') && !f.endsWith('.d.ts')) }).toEqual({ name, ts: [] });
    expect({ name, state: files.filter((f) => /tsbuildinfo|\.map$/.test(f)) }).toEqual({ name, state: [] });
  }
});

test('runtime assets beside the code: report.html client scripts and styles, the Chroma launcher', () => {
  expect(filesOf('@memory-matrix/runner')).toEqual(
    expect.arrayContaining(['dist/cli.js', 'dist/report/html/page.css', 'dist/report/html/client/main.js', 'dist/report/html/client/format.js', 'dist/cell-child/spawn.js', 'dist/selftest/worker.js']),
  );
  expect(filesOf('@memory-matrix/adapter-chroma')).toContain('dist/driver/chroma-launcher.js');
  expect(filesOf('@memory-matrix/spec')).toContain('dist/checks/c26-child.js');
  expect(filesOf('@memory-matrix/adapter-sqlite')).toContain('dist/process/server.js');
});

test('no test files or fixtures anywhere', () => {
  for (const p of packed) {
    const bad = filesOf(p.name).filter((f) => /(^|\/)(test|tests|__tests__|fixtures)\//.test(f) || /\.test\.[jt]s$/.test(f) || /^(jest\.config|tsconfig)/.test(path.basename(f)));
    expect({ name: p.name, bad }).toEqual({ name: p.name, bad: [] });
  }
});

test('no absolute path of the build machine in any packed file', () => {
  const hits: string[] = [];
  for (const p of packed) {
    for (const f of filesOf(p.name)) {
      if ((ALLOWED_FILES[p.name] ?? []).includes(f)) continue;
      const text = readFileSync(path.join(dirOf.get(p.name)!, f)).toString('latin1');
      for (const needle of FORBIDDEN) {
        for (let i = text.indexOf(needle); i >= 0; i = text.indexOf(needle, i + 1)) {
          const at = text.slice(i, i + 40);
          if (!(ALLOWED[p.name] ?? []).some((a) => at.startsWith(a))) hits.push(`${p.name}/${f}: ${JSON.stringify(text.slice(Math.max(0, i - 30), i + 40))}`);
        }
      }
    }
  }
  expect(hits).toEqual([]);
});

test('golden data: the default dataset and the e-mail sample with their expectations, and the checks’ fixtures; not the builder or the user-data fixtures', () => {
  const files = filesOf('@memory-matrix/golden-data');
  expect(files).toEqual(
    expect.arrayContaining([
      'index.js',
      'index.d.ts',
      'README.md',
      'FORMAT.md',
      ...['manifest.json', 'memories.jsonl', 'memories.f32', 'queries.jsonl', 'queries.f32', 'expected/oracle.jsonl'].map((f) => `agent-memories/${f}`),
      // `--dataset email-sample` outside a clone (docs/golden-data.md).
      ...['manifest.json', 'memories.jsonl', 'memories.f32', 'queries.jsonl', 'queries.f32', 'sample-provenance.json', 'expected/oracle.jsonl'].map((f) => `email-sample/${f}`),
      'legacy/history-payloads.json',
      'snapshots/c26-expected-dump.json',
    ]),
  );
  expect(files.filter((f) => /^(build|user-data)\//.test(f))).toEqual([]);
  // Byte for byte what the repository holds (the manifests carry each file's sha256).
  for (const f of files.filter((x) => /^(agent-memories|email-sample)\//.test(x)))
    expect(readFileSync(path.join(dirOf.get('@memory-matrix/golden-data')!, f)).equals(readFileSync(path.join(REPO, 'golden-data', f)))).toBe(true);
});

test('catalog: targets.yaml and the release baselines; the CLI package: its bin, depending on the bundled driver packages, no driver package listed as a peer', () => {
  const catalog = filesOf('@memory-matrix/catalog');
  expect(catalog).toEqual(expect.arrayContaining(['index.js', 'index.d.ts', 'targets.yaml', 'baselines/pgvector@pg17.json', 'baselines/pgvector@pglite-pg18.json']));
  const cli = manifestOf('memory-matrix');
  expect(cli.bin).toEqual({ 'memory-matrix': 'bin/memory-matrix.js' });
  expect(readFileSync(path.join(dirOf.get('memory-matrix')!, 'bin', 'memory-matrix.js'), 'utf8')).toMatch(/^#!\/usr\/bin\/env node\n/);
  // The driver packages say what they are (package.json `memoryMatrix`, read by backends' discovery in
  // the install): the CLI depends on the bundled ones and on data and runner; the others are found
  // when installed beside it, so no package lists them (no peer lists to keep up to date).
  const drivers = [...workspacePackages()].filter(([name]) => manifestOf(name).memoryMatrix !== undefined);
  expect(drivers.length).toBeGreaterThanOrEqual(9);
  for (const [name, dir] of drivers)
    expect({ name, field: manifestOf(name).memoryMatrix }).toEqual({ name, field: (JSON.parse(readFileSync(path.join(dir, 'package.json'), 'utf8')) as Manifest).memoryMatrix });
  const bundled = drivers.filter(([name]) => (manifestOf(name).memoryMatrix as { bundled?: boolean }).bundled === true).map(([name]) => name);
  expect(bundled.length).toBeGreaterThan(0);
  expect(Object.keys(cli.dependencies as object).sort()).toEqual([...bundled, '@memory-matrix/catalog', '@memory-matrix/golden-data', '@memory-matrix/runner'].sort());
  for (const p of packed) {
    const peers = Object.keys((manifestOf(p.name).peerDependencies as object | undefined) ?? {}).filter((d) => drivers.some(([name]) => name === d));
    expect({ name: p.name, peers }).toEqual({ name: p.name, peers: [] });
  }
  // The runner ships without the libraries only bench uses (dev dependencies).
  expect(Object.keys(manifestOf('@memory-matrix/runner').dependencies as object)).not.toContain('@langchain/community');
});
