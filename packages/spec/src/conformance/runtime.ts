/**
 * The test runtime the conformance suite registers into (injected, not jest globals).
 * jest's globals satisfy it structurally; the runner supplies its own small implementation so the
 * same checks run under `pnpm test` and `pnpm matrix`.
 */
/** Always async, so jest's `ProvidesCallback` accepts it as is. */
export type TestBody = () => Promise<void>;

export interface TestFunction {
  (name: string, fn: TestBody, timeoutMs?: number): void;
  /** Register a visibly skipped test (the reason is part of `name`). */
  skip(name: string, fn?: TestBody, timeoutMs?: number): void;
}

export interface TestRuntime {
  describe(name: string, fn: () => void): void;
  test: TestFunction;
  beforeAll(fn: TestBody, timeoutMs?: number): void;
  afterAll(fn: TestBody, timeoutMs?: number): void;
}
