/**
 * The driver architecture, end to end through the real CLI:
 * - a toy backend (fixtures/toy-driver: an in-memory driver written against the spec contract
 *   only) registered through `MM_DRIVERS` alone (no file of the repository is edited) runs the
 *   conformance suite as `toy@1`: every check passes or is skipped with a capability;
 * - drivers are found from their packages (backends discovery.ts): the registered list is the
 *   workspace's driver packages' drivers, sorted; the same toy as an installed package
 *   (`node_modules/memory-matrix-driver-toy` with the `memoryMatrix` field) runs with no
 *   MM_DRIVERS; a package whose field names an export its module lacks is exit 2 naming the
 *   package.json and the field;
 * - catalog errors about drivers name the file, line and key (exit 2): a capability override
 *   that is not a capability, a backend no driver registers, a provider the driver does not offer,
 *   an index type the driver does not declare.
 * No Docker, no backend server: runs everywhere.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { CHECKS } from '@memory-matrix/spec';
import { cli, REPO, RUNNER_DIR, type CliResult } from './cli-helpers';

const TOY = path.join(__dirname, 'fixtures', 'toy-driver');
const TOY_ENV = { MM_DRIVERS: path.join(TOY, 'index.ts'), MM_CATALOG: path.join(TOY, 'targets.yaml') };

/**
 * The names of the drivers the workspace's driver packages export, sorted: each package found
 * (`findDriverPackages`, no MM_DRIVERS) loaded in a child process through tsx, its field's export read.
 */
function workspaceDriverNames(): string[] {
  const script = `const b = require('@memory-matrix/targets');
    const found = b.findDriverPackages({ workspace: b.workspaceRoot(), searchFrom: [] }).found;
    console.log(JSON.stringify(found.map((p) => require(p.dir)[p.exportName].name)));`;
  const r = spawnSync(process.execPath, ['--require', 'tsx/cjs', '-e', script], { cwd: RUNNER_DIR, encoding: 'utf8', timeout: 120_000 });
  if (r.status !== 0) throw new Error(`loading the workspace's driver packages failed (${r.status ?? r.signal}): ${r.stderr.slice(-2000)}`);
  return (JSON.parse(r.stdout) as string[]).sort();
}

describe('a toy driver registered through MM_DRIVERS alone', () => {
  let r: CliResult;
  beforeAll(() => {
    r = cli(['--backend', 'toy@1'], { env: TOY_ENV });
  }, 240_000);

  test('runs the conformance suite as toy@1 through the CLI: exit 0, every check passes or skips with a capability', () => {
    expect(r.stderr).not.toMatch(/Error/);
    expect(r.status).toBe(0);
    const cell = r.report!.cells.find((c) => c.target === 'toy@1')!;
    expect(cell).toBeDefined();
    expect(cell.checks.length).toBe(CHECKS.length); // every check of the suite (C01–C31)
    for (const c of cell.checks) {
      if (c.status === 'skipped') expect(c.skipReason ?? '').toMatch(/^capability: /);
      else expect([c.id, c.status]).toEqual([c.id, 'passed']);
    }
    // What it can do ran; what it cannot, skipped with the capability.
    const status = Object.fromEntries(cell.checks.map((c) => [c.id, c.status]));
    expect(status).toMatchObject({ C01: 'passed', C03: 'passed', C04: 'passed', C09: 'passed', C25: 'passed', C27: 'passed', C05: 'skipped', C17: 'skipped', C15: 'skipped' });
  });

  test('without MM_DRIVERS the same catalog is refused: the backend is no registered driver (exit 2, file:line)', () => {
    const bad = cli(['--backend', 'toy@1'], { env: { MM_CATALOG: TOY_ENV.MM_CATALOG } });
    expect(bad.status).toBe(2);
    const names = workspaceDriverNames();
    expect(names.length).toBeGreaterThanOrEqual(9); // one per packages/adapter-* (backends test/discovery.test.ts)
    const message = bad.report?.error?.message ?? '';
    expect(message).toMatch(/targets\.yaml:\d+: targets\.toy@1\.backend: unknown backend "toy" \(registered drivers: /);
    expect(message).toContain(`(registered drivers: ${names.join(', ')})`);
  }, 120_000);

  test('MM_DRIVERS naming a module that is not a driver: exit 2 naming it, and the reports are written', () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'mm-notdriver-'));
    try {
      const mod = path.join(dir, 'notdriver.mjs');
      writeFileSync(mod, 'export const foo = 1;\n');
      const bad = cli(['--backend', 'pgvector@pglite-pg18', '--check', 'C01'], { env: { MM_DRIVERS: mod } });
      expect(bad.status).toBe(2);
      expect(bad.report?.error).toMatchObject({ code: 'USAGE', message: expect.stringContaining(`MM_DRIVERS: module ${mod} exports no driver`) });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 120_000);
});

describe('drivers found from installed packages (node_modules of the working directory)', () => {
  const app = mkdtempSync(path.join(os.tmpdir(), 'mm-installed-driver-'));
  afterAll(() => rmSync(app, { recursive: true, force: true }));
  /** `node_modules/<name>` in `app`: a package.json with `field` and an index.js of `main`; its package.json path. */
  const installed = (name: string, field: unknown, main: string): string => {
    const dir = path.join(app, 'node_modules', name);
    mkdirSync(dir, { recursive: true });
    writeFileSync(path.join(dir, 'package.json'), `${JSON.stringify({ name, version: '1.0.0', main: 'index.js', memoryMatrix: field }, null, 2)}\n`);
    writeFileSync(path.join(dir, 'index.js'), main);
    return path.join(dir, 'package.json');
  };

  test('the toy as memory-matrix-driver-toy (its field naming the export): toy@1 runs without MM_DRIVERS', () => {
    installed('memory-matrix-driver-toy', { driver: 'driver' }, `module.exports = require(${JSON.stringify(path.join(TOY, 'index.ts'))});\n`);
    const r = cli(['--backend', 'toy@1', '--check', 'C03'], { cwd: app, env: { MM_CATALOG: TOY_ENV.MM_CATALOG } });
    expect(r.stderr).not.toMatch(/Error/);
    expect(r.status).toBe(0);
    expect(r.report!.cells.find((c) => c.target === 'toy@1')!.checks.map((c) => [c.id, c.status])).toEqual([['C03', 'passed']]);
  }, 240_000);

  test('a package whose field names an export its module lacks: exit 2 naming the package.json line and the field', () => {
    const manifest = installed('@memory-matrix/adapter-nodriver', { driver: 'nodriverDriver' }, 'exports.somethingElse = 1;\n');
    const r = cli(['--backend', 'pgvector@pglite-pg18', '--check', 'C01'], { cwd: app });
    expect(r.status).toBe(2);
    expect(r.report?.error).toMatchObject({
      code: 'USAGE',
      message: `${manifest}:6: memoryMatrix.driver "nodriverDriver": @memory-matrix/adapter-nodriver's main module ${path.join(path.dirname(manifest), 'index.js')} exports no nodriverDriver (it exports somethingElse)`,
    });
  }, 120_000);
});

describe('catalog errors about drivers (exit 2, naming file, line and key)', () => {
  const tmp = mkdtempSync(path.join(os.tmpdir(), 'mm-drivers-'));
  afterAll(() => rmSync(tmp, { recursive: true, force: true }));
  const catalogWith = (name: string, edit: (yaml: string) => string): string => {
    const f = path.join(tmp, name);
    const before = readFileSync(path.join(REPO, 'matrix', 'targets.yaml'), 'utf8');
    const after = edit(before);
    expect(after).not.toBe(before);
    writeFileSync(f, after);
    return f;
  };
  const lineOf = (f: string, needle: string): number =>
    readFileSync(f, 'utf8')
      .split('\n')
      .findIndex((l) => l.includes(needle)) + 1;

  test('capabilities: { vectros: false } names targets.yaml:<line> and the key', () => {
    const f = catalogWith('typo.yaml', (y) => y.replace('capabilities: { vectors: false }', 'capabilities: { vectros: false }'));
    const r = cli(['--backend', 'pgvector@pglite-pg18', '--check', 'C01'], { env: { MM_CATALOG: f } });
    expect(r.status).toBe(2);
    expect(r.report?.error?.code).toBe('USAGE');
    expect(r.report?.error?.message).toContain(`${f}:${lineOf(f, 'vectros')}: targets.redis@7.0.capabilities.vectros: unknown key "vectros"`);
  }, 120_000);

  test('an index type the driver does not declare (hnsw on sqlite) is a catalog error at its line naming the types offered', () => {
    const f = catalogWith('index.yaml', (y) =>
      y.replace('index: { type: none } # vec0 has no ANN index: its KNN is an exhaustive scan', 'index: { type: hnsw, m: 16, efConstruction: 64, efSearch: 99 }'),
    );
    const r = cli(['--backend', 'pgvector@pglite-pg18', '--check', 'C01'], { env: { MM_CATALOG: f } });
    expect(r.status).toBe(2);
    expect(r.report?.error?.code).toBe('USAGE');
    expect(r.report?.error?.message).toContain(`${f}:${lineOf(f, 'efSearch: 99')}: targets.sqlite@3.53-vec0.1.9.index.type: driver sqlite has no index type "hnsw"; it offers index types: none`);
  }, 120_000);

  test('a provider the driver does not offer (redis as embedded) is a catalog error at the provider line', () => {
    const f = catalogWith('provider.yaml', (y) => y.replace(/(redis@7\.0:\n(?:.*\n)*?\s+provider: )container/, '$1embedded'));
    const r = cli(['--backend', 'pgvector@pglite-pg18', '--check', 'C01'], { env: { MM_CATALOG: f } });
    expect(r.status).toBe(2);
    expect(r.report?.error?.message).toMatch(/\.yaml:\d+: targets\.redis@7\.0\.provider: driver redis does not offer provider embedded \(it offers: container\)/);
  }, 120_000);
});
