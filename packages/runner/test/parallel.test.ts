/**
 * Cells in parallel: the default bound (CPUs, free memory, provider weights), the --parallel /
 * MM_PARALLEL parsing, and a runtime whose results keep registration order whatever the scheduling.
 * No backend needed (the CLI run with real embedded targets is in tiers.test.ts).
 */
import { CELL_WEIGHT_BYTES, CELLS_PER_CPU, cellsFirst, defaultParallelism, exclusiveSuites, MAX_PARALLEL, MEMORY_SHARE, parseParallel, resolveParallelism } from '../src/parallel';
import { startParallelism, startTimeoutScale } from '@memory-matrix/targets';
import { MatrixRuntime } from '../src/runtime';

const GiB = 2 ** 30;
const cells = (...providers: Array<'embedded' | 'container' | 'local' | 'url'>) => providers.map((provider) => ({ provider }));

describe('defaultParallelism', () => {
  test('CPU bound: cpus × CELLS_PER_CPU when memory is plentiful', () => {
    const p = defaultParallelism(cells(...Array<'container'>(11).fill('container')), { cpus: 2, freeBytes: 64 * GiB });
    expect(p.cells).toBe(2 * CELLS_PER_CPU);
    expect(p.why).toContain('2 CPU');
  });

  test('never more cells than targets, never fewer than 1', () => {
    expect(defaultParallelism(cells('embedded', 'embedded'), { cpus: 16, freeBytes: 64 * GiB }).cells).toBe(2);
    expect(defaultParallelism(cells('container'), { cpus: 1, freeBytes: 0 }).cells).toBe(1);
    expect(defaultParallelism([], { cpus: 4, freeBytes: 64 * GiB }).cells).toBe(1);
  });

  test('memory bound: the heaviest cells that fit in MEMORY_SHARE of the free memory', () => {
    const free = (2 * CELL_WEIGHT_BYTES.container + CELL_WEIGHT_BYTES.local) / MEMORY_SHARE; // exactly 2 containers + 1 local (a lighter cell)
    const mixed = cells('local', 'container', 'local', 'container', 'container');
    expect(defaultParallelism(mixed, { cpus: 64, freeBytes: free }).cells).toBe(2); // the 3 heaviest are 3 containers: they do not fit
    expect(defaultParallelism(cells('local', 'container', 'container'), { cpus: 64, freeBytes: free }).cells).toBe(3);
    expect(defaultParallelism(cells('local', 'container', 'container'), { cpus: 64, freeBytes: free - 1 }).cells).toBe(2);
  });

  test('embedded cells are the exclusive suites (they share the runner thread)', () => {
    const ts = [
      { name: 'a@1', provider: 'embedded' as const },
      { name: 'b@1', provider: 'container' as const },
      { name: 'c@1', provider: 'local' as const },
    ];
    expect(exclusiveSuites(ts, 'ds')).toEqual(new Set(['a@1 × ds']));
  });

  test('an embedded cell (a child process of its own) weighs no more than a container cell', () => {
    expect(CELL_WEIGHT_BYTES.container).toBeGreaterThanOrEqual(CELL_WEIGHT_BYTES.embedded);
  });
});

describe('--parallel / MM_PARALLEL', () => {
  const host = { cpus: 2, freeBytes: 64 * GiB };
  test('the flag wins over the environment, the environment over the default', () => {
    expect(resolveParallelism('3', '1', cells('embedded'), host)).toEqual({ cells: 3, why: '--parallel' });
    expect(resolveParallelism(undefined, '1', cells('embedded', 'embedded'), host)).toEqual({ cells: 1, why: 'MM_PARALLEL' });
    expect(resolveParallelism(undefined, '', cells('embedded', 'embedded'), host).cells).toBe(2);
    expect(resolveParallelism(undefined, undefined, cells('embedded', 'embedded', 'embedded', 'embedded', 'embedded'), host).cells).toBe(2 * CELLS_PER_CPU);
  });

  test.each(['0', '-1', '1.5', 'two', '', String(MAX_PARALLEL + 1)])('%j is a USAGE error naming where it came from', (v) => {
    expect(() => parseParallel(v, '--parallel')).toThrow(expect.objectContaining({ code: 'USAGE', message: expect.stringContaining(`--parallel "${v}"`) }));
    expect(() => resolveParallelism(undefined, v === '' ? 'x' : v, [], host)).toThrow(expect.objectContaining({ code: 'USAGE', message: expect.stringContaining('MM_PARALLEL') }));
  });
});

describe('MM_START_PARALLEL / MM_START_TIMEOUT_SCALE (were ignored when wrong)', () => {
  // A fixed host factor: the scale is MM_START_TIMEOUT_SCALE × the host factor.
  beforeEach(() => {
    process.env.MM_HOST_FACTOR = '1';
  });
  afterEach(() => {
    delete process.env.MM_START_PARALLEL;
    delete process.env.MM_START_TIMEOUT_SCALE;
    delete process.env.MM_HOST_FACTOR;
  });
  test('unset or empty: the defaults; set: the value', () => {
    expect([startParallelism(), startTimeoutScale()]).toEqual([2, 1]);
    Object.assign(process.env, { MM_START_PARALLEL: '', MM_START_TIMEOUT_SCALE: '' });
    expect([startParallelism(), startTimeoutScale()]).toEqual([2, 1]);
    Object.assign(process.env, { MM_START_PARALLEL: '3', MM_START_TIMEOUT_SCALE: '0.5' });
    expect([startParallelism(), startTimeoutScale()]).toEqual([3, 0.5]);
    process.env.MM_HOST_FACTOR = '2.5'; // a busy host: every start deadline longer by its factor
    expect(startTimeoutScale()).toBe(1.25);
  });
  test.each(['0', '-3', 'abc', '1.5'])('MM_START_PARALLEL=%s is a USAGE error naming the variable', (v) => {
    process.env.MM_START_PARALLEL = v;
    expect(() => startParallelism()).toThrow(expect.objectContaining({ code: 'USAGE', message: expect.stringContaining(`MM_START_PARALLEL "${v}"`) }));
  });
  test.each(['0', '-3', 'abc', 'Infinity'])('MM_START_TIMEOUT_SCALE=%s is a USAGE error naming the variable', (v) => {
    process.env.MM_START_TIMEOUT_SCALE = v;
    expect(() => startTimeoutScale()).toThrow(expect.objectContaining({ code: 'USAGE', message: expect.stringContaining(`MM_START_TIMEOUT_SCALE "${v}"`) }));
  });
});

describe('MatrixRuntime with concurrency', () => {
  /** Three suites whose tests take 60, 5 and 30 ms: finishing order differs from registration order. */
  function build(log: string[], running: { now: number; max: number }): MatrixRuntime {
    const rt = new MatrixRuntime();
    for (const [name, ms] of [
      ['slow', 60],
      ['fast', 5],
      ['mid', 30],
    ] as const) {
      rt.describe(name, () => {
        rt.beforeAll(async () => {
          running.now++;
          running.max = Math.max(running.max, running.now);
        });
        for (const t of ['a', 'b']) {
          rt.test(t, async () => {
            log.push(`${name}:${t}:start`);
            await new Promise((r) => setTimeout(r, ms));
            log.push(`${name}:${t}:end`);
          });
        }
        rt.test.skip('c [skipped: capability: x]');
        rt.afterAll(async () => {
          running.now--;
        });
      });
    }
    return rt;
  }

  test('results in registration order, tests of one suite one after another, at most N suites at once', async () => {
    for (const n of [1, 2, 3]) {
      const log: string[] = [];
      const running = { now: 0, max: 0 };
      const seen: string[] = [];
      const r = await build(log, running).run((t) => seen.push(`${t.suite}:${t.title}`), { concurrency: n });
      expect(r.tests.map((t) => `${t.suite}:${t.title}:${t.status}`)).toEqual(['slow', 'fast', 'mid'].flatMap((s) => [`${s}:a:passed`, `${s}:b:passed`, `${s}:c [skipped: capability: x]:skipped`]));
      expect(running.max).toBe(n);
      for (const s of ['slow', 'fast', 'mid']) {
        const own = log.filter((l) => l.startsWith(`${s}:`));
        expect(own).toEqual([`${s}:a:start`, `${s}:a:end`, `${s}:b:start`, `${s}:b:end`]); // sequential inside a suite
      }
      if (n > 1) expect(seen.indexOf('fast:b')).toBeLessThan(seen.indexOf('slow:b')); // scheduling did change the finishing order
    }
  });

  test('exclusive suites run after the others, one at a time, alone; results stay in registration order', async () => {
    const rt = new MatrixRuntime();
    const running = new Set<string>();
    const overlaps: string[][] = [];
    for (const name of ['e1', 'c1', 'e2', 'c2', 'c3']) {
      rt.describe(name, () => {
        rt.test('t', async () => {
          running.add(name);
          overlaps.push([...running].sort());
          await new Promise((r) => setTimeout(r, 20));
          running.delete(name);
        });
      });
    }
    const order: string[] = [];
    const r = await rt.run((t) => order.push(t.suite), { concurrency: 3, exclusive: new Set(['e1', 'e2']) });
    expect(r.tests.map((t) => t.suite)).toEqual(['e1', 'c1', 'e2', 'c2', 'c3']);
    expect(order.slice(3)).toEqual(['e1', 'e2']);
    for (const o of overlaps) if (o.some((n) => n.startsWith('e'))) expect(o).toHaveLength(1);
    expect(Math.max(...overlaps.map((o) => o.length))).toBe(3); // the others did run side by side
    const seq: string[] = [];
    await rt.run((t) => seq.push(t.suite), { concurrency: 1, exclusive: new Set(['e1', 'e2']) });
    expect(seq).toEqual(['e1', 'c1', 'e2', 'c2', 'c3']); // --parallel 1: registration order
  });

  test('suites named in first start before the others; results stay in registration order; concurrency 1 keeps registration order', async () => {
    const rt = new MatrixRuntime();
    for (const name of ['a', 'b', 'long1', 'c', 'long2']) {
      rt.describe(name, () => {
        rt.test('t', async () => {
          await new Promise((r) => setTimeout(r, 5));
        });
      });
    }
    const started: string[] = [];
    const r = await rt.run((t) => started.push(t.suite), { concurrency: 2, first: new Set(['long1', 'long2']) });
    expect(started.slice(0, 2).sort()).toEqual(['long1', 'long2']);
    expect(r.tests.map((t) => t.suite)).toEqual(['a', 'b', 'long1', 'c', 'long2']);
    const seq: string[] = [];
    await rt.run((t) => seq.push(t.suite), { concurrency: 1, first: new Set(['long1', 'long2']) });
    expect(seq).toEqual(['a', 'b', 'long1', 'c', 'long2']);
  });

  test('cellsFirst: the cells that run a fault-instance check on a target with faults', () => {
    const t = (name: string, faults: boolean) => ({ name, capabilities: { faults } as never });
    const targets = [t('pgvector@pglite-pg18', false), t('pgvector@pg17', true), t('redis@8.0', true)];
    expect([...cellsFirst(targets, ['C01', 'C15'], 'd')]).toEqual(['pgvector@pg17 × d', 'redis@8.0 × d']);
    expect([...cellsFirst(targets, ['C01', 'C02'], 'd')]).toEqual([]); // pr-gate: no fault check runs, catalog order
  });

  test('cancel(): suites not yet started are not started', async () => {
    const rt = new MatrixRuntime();
    const ran: string[] = [];
    for (const name of ['one', 'two', 'three']) {
      rt.describe(name, () => {
        rt.test('t', async () => {
          ran.push(name);
          if (name === 'one') rt.cancel();
        });
      });
    }
    const r = await rt.run(undefined, { concurrency: 1 });
    expect(ran).toEqual(['one']);
    expect(r.tests.map((t) => t.suite)).toEqual(['one']);
  });

  test('a concurrency below 1 is refused', async () => {
    await expect(new MatrixRuntime().run(undefined, { concurrency: 0 })).rejects.toThrow(RangeError);
  });
});
