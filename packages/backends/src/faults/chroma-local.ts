import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { stripVTControlCharacters } from 'node:util';
import { MemoryMatrixError, type ConnectOptions, type DurabilityConfiguration, type FaultTarget, type MemoryStore } from '@memory-matrix/spec';
import type { ResolvedTarget } from '../catalog';
import { startTimeoutScale } from '../container/start';
import { chromaBindings, LOCAL_CHROMA_ENGINES, type LocalChromaEngine } from '../local/chroma';
import { guardProcess } from '../local/guard';
import { freeLoopbackPort } from '../local/process';
import { awaitChromaWrite, connectChroma, dropChromaClient, waitForChroma } from './chroma-kind';
import type { FaultEndpoint } from './kinds';

const LAUNCHER = path.join(__dirname, '..', 'local', 'chroma-launcher.js');
let seq = 0;

/** Whether `target` is a local target whose server can be started as a fault instance (today: Chroma's native engines). */
export function localFaultSupported(target: Pick<ResolvedTarget, 'provider' | 'backend' | 'engine'>): boolean {
  return target.provider === 'local' && target.backend === 'chroma' && target.engine !== undefined && target.engine in LOCAL_CHROMA_ENGINES;
}

/**
 * A native Chroma server (local provider, e.g. chroma@1.0 = Chroma 1.0.0 from
 * chromadb-js-bindings 1.0.1) as a `FaultTarget`, on a host directory it owns
 * (`hostDataDir`, `<MM_LOCAL_TMPDIR or os.tmpdir()>/mm-fault-chroma-XXXXXX`). Used as the older
 * instance of C16 (`upgradeFrom` of chroma@1.4): the container fault control then copies
 * `hostDataDir` into a volume of the newer image (`storageOf`).
 * - kill: SIGKILL of the launcher, which hosts the server in a worker thread (local/chroma-launcher.js);
 * - shutdown: SIGTERM. Chroma 1.0.0 has no clean shutdown to ask for: measured here, SIGINT is
 *   caught and the server keeps answering; SIGTERM ends it at once (the launcher SIGKILLs itself,
 *   as a worker in native code cannot be joined). What the directory holds afterwards is what
 *   any termination leaves: the requests Chroma acknowledged, committed in its SQLite log;
 * - restart: the launcher again on the same directory, on a new free loopback port;
 * - pause / unpause: SIGSTOP / SIGCONT of the launcher (every thread of the server stops);
 * - connect, dropConnections, awaitWriteInFlight: as the container kind (chroma-kind.ts);
 * - stop: SIGKILL if running, then the directory is removed. The launcher is registered with the
 *   local exit guard (killed, directory removed, when this process exits) and ends itself, removing
 *   the directory, when its parent dies.
 * Throws TARGET_UNAVAILABLE when the server does not become ready (its last output in the message).
 */
export class LocalChromaFaultTarget implements FaultTarget {
  effective: Record<string, string> = {};
  private child?: ChildProcess;
  /** Exit-guard registrations of every launch (a dead launcher's entry still removes the directory at exit). */
  private readonly forgets: Array<() => void> = [];
  private output = '';
  private ep: FaultEndpoint;
  private paused = false;
  private removed = false;
  private readonly stores = new Set<MemoryStore>();

  private constructor(
    readonly target: string,
    readonly configuration: DurabilityConfiguration,
    readonly hostDataDir: string,
    private readonly bindings: string,
    private readonly startTimeoutMs: number,
  ) {
    this.ep = { host: '127.0.0.1', port: 0, containerId: `local-${process.pid}-${++seq}`, where: `${target} [${configuration.name}] (local, ${hostDataDir})` };
  }

  /** Start `target` (a local Chroma target) on a new host directory, in `configuration`. */
  static async start(target: ResolvedTarget, configuration: DurabilityConfiguration): Promise<LocalChromaFaultTarget> {
    if (!localFaultSupported(target)) throw new MemoryMatrixError('TARGET_UNAVAILABLE', `${target.name}: no local fault implementation for provider ${target.provider} engine ${target.engine}`);
    const b = chromaBindings(target.engine as LocalChromaEngine, target.name);
    const dir = mkdtempSync(path.join(process.env.MM_LOCAL_TMPDIR || tmpdir(), 'mm-fault-chroma-'));
    const t = new LocalChromaFaultTarget(target.name, configuration, dir, b.module, Math.round((target.start?.timeoutMs ?? 30_000) * startTimeoutScale()));
    try {
      await t.launch();
      t.effective = { persist_path: dir, engine: `chromadb-js-bindings ${b.version}` };
    } catch (err) {
      await t.stop();
      throw err;
    }
    return t;
  }

  /** Whether the server process is alive. */
  running(): boolean {
    return this.child !== undefined && this.child.exitCode === null && this.child.signalCode === null;
  }

  private async launch(): Promise<void> {
    const port = await freeLoopbackPort();
    const child = spawn(process.execPath, [LAUNCHER, this.bindings, this.hostDataDir, '127.0.0.1', String(port), 'keep'], { stdio: ['ignore', 'pipe', 'pipe'] });
    const keep = (d: Buffer) => (this.output = (this.output + d.toString()).slice(-4096));
    child.stdout?.on('data', keep);
    child.stderr?.on('data', keep);
    this.child = child;
    this.forgets.push(guardProcess(child, this.hostDataDir));
    this.ep = { ...this.ep, port };
    const deadline = Date.now() + this.startTimeoutMs;
    const exited = new Promise<never>((_, reject) =>
      child.once('exit', (code, sig) => reject(new MemoryMatrixError('TARGET_UNAVAILABLE', `${this.ep.where}: the server exited during start (${code ?? sig}); output: ${this.tail()}`))),
    );
    exited.catch(() => undefined);
    try {
      await Promise.race([waitForChroma(this.ep, deadline), exited]);
    } catch (err) {
      if (err instanceof MemoryMatrixError && err.message.includes('output:')) throw err;
      throw new MemoryMatrixError('TARGET_UNAVAILABLE', `${(err as Error).message}; output: ${this.tail()}`, { cause: err });
    }
  }

  private tail(): string {
    return stripVTControlCharacters(this.output).split('\n').map((l) => l.trim()).filter(Boolean).slice(-6).join(' | ');
  }

  /** Send `signal` and wait until the process has exited (BACKEND_ERROR after 15 s). */
  private async end(signal: NodeJS.Signals): Promise<void> {
    const child = this.child;
    if (!child || !this.running()) return;
    const gone = new Promise<void>((r) => child.once('exit', () => r()));
    if (this.paused) {
      child.kill('SIGCONT');
      this.paused = false;
    }
    child.kill(signal);
    const ok = await new Promise<boolean>((r) => {
      const t = setTimeout(() => r(false), 15_000);
      void gone.then(() => {
        clearTimeout(t);
        r(true);
      });
    });
    if (!ok) throw new MemoryMatrixError('BACKEND_ERROR', `${this.ep.where}: still running 15 s after ${signal}`);
  }

  async connect(opts?: ConnectOptions): Promise<MemoryStore> {
    if (this.removed) throw new MemoryMatrixError('BACKEND_ERROR', `${this.ep.where}: connect after stop()`);
    const store = await connectChroma(this.ep, opts);
    this.stores.add(store);
    const close = store.close.bind(store);
    store.close = async () => {
      this.stores.delete(store);
      await close();
    };
    return store;
  }

  kill(): Promise<void> {
    return this.end('SIGKILL');
  }

  shutdown(): Promise<void> {
    return this.end('SIGTERM');
  }

  async restart(): Promise<{ restartMs: number }> {
    if (this.removed) throw new MemoryMatrixError('BACKEND_ERROR', `${this.ep.where}: restart after stop()`);
    if (this.running()) throw new MemoryMatrixError('BACKEND_ERROR', `${this.ep.where}: restart while the server is running; kill() or shutdown() first`);
    const t0 = performance.now();
    await this.launch();
    return { restartMs: performance.now() - t0 };
  }

  async pause(): Promise<void> {
    if (!this.running()) throw new MemoryMatrixError('BACKEND_ERROR', `${this.ep.where}: pause of a server that is not running`);
    this.child!.kill('SIGSTOP');
    this.paused = true;
  }

  async unpause(): Promise<void> {
    if (!this.paused) return;
    this.child?.kill('SIGCONT');
    this.paused = false;
  }

  async dropConnections(clientName: string): Promise<number> {
    return dropChromaClient(this.ep, clientName);
  }

  awaitWriteInFlight(clientName: string, timeoutMs: number): Promise<void> {
    return awaitChromaWrite(this.ep, clientName, timeoutMs);
  }

  /** Close the stores, SIGKILL the server if it runs, remove the directory. Idempotent. */
  async stop(): Promise<void> {
    if (this.removed) return;
    this.removed = true;
    await Promise.allSettled([...this.stores].map((s) => s.close()));
    await this.end('SIGKILL').catch(() => undefined);
    rmSync(this.hostDataDir, { recursive: true, force: true });
    this.forgets.forEach((f) => f());
  }
}
