import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import net from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { MemoryRecord } from '@memory-matrix/spec';
import { connectLancedbProcess, storeProcessScript } from '../src';

/**
 * The store process (src/process/) on its own, as the fault checks start it: acknowledged upserts
 * survive a SIGKILL of the process and are read by the restarted one on the same directory; a
 * durability setting is refused at start with exit 2. C15 / C23 run it through `pnpm matrix`.
 */

const DIM = 8;
const rec = (i: number): MemoryRecord => ({
  id: `m${String(i).padStart(4, '0')}`,
  namespace: `ns${i % 3}`,
  text: `memory ${i} ✓`,
  kind: 'fact',
  createdAt: '2024-05-01T09:30:00.123Z',
  metadata: { i, even: i % 2 === 0 },
  embedding: Float32Array.from({ length: DIM }, (_, d) => Math.sin(i + d) + 1.5),
});

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = net.createServer();
    s.listen(0, '127.0.0.1', () => {
      const port = (s.address() as net.AddressInfo).port;
      s.close(() => resolve(port));
    });
    s.on('error', reject);
  });
}

/** Start the bundled store process on `dir`; resolves once it printed `ready`, or with its exit code when it ended first. */
function start(dir: string, port: number, settings: Record<string, string> = {}): Promise<{ child: ChildProcess; exit?: number }> {
  const child = spawn(process.execPath, [storeProcessScript('process.test'), dir, '127.0.0.1', String(port), 'keep', JSON.stringify(settings)], { stdio: ['ignore', 'pipe', 'pipe'] });
  return new Promise((resolve, reject) => {
    child.stdout!.setEncoding('utf8').on('data', (d: string) => d.includes('ready') && resolve({ child }));
    child.on('exit', (code) => resolve({ child, exit: code ?? -1 }));
    child.on('error', reject);
  });
}

const killed = (c: ChildProcess) => new Promise<void>((r) => (c.exitCode !== null || c.signalCode !== null ? r() : (c.once('exit', () => r()), c.kill('SIGKILL'))));

let dir: string;
const children: ChildProcess[] = [];
beforeEach(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'mm-lancedb-proc-'));
});
afterEach(async () => {
  for (const c of children.splice(0)) await killed(c);
  rmSync(dir, { recursive: true, force: true });
});

test('acknowledged upserts survive SIGKILL of the store process and are read back whole after a restart', async () => {
  const port = await freePort();
  const first = await start(dir, port);
  children.push(first.child);
  expect(first.exit).toBeUndefined();
  const ep = { host: '127.0.0.1' as const, port, where: 'process.test', containerId: 'p1' };
  const s = await connectLancedbProcess(ep);
  const c = await s.createCollection({ name: 'dur', dim: DIM, metric: 'cosine', index: { type: 'none' } });
  const written = Array.from({ length: 60 }, (_, i) => rec(i));
  for (let i = 0; i < 60; i += 10) await c.upsert(written.slice(i, i + 10));
  void c.upsert(Array.from({ length: 10 }, (_, i) => rec(100 + i))).catch(() => undefined); // in flight at the kill: all there or none
  await killed(first.child);
  await s.close();
  const again = await start(dir, port);
  children.push(again.child);
  const s2 = await connectLancedbProcess({ ...ep, containerId: 'p2' });
  const c2 = await s2.openCollection('dur');
  expect(await c2.get(written.map((r) => r.id))).toEqual(written);
  expect([60, 70]).toContain(await c2.count());
  expect((await c2.recall({ vector: written[7]!.embedding, k: 1 }))[0]!.id).toBe('m0007');
  await s2.close();
}, 120_000);

test('a durability setting is refused at start: exit 2 (LanceDB has none)', async () => {
  const r = await start(dir, await freePort(), { fsync: 'always' });
  children.push(r.child);
  expect(r.exit).toBe(2);
}, 60_000);
