/**
 * Offline image builder. Pure parts (hash, tag, validation, changes, catalog parsing) always run;
 * the Docker parts need a running engine and root (debootstrap), and under CI=true fail instead of
 * skipping when those are missing.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, mkdirSync, readdirSync, rmSync, statSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { hasCode } from '@memory-matrix/spec';
import {
  buildImage,
  countFromCache,
  importChanges,
  packageCacheDir,
  inspectImage,
  listImages,
  parsePackagesLabel,
  readContainerTarget,
  recipeHash,
  recipeTag,
  validateRecipe,
  type ImageRecipe,
} from '../src/images';
import { mountsUnder, removeRootfs } from '../src/images/rootfs';

const REPO = resolve(__dirname, '../../..');
const CATALOGS = [join(REPO, 'matrix/targets.yaml'), join(REPO, 'matrix/images.md')];

const base: ImageRecipe = {
  name: 'demo@1',
  tag: 'memory-matrix/demo:1',
  suite: 'trixie',
  packages: ['hello'],
  setup: ['echo ok > /etc/mm-demo'],
  env: { PATH: '/usr/bin:/bin', LANG: 'C.UTF-8' },
  cmd: ['/usr/bin/hello'],
};

describe('recipe hash and tag', () => {
  test('hash is 8 hex, stable under key order, and ignores name/tag', () => {
    const reordered: ImageRecipe = { cmd: base.cmd, env: { LANG: 'C.UTF-8', PATH: '/usr/bin:/bin' }, setup: base.setup, packages: base.packages, suite: base.suite, tag: 'x/y:z', name: 'other' };
    expect(recipeHash(base)).toMatch(/^[0-9a-f]{8}$/);
    expect(recipeHash(reordered)).toBe(recipeHash(base));
    expect(recipeTag(base)).toBe(`memory-matrix/demo:1-${recipeHash(base)}`);
  });
  test('any content change gives a new hash', () => {
    const h = recipeHash(base);
    expect(recipeHash({ ...base, packages: ['hello', 'less'] })).not.toBe(h);
    expect(recipeHash({ ...base, setup: [...base.setup, 'true'] })).not.toBe(h);
    expect(recipeHash({ ...base, env: { ...base.env, X: '1' } })).not.toBe(h);
    expect(recipeHash({ ...base, suite: 'sid' })).not.toBe(h);
    expect(recipeHash({ ...base, mirror: 'http://example.invalid/debian' })).not.toBe(h);
  });
  test('malformed recipes are INVALID_INPUT naming recipe and field', () => {
    const cases: Array<[Partial<ImageRecipe>, RegExp]> = [
      [{ packages: [] }, /demo@1: field packages/],
      [{ packages: ['ok', 'rm -rf /'] }, /field packages\[1\]/],
      [{ suite: 'trixie; reboot' }, /field suite/],
      [{ tag: 'NoColon' }, /field tag/],
      [{ env: { 'BAD-KEY': 'x' } }, /field env\.BAD-KEY/],
      [{ cmd: [] }, /field cmd/],
    ];
    for (const [patch, msg] of cases) {
      let err: unknown;
      try {
        validateRecipe({ ...base, ...patch });
      } catch (e) {
        err = e;
      }
      expect(hasCode(err, 'INVALID_INPUT')).toBe(true);
      expect((err as Error).message).toMatch(msg);
    }
  });
  test('import changes carry ENV (quoted), CMD (exec form), EXPOSE and the labels', () => {
    const ch = importChanges({ ...base, env: { A: 'has "quote" and space' }, expose: [5432] }, { hello: '2.10-3' });
    expect(ch).toContain('ENV A="has \\"quote\\" and space"');
    expect(ch).toContain('CMD ["/usr/bin/hello"]');
    expect(ch).toContain('EXPOSE 5432');
    const label = ch.find((c) => c.startsWith('LABEL '));
    expect(label).toContain('memory-matrix.recipe="demo@1"');
    expect(label).toContain('memory-matrix.packages="hello=2.10-3"');
    expect(parsePackagesLabel('a=1.0,b,c=2:3-1')).toEqual({ a: '1.0', b: '', c: '2:3-1' });
  });
});

describe('package cache location and counting', () => {
  test('MM_PKG_CACHE wins, else XDG_CACHE_HOME, else ~/.cache; a relative MM_PKG_CACHE is INVALID_INPUT', () => {
    const saved = { m: process.env.MM_PKG_CACHE, x: process.env.XDG_CACHE_HOME };
    try {
      process.env.MM_PKG_CACHE = '/srv/debs';
      expect(packageCacheDir()).toBe('/srv/debs');
      delete process.env.MM_PKG_CACHE;
      process.env.XDG_CACHE_HOME = '/xdg';
      expect(packageCacheDir()).toBe('/xdg/memory-matrix/debs');
      delete process.env.XDG_CACHE_HOME;
      expect(packageCacheDir()).toMatch(/\/\.cache\/memory-matrix\/debs$/);
      process.env.MM_PKG_CACHE = 'rel/debs';
      expect(() => packageCacheDir()).toThrow(/MM_PKG_CACHE must be an absolute path, got "rel\/debs"/);
    } finally {
      for (const [k, v] of [
        ['MM_PKG_CACHE', saved.m],
        ['XDG_CACHE_HOME', saved.x],
      ] as const) {
        if (v === undefined) delete process.env[k];
        else process.env[k] = v;
      }
    }
  });
  test('countFromCache: validated packages minus the ones downloaded (epoch colon as %3a)', () => {
    const lines = ['I: Validating libc6 2.41-12', 'I: Validating Packages ', 'I: Validating perl-base 1:5.40-1', 'I: Validating libc6 2.41-12', 'I: Validating hello 2.10-5'];
    expect(countFromCache(lines, [])).toBe(3);
    expect(countFromCache(lines, ['perl-base_1%3a5.40-1_amd64.deb'])).toBe(2);
  });
});

describe('catalog entries for container targets', () => {
  test.each(['pgvector@pg17', 'pgvector@pg18'])('%s parses into a valid recipe with a start command', (name) => {
    const t = readContainerTarget(name, CATALOGS);
    expect(t.start.kind).toBe('postgres');
    expect(t.offline.packages.length).toBeGreaterThan(0);
    expect(t.offline.cmd).toEqual(['/usr/local/bin/mm-start']);
    expect(t.offline.setup.join('\n')).toContain('host all all all trust');
    expect(t.expect.pgvector).toMatch(/^\d+\.\d+\.\d+$/);
  });
  test('an unknown target is UNKNOWN_TARGET, a malformed entry INVALID_INPUT with file and field', () => {
    let unknown: unknown;
    try {
      readContainerTarget('pgvector@nope', CATALOGS);
    } catch (e) {
      unknown = e;
    }
    expect(hasCode(unknown, 'UNKNOWN_TARGET')).toBe(true);
    expect((unknown as Error).message).toMatch(/pgvector@nope is listed in none of/);
    const dir = mkdtempSync(join(tmpdir(), 'mm-cat-'));
    const file = join(dir, 'targets.yaml');
    writeFileSync(file, 'targets:\n  x@1:\n    backend: pgvector\n    provider: container\n    offline: { tag: "a/b:c", suite: trixie, packages: "notalist" }\n');
    let err: unknown;
    try {
      readContainerTarget('x@1', [file]);
    } catch (e) {
      err = e;
    }
    rmSync(dir, { recursive: true });
    expect(hasCode(err, 'INVALID_INPUT')).toBe(true);
    expect((err as Error).message).toContain(`${file} targets.x@1: field offline.packages`);
  });
});

const isRoot = process.getuid?.() === 0;
const dockerUp = spawnSync('docker', ['info'], { timeout: 10_000 }).status === 0;
const hasDebootstrap = spawnSync('sh', ['-c', 'command -v debootstrap'], {}).status === 0;
const missing = [!dockerUp && 'no Docker engine answers (run .ci/docker-up.sh)', !isRoot && 'not root', !hasDebootstrap && 'no debootstrap'].filter(Boolean).join(', ');
const CI = process.env.CI === 'true';
if (missing && !CI) console.warn(`SKIPPED image builder tests with real Docker: ${missing}`);

if (missing && CI) {
  test(`image builder needs Docker, root and debootstrap under CI: ${missing}`, () => {
    throw new Error(`CI=true but ${missing}`);
  });
}

(missing && !CI ? describe.skip : describe)(`image builder with real Docker${missing ? ` — SKIPPED: ${missing}` : ''}`, () => {
  test('removeRootfs unmounts what is left mounted below and never deletes across a mount', async () => {
    const outside = mkdtempSync(join(tmpdir(), 'mm-outside-'));
    writeFileSync(join(outside, 'keep'), 'host file');
    const dir = mkdtempSync(join(tmpdir(), 'mm-rootfs-test-'));
    mkdirSync(join(dir, 'dev'));
    expect(spawnSync('mount', ['--bind', outside, join(dir, 'dev')]).status).toBe(0);
    expect(await mountsUnder(dir)).toEqual([join(dir, 'dev')]);
    await removeRootfs(dir);
    expect(existsSync(dir)).toBe(false);
    expect(existsSync(join(outside, 'keep'))).toBe(true);
    rmSync(outside, { recursive: true });
  });

  test('a failing step is TARGET_UNAVAILABLE naming recipe, tag and step, and leaves no temp dir', async () => {
    const buildTmp = mkdtempSync(join(tmpdir(), 'mm-buildtmp-'));
    process.env.MM_BUILD_TMPDIR = buildTmp;
    const lines: string[] = [];
    const bad: ImageRecipe = { ...base, name: 'broken@1', tag: 'memory-matrix/broken:1', packages: ['mm-no-such-package-xyz'] };
    let err: unknown;
    try {
      await buildImage(bad, { onProgress: (l) => lines.push(l) });
    } catch (e) {
      err = e;
    } finally {
      delete process.env.MM_BUILD_TMPDIR;
    }
    expect(hasCode(err, 'TARGET_UNAVAILABLE')).toBe(true);
    expect((err as Error).message).toContain(`image recipe broken@1 (${recipeTag(bad)}): step debootstrap failed`);
    expect((err as Error).message).toContain('mm-no-such-package-xyz');
    expect(lines.some((l) => l.startsWith('[broken@1] debootstrap: '))).toBe(true);
    expect(readdirSync(buildTmp)).toEqual([]);
    expect(await inspectImage(recipeTag(bad))).toBeUndefined();
    rmSync(buildTmp, { recursive: true });
  });

  test('the package cache is filled by a first build and used by the second; a corrupt cached .deb is fetched again', async () => {
    const cache = mkdtempSync(join(tmpdir(), 'mm-pkgcache-test-'));
    const saved = process.env.MM_PKG_CACHE;
    process.env.MM_PKG_CACHE = cache;
    const recipe: ImageRecipe = { ...base, name: 'demo@pkgcache', tag: `memory-matrix/test-pkgcache:${process.pid}` };
    const tag = recipeTag(recipe);
    try {
      const first = await buildImage(recipe, { force: true });
      expect(first.packages).toMatchObject({ dir: cache, fromCache: 0 });
      const debs = readdirSync(cache).filter((f) => f.endsWith('.deb'));
      expect(debs.length).toBe(first.packages!.fetched);
      expect(debs.length).toBeGreaterThan(50); // minbase + hello
      expect(debs.some((f) => f.startsWith('hello_'))).toBe(true);
      expect(readdirSync(cache).filter((f) => f.startsWith('.'))).toEqual([]); // work dir gone, no temp files
      const victim = join(
        cache,
        debs.find((f) => f.startsWith('hello_'))!,
      );
      const size = statSync(victim).size;
      truncateSync(victim, 100); // a half-written .deb: debootstrap's checksum must reject it
      const second = await buildImage(recipe, { force: true });
      expect(second.packages).toEqual({ dir: cache, fromCache: debs.length - 1, fetched: 1 });
      expect(statSync(victim).size).toBe(size); // replaced by the good download
      expect(spawnSync('docker', ['run', '--rm', tag, 'cat', '/etc/mm-demo'], { encoding: 'utf8' }).stdout.trim()).toBe('ok');
    } finally {
      if (saved === undefined) delete process.env.MM_PKG_CACHE;
      else process.env.MM_PKG_CACHE = saved;
      spawnSync('docker', ['rmi', '-f', tag]);
      rmSync(cache, { recursive: true, force: true });
    }
  }, 900_000);

  test('builds a small recipe, labels it, then reuses it from the cache', async () => {
    const recipe: ImageRecipe = { ...base, name: 'demo@test', tag: `memory-matrix/test-demo:${process.pid}` };
    const tag = recipeTag(recipe);
    try {
      const first = await buildImage(recipe, { onProgress: () => undefined });
      expect(first).toMatchObject({ tag, cached: false });
      const listed = (await listImages()).find((i) => i.id === first.id);
      expect(listed).toMatchObject({ recipe: 'demo@test', hash: recipeHash(recipe), suite: 'trixie' });
      expect(listed?.packages.hello).toMatch(/^\d/); // installed Debian version recorded
      const run = spawnSync('docker', ['run', '--rm', tag, 'cat', '/etc/mm-demo'], { encoding: 'utf8' });
      expect(run.stdout.trim()).toBe('ok'); // setup ran inside the rootfs
      const second = await buildImage(recipe);
      expect(second).toMatchObject({ tag, id: first.id, cached: true });
      expect(second.durationMs).toBeLessThan(5_000);
    } finally {
      spawnSync('docker', ['rmi', '-f', tag]);
    }
  }, 300_000);
});
