/**
 * Images before cells (image-prep.ts, runtime.ts `ready`): a cell whose container image is missing
 * waits for it outside its setup limit and its place in the pool, while the cells that need no
 * image run; a failed build is that cell's setup error, with its last lines, and the run goes on.
 */
import { loadCatalog } from '@memory-matrix/targets';
import { buildParallelism, imageTargetsOf } from '../src/image-prep';
import { MatrixRuntime, type RanTest } from '../src/runtime';
import { catalogEditor, cli } from './cli-helpers';
import { describeWithContainers } from './docker-gate';

test('a gated suite waits outside the pool: the ungated ones run first, its setup limit starts after the gate', async () => {
  const rt = new MatrixRuntime();
  const order: string[] = [];
  let open!: (e?: Error) => void;
  const gate = new Promise<Error | undefined>((r) => (open = r));
  rt.describe('container × d', () => {
    rt.beforeAll(async () => void order.push('container setup'), 50); // 50 ms: a gate counted in it would time it out
    rt.test('C01 write-read', async () => void order.push('container C01'), 1000);
  });
  rt.describe('embedded × d', () => {
    rt.test(
      'C01 write-read',
      async () => {
        order.push('embedded C01');
        await new Promise((r) => setTimeout(r, 120));
        open(); // the image is ready once the other cell has run
      },
      1000,
    );
  });
  // concurrency 1: a gated suite holding the only place would deadlock this run.
  const out = await rt.run(undefined, { concurrency: 1, ready: new Map([['container × d', gate]]) });
  expect(order).toEqual(['embedded C01', 'container setup', 'container C01']);
  expect(out.setupErrors.size).toBe(0);
});

test('a gate that resolves to an Error is the suite setup error: beforeAll not run, tests failed with it, afterAll run', async () => {
  const rt = new MatrixRuntime();
  const seen: RanTest[] = [];
  const hooks: string[] = [];
  rt.describe('container × d', () => {
    rt.beforeAll(async () => void hooks.push('setup'));
    rt.test('C01 write-read', async () => undefined);
    rt.afterAll(async () => void hooks.push('teardown'));
  });
  const failed = new Error('the image of pgvector@pg17 could not be obtained: step debootstrap failed');
  const out = await rt.run((t) => seen.push(t), { concurrency: 2, ready: new Map([['container × d', Promise.resolve(failed)]]) });
  expect(hooks).toEqual(['teardown']);
  expect(out.setupErrors.get('container × d')).toBe(failed);
  expect(seen.map((t) => [t.status, t.error?.message])).toEqual([['failed', failed.message]]);
});

test('buildParallelism: the smaller of CPUs, GiB free and 3, at least 1', () => {
  expect(buildParallelism(2, 24 * 2 ** 30)).toBe(2);
  expect(buildParallelism(16, 24 * 2 ** 30)).toBe(3);
  expect(buildParallelism(8, 1.5 * 2 ** 30)).toBe(1);
  expect(buildParallelism(4, 0)).toBe(1);
});

test('imageTargetsOf: own container image, the server of a client target, and upgradeFrom (C16)', () => {
  const c = loadCatalog().targets;
  expect(imageTargetsOf(c.get('pgvector@pg17')!).map((t) => t.name)).toEqual(['pgvector@pg17']);
  expect(imageTargetsOf(c.get('langchain-pgvector@pg17')!).map((t) => t.name)).toEqual(['pgvector@pg17']);
  expect(imageTargetsOf(c.get('redis@8.0')!).map((t) => t.name)).toEqual(['redis@8.0', 'redis@7.0']);
  expect(imageTargetsOf(c.get('sqlite@3.53-vec0.1.9')!)).toEqual([]);
});

const catalogWith = catalogEditor('mm-image-prep-');

describeWithContainers('a run whose image cannot be built', ['pgvector@pg17'], () => {
  test('the build fails first, its cell says why with the build last lines, the embedded cell runs: exit 2', () => {
    // An offline recipe naming a package Debian does not have: debootstrap stops at once.
    const catalog = catalogWith('targets.yaml', (y) => y.replace('packages: [postgresql-17, postgresql-17-pgvector]', 'packages: [postgresql-17, postgresql-17-pgvector, mm-no-such-package]'));
    const r = cli(['--backend', 'pgvector@pg17', '--backend', 'sqlite@3.53-vec0.1.9', '--check', 'C01'], { env: { MM_CATALOG: catalog } });
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(/images: 1 container image\(s\) missing \(memory-matrix\/pgvector:pg17-0\.8\.0-[0-9a-f]{8}\)/);
    expect(r.stderr).toContain('images: pgvector@pg17: FAILED after');
    const pg = r.report!.cells.find((x) => x.target === 'pgvector@pg17')!;
    expect(pg.error?.message).toContain('the image of pgvector@pg17 could not be obtained');
    expect(pg.error?.message).toContain('its last lines: ');
    expect(pg.error?.message).toContain('mm-no-such-package');
    const lite = r.report!.cells.find((x) => x.target === 'sqlite@3.53-vec0.1.9')!;
    expect(lite.checks.map((x) => [x.id, x.status])).toEqual([['C01', 'passed']]);
  }, 240_000);
});
