import { spawnSync } from 'node:child_process';
import { existsSync, lstatSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { OWNER } from '@memory-matrix/targets';
import { shareTsxCache, sweepStaleRoots } from '../src/tmp-root';

describe('sweepStaleRoots (temp roots of CLIs that died without their exit handler)', () => {
  let dir: string;
  beforeEach(() => (dir = mkdtempSync(path.join(os.tmpdir(), 'mm-sweep-'))));
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  /** A root named for `pid` with an owner file saying `owner` (none when undefined) and a file in it. */
  function root(pid: number, suffix: string, owner: string | undefined): string {
    const r = path.join(dir, `mm-run-${pid}-${suffix}`);
    mkdirSync(path.join(r, 'mm-fault-sqlite-x'), { recursive: true });
    writeFileSync(path.join(r, 'mm-fault-sqlite-x', 'db.sqlite'), 'x');
    if (owner !== undefined) writeFileSync(path.join(r, '.owner'), owner);
    return r;
  }

  test('removes only dead roots of this host and PID namespace', () => {
    const dead = spawnSync(process.execPath, ['-e', '0']).pid!; // exited: its pid is not alive (unless reused at once)
    const stale = root(dead, 'aB3dE6', OWNER);
    const live = root(process.pid, 'Zz9Yy8', OWNER);
    const foreign = root(dead, 'Qq1Ww2', 'other-host:pid:[1]');
    const noOwner = root(dead, 'Ee4Rr5', undefined);
    const otherName = path.join(dir, `mm-run-${dead}-toolongname`);
    mkdirSync(otherName);
    expect(sweepStaleRoots(dir)).toEqual([stale]);
    expect(existsSync(stale)).toBe(false);
    for (const kept of [live, foreign, noOwner, otherName]) expect(existsSync(kept)).toBe(true);
  });

  test('a directory that cannot be read is no error', () => {
    expect(sweepStaleRoots(path.join(dir, 'does-not-exist'))).toEqual([]);
  });
});

describe('shareTsxCache (the processes a run starts reuse the compiled TypeScript)', () => {
  let dir: string;
  beforeEach(() => (dir = mkdtempSync(path.join(os.tmpdir(), 'mm-tsxcache-'))));
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  test('a child started with TMPDIR at the root finds the shared cache; removing the root keeps the cache', () => {
    const shared = path.join(dir, 'shared');
    const root = path.join(dir, 'root');
    mkdirSync(shared);
    mkdirSync(root);
    shareTsxCache(root, shared);
    const name = `tsx-${os.userInfo().uid}`;
    // A real tsx process with TMPDIR at the root: it writes its cache through the link.
    const ts = path.join(dir, 'm.ts');
    writeFileSync(ts, 'const n: number = 6 * 7;\nconsole.log(n);\n');
    const r = spawnSync(process.execPath, ['--require', 'tsx/cjs', ts], { env: { ...process.env, TMPDIR: root }, encoding: 'utf8' });
    expect(r.stdout.trim()).toBe('42');
    expect(lstatSync(path.join(root, name)).isSymbolicLink()).toBe(true);
    expect(readdirSync(path.join(shared, name)).length).toBeGreaterThan(0);
    rmSync(root, { recursive: true, force: true });
    expect(readdirSync(path.join(shared, name)).length).toBeGreaterThan(0);
  });

  test('no shared dir, or one that cannot be written: no link, no error', () => {
    const root = path.join(dir, 'root');
    mkdirSync(root);
    shareTsxCache(root, undefined);
    writeFileSync(path.join(dir, 'file'), 'x'); // a file where the shared dir should be
    shareTsxCache(root, path.join(dir, 'file'));
    expect(readdirSync(root)).toEqual([]);
  });
});
