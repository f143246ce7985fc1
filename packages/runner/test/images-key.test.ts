/**
 * `memory-matrix images key`: the CI cache key of the offline images is a hash of their built
 * tags (each ending in its recipe hash), so it is the same for the same recipes and changes with
 * any recipe; `--tags` lists what `docker save` / `docker load` take. Needs no Docker engine.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { loadCatalog, recipeOf, recipeTag } from '@memory-matrix/targets';
import { imagesKey, offlineImages, offlineTargets } from '../src/commands/images-key';
import { REPO, RUNNER_DIR } from './cli-helpers';

const CATALOG = path.join(REPO, 'matrix', 'targets.yaml');

/** `memory-matrix images key …` in a child process, as `pnpm matrix images key …` runs it. */
function imagesKeyCli(args: string[], env: NodeJS.ProcessEnv = {}) {
  const childEnv: NodeJS.ProcessEnv = { ...process.env, FORCE_COLOR: '0', ...env };
  delete childEnv.JEST_WORKER_ID;
  return spawnSync(process.execPath, [require.resolve('tsx/cli'), path.join(RUNNER_DIR, 'src', 'cli.ts'), 'images', 'key', ...args], { cwd: REPO, encoding: 'utf8', env: childEnv, timeout: 60_000 });
}

describe('offline images of a selection', () => {
  const catalog = loadCatalog(CATALOG);

  test('all: every container target with a recipe, one tag per distinct recipe, each its recipeTag', () => {
    const targets = offlineTargets(catalog, []);
    expect(targets.length).toBeGreaterThan(0);
    for (const t of targets) expect(t.provider === 'container' && t.offline).toBeTruthy();
    const images = offlineImages(targets);
    const tags = new Set(targets.map((t) => recipeTag(recipeOf(t)!)));
    expect(images.map((i) => i.tag)).toEqual([...tags].sort());
    // redis@8.0 and redis@8.0-noquant share one recipe: one image.
    expect(images.filter((i) => i.tag === recipeTag(recipeOf(catalog.targets.get('redis@8.0')!)!))).toHaveLength(1);
  });

  test('a profile: only its container targets with a recipe (embedded and local ones need no image)', () => {
    const names = offlineTargets(catalog, [], 'release').map((t) => t.name);
    const profile = catalog.profiles.get('release')!.targets;
    expect(names).toEqual(profile.filter((n) => catalog.targets.get(n)!.provider === 'container' && catalog.targets.get(n)!.offline));
    expect(names).not.toContain('chroma@1.0');
  });

  test('the key: same tags in any order give the same key; one changed recipe gives another', () => {
    const images = offlineImages(offlineTargets(catalog, []));
    const key = imagesKey(images);
    expect(key).toMatch(/^mm-images-v1-[0-9a-f]{16}$/);
    expect(imagesKey([...images].reverse())).toBe(key);
    const t = catalog.targets.get('pgvector@pg17')!;
    const changed = { ...recipeOf(t)!, packages: [...recipeOf(t)!.packages, 'less'] };
    const other = images.map((i) => (i.target === 'pgvector@pg17' ? { ...i, tag: recipeTag(changed) } : i));
    expect(imagesKey(other)).not.toBe(key);
  });

  test('bad selections are errors with a code: unknown profile, a registry-only target, both at once', () => {
    expect(() => offlineTargets(catalog, [], 'nope')).toThrow(expect.objectContaining({ code: 'USAGE', message: expect.stringContaining('unknown profile "nope"') }));
    expect(() => offlineTargets(catalog, ['pgvector@pg16'])).toThrow(expect.objectContaining({ code: 'TARGET_UNAVAILABLE', message: expect.stringContaining('no offline recipe') }));
    expect(() => offlineTargets(catalog, ['pgvector@pg17'], 'release')).toThrow(expect.objectContaining({ code: 'USAGE' }));
  });
});

describe('pnpm matrix images key (the CLI the workflows call)', () => {
  test('prints the key, and with --tags the tags; MM_CATALOG with one recipe changed gives a new key', () => {
    const key = imagesKeyCli(['--profile', 'pr-gate']);
    expect(key.status).toBe(0);
    const catalog = loadCatalog(CATALOG);
    const images = offlineImages(offlineTargets(catalog, [], 'pr-gate'));
    expect(key.stdout).toBe(`${imagesKey(images)}\n`);
    const tags = imagesKeyCli(['--profile', 'pr-gate', '--tags']);
    expect(tags.status).toBe(0);
    expect(tags.stdout.trim().split('\n')).toEqual(images.map((i) => i.tag));

    const dir = mkdtempSync(path.join(os.tmpdir(), 'mm-catalog-'));
    const file = path.join(dir, 'targets.yaml');
    const text = readFileSync(CATALOG, 'utf8');
    const edited = text.replace('packages: [postgresql-17, postgresql-17-pgvector]', 'packages: [postgresql-17, postgresql-17-pgvector, less]');
    expect(edited).not.toBe(text);
    writeFileSync(file, edited);
    const changed = imagesKeyCli(['--profile', 'pr-gate'], { MM_CATALOG: file });
    expect(changed.status).toBe(0);
    expect(changed.stdout).toMatch(/^mm-images-v1-[0-9a-f]{16}\n$/);
    expect(changed.stdout).not.toBe(key.stdout);
  });

  test('an unknown profile is exit 2 naming it', () => {
    const r = imagesKeyCli(['--profile', 'nope']);
    expect(r.status).toBe(2);
    expect(r.stderr).toContain('USAGE: images: unknown profile "nope"');
    expect(r.stdout).toBe('');
  });
});
