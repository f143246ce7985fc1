/** Test helpers shared by spec's test files. */

/** The error `fn` throws, as `{ code, message }` (tests assert its code and exact message); throws when `fn` returns. */
export function failure(fn: () => unknown): { code?: unknown; message: string } {
  try {
    fn();
  } catch (e) {
    return e as { code?: unknown; message: string };
  }
  throw new Error('expected a throw');
}
