/**
 * A user's own memory module as a target (examples/own-memory-module), run the way its owner runs
 * it: the example is copied to a temporary folder OUTSIDE this workspace, with only its own
 * dependencies (pg, ioredis) installed there — no @memory-matrix package, which the runner supplies
 * — and the CLI runs in that folder, where it finds memory-matrix.yaml.
 * - own-memory@pglite-pg18 (no Docker) runs the checks the driver declares and shows the others
 *   skipped with their capability; OWN_MEMORY_BREAK=swallow-connection-error (recall answers []
 *   when its query fails) fails C29 naming the collection;
 * - own-memory@redis8 (Docker) passes C20; OWN_MEMORY_BREAK=empty-on-bad-payload (a history whose
 *   payload cannot be read comes back empty) fails C20 naming the legacy case and session;
 * - adapters: a module path that does not exist, a module without a driver, a driver that breaks
 *   the contract: exit 2 naming the file (and line) and the member.
 * The breaks run only the checks they need (C01, C17, C20, C29), to keep the wall time small; one
 * cell runs every check over pglite-pg18 and must end with exit 0 (its cleanup included).
 */
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { cli, REPO, type CliResult } from './cli-helpers';
import { describeWithContainers } from './docker-gate';

const EXAMPLE = path.join(REPO, 'examples', 'own-memory-module');
const dirs: string[] = [];
afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

/** A copy of the example in a fresh temp dir (outside the workspace), its own dependencies linked in as an install would put them. */
function userRepo(): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'mm-own-module-'));
  dirs.push(dir);
  cpSync(EXAMPLE, dir, { recursive: true, filter: (src) => !src.includes(`${path.sep}node_modules`) });
  mkdirSync(path.join(dir, 'node_modules'));
  for (const dep of ['pg', 'ioredis']) symlinkSync(realpathSync(path.join(EXAMPLE, 'node_modules', dep)), path.join(dir, 'node_modules', dep));
  return dir;
}

/** Run the CLI in `cwd` (it finds memory-matrix.yaml there). */
const run = (cwd: string, args: string[], env: NodeJS.ProcessEnv = {}, timeoutMs?: number): CliResult => cli(args, { cwd, env: { OWN_MEMORY_BREAK: '', ...env }, timeoutMs });
const checkOf = (r: CliResult, target: string, id: string) => r.report?.cells.find((c) => c.target === target)?.checks.find((c) => c.id === id);
const messages = (r: CliResult, target: string, id: string): string => (checkOf(r, target, id)?.failures ?? []).map((f) => f.message).join('\n');

test('the repository copy stands alone: the temp folder is outside the workspace and has no @memory-matrix package', () => {
  const dir = userRepo();
  expect(path.relative(REPO, dir).startsWith('..')).toBe(true);
  // Where Node's resolution looks from there: node_modules of the folder and of each parent.
  for (let d = dir; ; d = path.dirname(d)) {
    expect([d, existsSync(path.join(d, 'node_modules', '@memory-matrix'))]).toEqual([d, false]);
    if (path.dirname(d) === d) break;
  }
});

// The whole cell, every check: its cleanup (each store's pool still open, one more connection per
// drop) once asked the PGlite server for a 33rd connection, which pglite-socket dropped without a
// word: every verdict passed, then exit 2 `cleanup … drop c09_cosine_…: Connection terminated unexpectedly`.
describe('own-memory@pglite-pg18, every check: the cell ends clean', () => {
  let all: CliResult;
  beforeAll(() => {
    all = run(userRepo(), ['--backend', 'own-memory@pglite-pg18'], {}, 840_000); // 63 s on an idle 2-core host, 371 s on a loaded one
  }, 900_000);

  test('exit 0: no check failed, no teardown failure, no cell error', () => {
    const cell = all.report?.cells.find((c) => c.target === 'own-memory@pglite-pg18');
    expect({ status: all.status, cell: cell?.status, error: cell?.error, teardown: cell?.teardownError }).toEqual({ status: 0, cell: 'ran', error: undefined, teardown: undefined });
    expect(cell?.checks.filter((c) => c.status === 'failed').map((c) => c.id)).toEqual([]);
    expect(all.report?.summary).toMatchObject({ failed: 0, cellErrors: 0, teardownErrors: 0 });
  });
});

// PGlite runs in the CLI's process (not in jest's), so it needs no jest flag and no Docker.
describe('own-memory@pglite-pg18: the module over PGlite served on a loopback port (no Docker)', () => {
  const dir = userRepo();
  let clean: CliResult;
  let broken: CliResult;
  beforeAll(() => {
    clean = run(dir, ['--backend', 'own-memory@pglite-pg18', '--check', 'C01,C17,C29']);
    broken = run(dir, ['--backend', 'own-memory@pglite-pg18', '--check', 'C29'], { OWN_MEMORY_BREAK: 'swallow-connection-error' });
  }, 480_000);

  test('runs the checks it declares (C01, C29 pass) and shows what it lacks as skipped (C17: capability history)', () => {
    expect(clean.stdout).toContain(`config ${realpathSync(dir)}/memory-matrix.yaml: adapters own-memory`);
    expect(clean.status).toBe(0);
    expect(checkOf(clean, 'own-memory@pglite-pg18', 'C01')?.status).toBe('passed');
    expect(checkOf(clean, 'own-memory@pglite-pg18', 'C29')?.status).toBe('passed');
    expect(checkOf(clean, 'own-memory@pglite-pg18', 'C17')).toMatchObject({ status: 'skipped', skipReason: 'capability: history' });
    expect(clean.report?.cells[0]?.components).toMatchObject({ postgres: '18.6', 'own-memory': '0.1.0' });
  });

  test('break 1, a swallowed connection error (recall answers [] when its query fails): C29 fails naming the collection', () => {
    expect(broken.status).toBe(1);
    expect(checkOf(broken, 'own-memory@pglite-pg18', 'C29')?.status).toBe('failed');
    const m = messages(broken, 'own-memory@pglite-pg18', 'C29');
    expect(m).toMatch(/collection c29_drop_\w+ dropped by another client: recall on the stale handle: expected an error with a code, got 0 results/);
    expect(m).toMatch(/collection c29_closed_\w+ through a client that was closed: recall: expected an error with a code, got 0 results/);
  });
});

describeWithContainers('own-memory@redis8: the chat history over Redis 8.0 in a container', ['redis@8.0'], () => {
  const dir = userRepo();
  let clean: CliResult;
  let broken: CliResult;
  beforeAll(() => {
    clean = run(dir, ['--backend', 'own-memory@redis8', '--check', 'C20']);
    broken = run(dir, ['--backend', 'own-memory@redis8', '--check', 'C20'], { OWN_MEMORY_BREAK: 'empty-on-bad-payload' });
  }, 480_000);

  test('C20 serde-compat passes: v2 and v1 payloads read back, the others refused with PAYLOAD_UNSUPPORTED', () => {
    expect(clean.status).toBe(0);
    expect(checkOf(clean, 'own-memory@redis8', 'C20')?.status).toBe('passed');
  });

  test('break 2, a payload read that returns [] on failure: C20 fails naming the legacy case and the session', () => {
    expect(broken.status).toBe(1);
    expect(messages(broken, 'own-memory@redis8', 'C20')).toMatch(
      /legacy case malformed-json \(session s-[0-9a-f]+-malformed-json\): read returned 0 message\(s\) \(an EMPTY list\) instead of failing with PAYLOAD_UNSUPPORTED/,
    );
  });
});

describe('adapters: a module that is not a usable driver is exit 2 naming the file, line and member', () => {
  /** A copy of the example, its adapters line replaced by `adapters` when given. */
  const broken = (adapters?: string): { dir: string; config: string } => {
    const dir = userRepo();
    const config = path.join(dir, 'memory-matrix.yaml');
    if (adapters !== undefined) {
      const before = readFileSync(config, 'utf8');
      const after = before.replace('  own-memory: ./matrix-adapter.ts', adapters);
      expect(after).not.toBe(before);
      writeFileSync(config, after);
    }
    return { dir, config: realpathSync(config) };
  };
  const refused = (dir: string): CliResult => {
    const r = run(dir, ['--backend', 'own-memory@pglite-pg18', '--check', 'C01']);
    expect(r.status).toBe(2);
    expect(r.report?.error?.code).toBe('USAGE');
    return r;
  };

  test('a module path that does not exist', () => {
    const { dir, config } = broken('  own-memory: ./memory/matrix-adapter.ts');
    expect(refused(dir).report?.error?.message).toBe(
      `${config}:4: adapters.own-memory: module ./memory/matrix-adapter.ts not found: ${path.join(path.dirname(config), 'memory', 'matrix-adapter.ts')} does not exist`,
    );
  }, 120_000);

  test('a module that exports no driver', () => {
    const { dir, config } = broken('  own-memory: ./memory/index.ts');
    const m = refused(dir).report?.error?.message ?? '';
    expect(m).toContain(
      `${config}:4: adapters.own-memory: module ${path.join(path.dirname(config), 'memory', 'index.ts')} exports no driver: expected \`export const driver = defineDriver({ … })\` (or a default export); it exports `,
    );
    for (const name of ['ChatHistory', 'MemoryManager', 'PayloadError']) expect(m).toContain(name);
  }, 120_000);

  test.each([
    ['no client.connect', `connect(server, opts) {`, `notConnect(server, opts) {`, /module \S+matrix-adapter\.ts: driver own-memory: client\.connect is missing \(a function\)/],
    ['no capabilities', `  capabilities: { ...MEMORY, history: true, ttl: true },`, ``, /driver own-memory: capabilities is missing/],
    [
      'a client.servers entry that is no registered driver',
      `servers: ['pgvector', 'redis']`,
      `servers: ['pgvector', 'postgres']`,
      /driver own-memory: client\.servers entry "postgres" is not a registered driver \(registered: [^)]*\bpgvector\b[^)]*\bredis\b/,
    ],
  ])(
    'a driver that breaks the contract: %s',
    (_name, from, to, why) => {
      const { dir, config } = broken();
      const f = path.join(dir, 'matrix-adapter.ts');
      const before = readFileSync(f, 'utf8');
      expect(before).toContain(from);
      writeFileSync(f, before.replace(from, to));
      const m = refused(dir).report?.error?.message ?? '';
      expect(m.startsWith(`${config}:4: adapters.own-memory: `)).toBe(true);
      expect(m).toMatch(why);
    },
    120_000,
  );
});
