/**
 * Let the Node.js event loop turn once (a `setImmediate` macrotask) before going on.
 *
 * An in-process engine answers without I/O: better-sqlite3 is synchronous and PGlite runs its WASM
 * on this thread, so a loop of `await collection.recall(…)` continues through microtasks only and the
 * event loop never reaches its timers or signal handlers. A Ctrl-C during such a loop was never seen
 * (a single-target PGlite or SQLite run went on to the end and exited 0), and neither were check
 * time limits. Long loops over a store call this between calls; it costs one macrotask (≈ µs).
 * Never rejects.
 */
export function yieldToEventLoop(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}
