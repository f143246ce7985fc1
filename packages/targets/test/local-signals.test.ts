/**
 * No orphan server: a process that started a local Chroma server and then gets SIGINT / SIGTERM,
 * exits without stopping it, or is killed with SIGKILL leaves no server process and no temp dir.
 * Each case runs a small TypeScript script in a child `node --require tsx/cjs` (tsx's loader in
 * the child itself, so the signal reaches the process that owns the server).
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

const REPO = resolve(__dirname, '../../..');
const CHILD = `
import { startLocal as startLocalChroma } from ${JSON.stringify(resolve(__dirname, '../src/local'))};
const mode = process.argv[2];
startLocalChroma({ target: 'chroma@1.0', engine: 'chroma-bindings-1.0' }).then((b) => {
  console.log('STARTED ' + b.pid + ' ' + b.connection.port + ' ' + b.dataDir);
  if (mode === 'exit') process.exit(0);
  else setInterval(() => undefined, 1000); // wait for the signal
}, (err) => { console.error('START FAILED', err); process.exit(3); });
`;

let dir = '';
let script = '';
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'mm-local-guard-'));
  script = join(dir, 'child.ts');
  writeFileSync(script, CHILD);
});
afterAll(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
});

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

async function gone(pid: number, withinMs: number): Promise<boolean> {
  const end = Date.now() + withinMs;
  while (Date.now() < end) {
    if (!alive(pid)) return true;
    await new Promise((r) => setTimeout(r, 50));
  }
  return !alive(pid);
}

function runChild(mode: string) {
  const child = spawn(process.execPath, ['--require', require.resolve('tsx/cjs', { paths: [REPO] }), script, mode], { stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  let onStarted: (v: { pid: number; port: number; dataDir: string }) => void = () => undefined;
  const started = new Promise<{ pid: number; port: number; dataDir: string }>((res) => (onStarted = res));
  child.stdout!.on('data', (b: Buffer) => {
    out += b.toString();
    const m = /STARTED (\d+) (\d+) (\S+)/.exec(out);
    if (m) onStarted({ pid: Number(m[1]), port: Number(m[2]), dataDir: m[3]! });
  });
  child.stderr!.on('data', (b: Buffer) => (out += b.toString()));
  const ended = new Promise<{ code: number | null; signal: NodeJS.Signals | null; out: string }>((res) => child.on('close', (code, signal) => res({ code, signal, out })));
  return { child, started, ended };
}

test.each([['SIGINT'], ['SIGTERM'], ['SIGKILL']] as const)(
  '%s to the parent: the parent dies of it, the server process and its temp dir are gone',
  async (signal) => {
    const { child, started, ended } = runChild('wait');
    const s = await started;
    expect(alive(s.pid)).toBe(true);
    expect((await fetch(`http://127.0.0.1:${s.port}/api/v2/heartbeat`)).ok).toBe(true);
    child.kill(signal);
    const e = await ended;
    expect(e.signal).toBe(signal);
    // The parent dies of the signal (no exit handler runs): the launcher notices its parent is gone
    // (checked every 250 ms), removes its data dir and ends itself.
    expect(await gone(s.pid, 5_000)).toBe(true);
    expect(existsSync(s.dataDir)).toBe(false);
    await expect(fetch(`http://127.0.0.1:${s.port}/api/v2/heartbeat`)).rejects.toThrow();
  },
  60_000,
);

test('exit without stop(): the exit handler kills the server and removes its dir', async () => {
  const { started, ended } = runChild('exit');
  const s = await started;
  const e = await ended;
  expect(e.code).toBe(0);
  expect(await gone(s.pid, 5_000)).toBe(true);
  expect(existsSync(s.dataDir)).toBe(false);
}, 60_000);
