import pLimit from 'p-limit';
import { describeLimit, hostCalibration, withinLimit, yieldToEventLoop, type CheckDefinition, type CheckResult, type TestBody, type TestRuntime } from '@memory-matrix/spec';

/** One registered test as the runner saw it. */
export interface RanTest {
  suite: string;
  title: string;
  status: 'passed' | 'failed' | 'skipped';
  error?: Error;
  /** The test itself was stopped at its time limit (`error` is the TimeoutError); its body may still be running. */
  timedOut?: true;
  durationMs: number;
}

interface Suite {
  name: string;
  beforeAll: Array<{ fn: TestBody; timeoutMs: number }>;
  afterAll: Array<{ fn: TestBody; timeoutMs: number }>;
  tests: Array<{ title: string; fn?: TestBody; timeoutMs: number; skip: boolean }>;
}

/**
 * What a suite is doing, as `MatrixRuntime.run`'s `onPhase` is told before each step: its setup
 * hook number `hook` (0: the cell's start; 1 and later: what it prepares before its first check,
 * the golden load among it), a test (`title`: `C08 score-canonical`), or its teardown.
 */
export type SuitePhase = { kind: 'setup'; hook: number } | { kind: 'test'; title: string } | { kind: 'teardown' };

/** Error raised when a hook or test exceeds its time limit. */
export class TimeoutError extends Error {
  readonly code = 'TIMEOUT';
}

/**
 * Run `fn` with a time limit of `ms` × `factor` (the host factor, spec host.ts; default 1; clamped
 * to 2^31−1 ms, spec timer.ts); the timer never keeps the process alive. Rejects with TimeoutError
 * (code TIMEOUT) "<what> exceeded 300000 ms" (at factor 1) or "… exceeded 300000 ms × host factor
 * 2.1 = 630000 ms" — also when `fn` returns after its limit without yielding (a synchronous start:
 * spec timer.ts `withinLimit` judges it when it returns and says how long it ran).
 */
export function withTimeout<T>(fn: () => Promise<T> | T, ms: number, what: string, factor = 1): Promise<T> {
  return withinLimit(fn, ms * factor, () => new TimeoutError(`${what} exceeded ${describeLimit(ms, factor)}`));
}

/**
 * The result of a check its time limit stopped (`RanTest.timedOut`). Such a check never returns,
 * so it never reaches the result sink: without this row a report would lack it and a run whose
 * only failure is a hung check would exit 0 (a selftest mutant that hangs a check would count as
 * escaped). Failed, error code `TIMEOUT` with the limit's message, the wall time until the limit.
 * The check is found by its registered title (`C23 fault-surfaced`, spec register.ts); undefined
 * for any other test.
 */
export function timedOutResult(t: RanTest, checks: readonly CheckDefinition[]): CheckResult | undefined {
  if (!t.timedOut) return undefined;
  const c = checks.find((k) => t.title === `${k.id} ${k.name}`);
  if (!c) return undefined;
  return { id: c.id, name: c.name, status: 'failed', figures: {}, failures: [], notes: [], durationMs: t.durationMs, error: { code: 'TIMEOUT', message: t.error?.message ?? 'time limit exceeded' } };
}

/**
 * A minimal implementation of the spec's `TestRuntime` (describe / test / test.skip /
 * beforeAll / afterAll) so the runner executes exactly the tests jest would. A failing
 * `beforeAll` fails every test of its suite with that error (as jest does) and is reported
 * separately as a setup error.
 */
export class MatrixRuntime implements TestRuntime {
  private readonly suites: Suite[] = [];
  private current?: Suite;

  describe = (name: string, fn: () => void): void => {
    const suite: Suite = { name, beforeAll: [], afterAll: [], tests: [] };
    this.suites.push(suite);
    const prev = this.current;
    this.current = suite;
    try {
      fn();
    } finally {
      this.current = prev;
    }
  };

  test = Object.assign(
    (title: string, fn: TestBody, timeoutMs = 300_000): void => {
      this.suite().tests.push({ title, fn, timeoutMs, skip: false });
    },
    {
      skip: (title: string, _fn?: TestBody, timeoutMs = 0): void => {
        this.suite().tests.push({ title, timeoutMs, skip: true });
      },
    },
  );

  beforeAll = (fn: TestBody, timeoutMs = 120_000): void => {
    this.suite().beforeAll.push({ fn, timeoutMs });
  };

  afterAll = (fn: TestBody, timeoutMs = 60_000): void => {
    this.suite().afterAll.push({ fn, timeoutMs });
  };

  private suite(): Suite {
    if (!this.current) throw new Error('test/hook registered outside describe()');
    return this.current;
  }

  /** Set by `cancel()`: suites that have not started yet are not started. */
  private cancelled = false;

  /** Start no further suite and no further test of a running suite (an interrupt); the test in progress finishes or is stopped by its caller, and afterAll hooks still run. */
  cancel(): void {
    this.cancelled = true;
  }

  /**
   * Run the registered suites, up to `opts.concurrency` (integer ≥ 1, default 1 = one after
   * another in registration order) at once through a p-limit pool; the suites named in
   * `opts.exclusive` run after the others, one at a time and alone (with concurrency 1 every
   * suite runs in registration order). With more than one at a time, the suites named in
   * `opts.first` are started before the others (each group in registration order). The tests inside one suite
   * always run one after another (they share the suite's setup). `onTest` is called after each
   * test, as it finishes. Returns the tests in registration order (suite by suite, whatever the
   * scheduling) and, per suite, the setup/teardown error if any. A suite not started before
   * `cancel()` is left out of the result. Throws RangeError on a bad concurrency.
   *
   * `opts.ready` gates suites by name: such a suite takes its place in the pool only once its promise
   * settles (e.g. the container image it needs has been built: images.ts), so waiting for it neither
   * holds a place of the pool nor counts in the suite's setup limit; the suites without a gate run
   * meanwhile. A gate that resolves to an Error is the suite's setup error (its beforeAll hooks are
   * not run; its tests fail with it, its afterAll hooks still run). A gate must never reject.
   */
  async run(
    onTest?: (t: RanTest) => void,
    opts: {
      concurrency?: number;
      exclusive?: ReadonlySet<string>;
      first?: ReadonlySet<string>;
      ready?: ReadonlyMap<string, Promise<Error | undefined>>;
      /** Called before each hook and test of a suite starts (a child cell's journal: cell-child/journal.ts). */
      onPhase?: (suite: string, phase: SuitePhase) => void;
    } = {},
  ): Promise<{ tests: RanTest[]; setupErrors: Map<string, Error>; teardownErrors: Map<string, Error> }> {
    const concurrency = opts.concurrency ?? 1;
    if (!Number.isInteger(concurrency) || concurrency < 1) throw new RangeError(`concurrency must be an integer ≥ 1, got ${concurrency}`);
    const setupErrors = new Map<string, Error>();
    const teardownErrors = new Map<string, Error>();
    const one = (s: Suite, gateError?: Error): Promise<RanTest[]> => (this.cancelled ? Promise.resolve([]) : this.runSuite(s, setupErrors, teardownErrors, onTest, gateError, opts.onPhase));
    const gate = (s: Suite): Promise<Error | undefined> => opts.ready?.get(s.name) ?? Promise.resolve(undefined);
    // With 1 at a time every suite is alone already: registration order, as before the pool existed.
    const alone = (s: Suite): boolean => concurrency > 1 && (opts.exclusive?.has(s.name) ?? false);
    const limit = pLimit(concurrency);
    // p-limit starts queued calls in the order they were queued: the suites in `first` are queued first.
    const shared: RanTest[][] = this.suites.map(() => []);
    const early = (s: Suite): number => Number(concurrency > 1 && (opts.first?.has(s.name) ?? false));
    const queued = this.suites.map((s, i) => ({ s, i })).sort((a, b) => early(b.s) - early(a.s) || a.i - b.i);
    // A gated suite is queued when its gate settles; the ungated ones are queued at once, in order.
    const enqueue = (s: Suite, i: number): Promise<unknown> => {
      const g = opts.ready?.get(s.name);
      const start = (err?: Error): Promise<RanTest[]> => limit(() => one(s, err)).then((r) => (shared[i] = r));
      return g ? g.then(start) : start();
    };
    await Promise.all(queued.map(({ s, i }) => (alone(s) ? undefined : enqueue(s, i))));
    const perSuite: RanTest[][] = [];
    for (const [i, s] of this.suites.entries()) perSuite.push(alone(s) ? await one(s, await gate(s)) : shared[i]!);
    return { tests: perSuite.flat(), setupErrors, teardownErrors };
  }

  /** One suite: its beforeAll hooks (not when its gate failed: `gateError` is then its setup error), its tests in order, its afterAll hooks. */
  private async runSuite(
    s: Suite,
    setupErrors: Map<string, Error>,
    teardownErrors: Map<string, Error>,
    onTest?: (t: RanTest) => void,
    gateError?: Error,
    onPhase?: (suite: string, phase: SuitePhase) => void,
  ): Promise<RanTest[]> {
    const tests: RanTest[] = [];
    let setupError: Error | undefined = gateError;
    if (gateError) setupErrors.set(s.name, gateError);
    for (const [hook, h] of (gateError ? [] : s.beforeAll).entries()) {
      try {
        onPhase?.(s.name, { kind: 'setup', hook });
        await withTimeout(h.fn, h.timeoutMs, `${s.name}: setup`, hostCalibration().factor);
      } catch (e) {
        setupError = e as Error;
        setupErrors.set(s.name, setupError);
        break;
      }
    }
    for (const t of s.tests) {
      await yieldToEventLoop(); // a Ctrl-C during an in-process cell is handled between checks at the latest (spec yield.ts)
      if (this.cancelled) break;
      const t0 = performance.now();
      let ran: RanTest;
      if (t.skip) ran = { suite: s.name, title: t.title, status: 'skipped', durationMs: 0 };
      else if (setupError) ran = { suite: s.name, title: t.title, status: 'failed', error: setupError, durationMs: 0 };
      else {
        try {
          onPhase?.(s.name, { kind: 'test', title: t.title });
          await withTimeout(t.fn!, t.timeoutMs, `${s.name}: ${t.title}`, hostCalibration().factor);
          ran = { suite: s.name, title: t.title, status: 'passed', durationMs: performance.now() - t0 };
        } catch (e) {
          ran = { suite: s.name, title: t.title, status: 'failed', error: e as Error, durationMs: performance.now() - t0, ...(e instanceof TimeoutError ? { timedOut: true as const } : {}) };
        }
      }
      tests.push(ran);
      onTest?.(ran);
    }
    for (const h of s.afterAll) {
      try {
        onPhase?.(s.name, { kind: 'teardown' });
        await withTimeout(h.fn, h.timeoutMs, `${s.name}: teardown`, hostCalibration().factor);
      } catch (e) {
        teardownErrors.set(s.name, e as Error);
      }
    }
    return tests;
  }
}
