import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * A real Chroma server for the adapter's tests: the Rust server inside
 * `chromadb-js-bindings-linux-x64-gnu@1.0.1` (server 1.0.0, the newest that runs on glibc 2.36),
 * started the way `chroma run` does (`binding.cli(['chroma', 'run', …])`), on a free loopback
 * port with a temp data dir. `cli()` blocks its thread, so it runs in a worker thread and the
 * main thread stays free to die on SIGTERM and to exit when its parent (jest) is gone.
 * (The matrix's own provider is packages/targets/src/local; this helper keeps the adapter's
 * tests free of a dependency cycle.)
 */
export interface TestServer {
  port: number;
  dataDir: string;
  stop(): Promise<void>;
}

const LAUNCHER = `
const { Worker } = require('node:worker_threads');
const [bindings, dir, port] = process.argv.slice(1);
const w = new Worker('const [b, d, p] = require("node:worker_threads").workerData; require(b).cli(["chroma", "run", "--path", d, "--host", "127.0.0.1", "--port", p]);', { eval: true, workerData: [bindings, dir, port] });
const die = () => { process.removeAllListeners('SIGTERM'); process.kill(process.pid, 'SIGKILL'); };
w.on('error', (e) => { console.error(e); die(); });
w.on('exit', die);
const parent = process.ppid;
setInterval(() => { if (process.ppid !== parent) die(); }, 500).unref();
process.on('SIGTERM', die);
process.on('SIGINT', die);
`;

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address() as { port: number };
      s.close(() => resolve(port));
    });
  });
}

/** Start a server and wait (≤ 30 s) until /api/v2/heartbeat answers. */
export async function startTestServer(): Promise<TestServer> {
  const dataDir = mkdtempSync(join(tmpdir(), 'mm-chroma-test-'));
  const port = await freePort();
  const bindings = require.resolve('chromadb-js-bindings-linux-x64-gnu');
  const child: ChildProcess = spawn(process.execPath, ['-e', LAUNCHER, bindings, dataDir, String(port)], { stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr?.on('data', (b: Buffer) => (stderr = (stderr + b.toString()).slice(-2000)));
  const deadline = Date.now() + 30_000;
  for (;;) {
    try {
      const r = await fetch(`http://127.0.0.1:${port}/api/v2/heartbeat`);
      if (r.ok) break;
    } catch {
      // not listening yet
    }
    if (child.exitCode !== null || Date.now() > deadline) {
      child.kill('SIGKILL');
      rmSync(dataDir, { recursive: true, force: true });
      throw new Error(`chroma test server did not answer on 127.0.0.1:${port}: ${stderr}`);
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  return {
    port,
    dataDir,
    async stop() {
      if (child.exitCode === null && child.signalCode === null) {
        const gone = new Promise((r) => child.once('exit', r));
        child.kill('SIGTERM');
        await gone;
      }
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
