'use strict';
/**
 * memory-matrix: runs Chroma's server from its Node bindings, as `chroma run` does
 * (`binding.cli(['chroma', 'run', …])`, which is all chromadb's `dist/cli.mjs` does), but in a
 * worker thread: `cli()` blocks the thread it runs on, so the main thread stays free to
 *  - die at once on SIGTERM / SIGINT (SIGKILL to itself: a worker stuck in native code would
 *    otherwise keep `process.exit` waiting), and
 *  - die when its parent is gone (parent pid changes, checked every 250 ms: the parent exited,
 *    died of a signal, or was killed with -9),
 * removing its data dir first in each case, so no server or temp dir outlives the process that
 * started it.
 * argv: <bindings module path> <data dir> <host> <port> [keep]
 * With `keep` (fault instances, the local fault instances of packages/targets) the data dir is kept
 * when the launcher ends on SIGTERM / SIGINT or the server thread ends (the caller restarts on it
 * and removes it), and removed only when the parent is gone.
 */
const { Worker } = require('node:worker_threads');

const [bindings, dataDir, host, port, mode] = process.argv.slice(2);
const keep = mode === 'keep';
if (!bindings || !dataDir || !host || !port) {
  process.stderr.write('usage: chroma-launcher.js <bindings> <dataDir> <host> <port>\n');
  process.exit(2);
}
const { rmSync } = require('node:fs');
/** Remove the data dir (the parent's stop() removes it too; this covers a parent that died) and end at once. */
const die = (orphaned = false) => {
  process.removeAllListeners('SIGTERM');
  process.removeAllListeners('SIGINT');
  try {
    if (!keep || orphaned) rmSync(dataDir, { recursive: true, force: true });
  } finally {
    process.kill(process.pid, 'SIGKILL');
  }
};
const worker = new Worker('const { workerData: [b, d, h, p] } = require("node:worker_threads"); require(b).cli(["chroma", "run", "--path", d, "--host", h, "--port", p]);', {
  eval: true,
  workerData: [bindings, dataDir, host, port],
});
worker.on('error', (e) => {
  process.stderr.write(`chroma server failed: ${e && e.stack ? e.stack : e}\n`);
  die();
});
worker.on('exit', (code) => {
  process.stderr.write(`chroma server thread ended (code ${code})\n`);
  die();
});
const parent = process.ppid;
setInterval(() => {
  if (process.ppid !== parent) die(true);
}, 250);
process.on('SIGTERM', () => die());
process.on('SIGINT', () => die());
