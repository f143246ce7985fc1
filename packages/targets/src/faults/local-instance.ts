import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { stripVTControlCharacters } from 'node:util';
import {
  describeLimit,
  MemoryMatrixError,
  scaledLimitMs,
  type ConnectOptions,
  type DurabilityConfiguration,
  type FaultTarget,
  type LocalEndpoint,
  type ServerAddress,
  type LocalEngine,
  type LocalFaultControls,
  type LocalLaunch,
  type MemoryStore,
  type WriteLockHold,
} from '@memory-matrix/spec';
import type { ResolvedTarget } from '../target';
import { startTimeoutScale } from '../container/start';
import { guardProcess } from '../local/guard';
import { freeLoopbackPort } from '../local/process';
import { pollReady } from '../readiness';
import { serverAddress } from '../address';
import { findDriver } from '../registry';

let seq = 0;

/**
 * The local engine that runs `target` as a fault instance, else undefined: a local target's engine
 * when it has fault controls, or an embedded target's engine's `faultProcess` (the store in a
 * process of its own that owns the files, e.g. SQLite).
 */
export function localFaultEngine(target: Pick<ResolvedTarget, 'provider' | 'backend' | 'engine'>): LocalEngine<unknown> | undefined {
  if (target.engine === undefined) return undefined;
  if (target.provider === 'embedded') return findDriver(target.backend)?.embedded?.engines[target.engine]?.faultProcess;
  if (target.provider !== 'local') return undefined;
  const engine = findDriver(target.backend)?.local?.engines[target.engine];
  return engine?.faults ? engine : undefined;
}

/** Whether `target` is a local (or embedded with a fault process) target whose server can be started as a fault instance. */
export function localFaultSupported(target: Pick<ResolvedTarget, 'provider' | 'backend' | 'engine'>): boolean {
  return localFaultEngine(target) !== undefined;
}

/**
 * A local server (local provider, any driver engine with `faults`) as a `FaultTarget`, on a host
 * directory it owns (`hostDataDir`, `<MM_LOCAL_TMPDIR or os.tmpdir()>/mm-fault-<backend>-XXXXXX`).
 * Used as the older instance of C16 (`upgradeFrom` of a container target): the container fault
 * control then copies `hostDataDir` into a volume of the newer image (`storageOf`); and as every
 * fault instance of an embedded target whose engine has a `faultProcess` (local-control.ts).
 * `sharing`: run on the directory of that running instance instead of a new one (stores in files
 * several processes open at once: C22's writer processes); this instance then never removes it.
 * - kill: SIGKILL of the launcher; shutdown: the engine's `shutdownSignal`;
 * - restart: the launcher again on the same directory, on a new free loopback port;
 * - pause / unpause: SIGSTOP / SIGCONT of the launcher (every thread of the server stops);
 * - connect, dropConnections, awaitWriteInFlight: the engine's;
 * - stop: SIGKILL if running, then the directory is removed. The launcher is registered with the
 *   local exit guard (killed, directory removed, when this process exits) and ends itself when
 *   its parent dies (launched with `keep`: it leaves the directory to this instance otherwise).
 * Throws TARGET_UNAVAILABLE when the server does not become ready (its last output in the message).
 */
export class LocalFaultTarget implements FaultTarget {
  effective: Record<string, string> = {};
  private child?: ChildProcess;
  /** Exit-guard registrations of every launch (a dead launcher's entry still removes the directory at exit). */
  private readonly forgets: Array<() => void> = [];
  private output = '';
  private ep: LocalEndpoint;
  private paused = false;
  private removed = false;
  private readonly stores = new Set<MemoryStore>();
  private readonly faults: LocalFaultControls;

  private constructor(
    readonly target: string,
    readonly configuration: DurabilityConfiguration,
    readonly hostDataDir: string,
    private readonly engine: LocalEngine<unknown>,
    private readonly launchFacts: LocalLaunch,
    private readonly startTimeoutMs: number,
    private readonly adapterOptions: unknown,
    private readonly ownsDir: boolean,
  ) {
    this.ep = { host: '127.0.0.1', port: 0, containerId: `local-${process.pid}-${++seq}`, where: `${target} [${configuration.name}] (local, ${hostDataDir})` };
    this.faults = engine.faults!;
    const hold = this.faults.holdWriteLock;
    if (hold) this.holdWriteLock = () => hold.call(this.faults, this.ep);
  }

  /** `FaultTarget.holdWriteLock`, where the engine's fault controls can hold its write lock (on the server's current address). */
  readonly holdWriteLock?: () => Promise<WriteLockHold>;

  /**
   * Start `target` (`localFaultSupported`) on a new host directory (or `opts.sharing`'s), in
   * `configuration`; TARGET_UNAVAILABLE when a configured setting is not in effect as reported.
   */
  static async start(target: ResolvedTarget, configuration: DurabilityConfiguration, opts: { sharing?: LocalFaultTarget } = {}): Promise<LocalFaultTarget> {
    const engine = localFaultEngine(target);
    if (!engine) throw new MemoryMatrixError('TARGET_UNAVAILABLE', `${target.name}: no local fault implementation for provider ${target.provider} engine ${target.engine}`);
    const launch = engine.preflight(target.name);
    const dir = opts.sharing?.hostDataDir ?? mkdtempSync(path.join(process.env.MM_LOCAL_TMPDIR || tmpdir(), `mm-fault-${target.backend}-`));
    const timeoutMs = Math.round((target.start?.timeoutMs ?? engine.defaultStartTimeoutMs) * startTimeoutScale());
    const t = new LocalFaultTarget(target.name, configuration, dir, engine, launch, timeoutMs, target.driverOptions, opts.sharing === undefined);
    try {
      await t.launch();
      t.effective = await engine.faults!.effective(dir, launch, t.ep);
      // Every configured setting must be in effect as the server reports it (case aside: SQLite answers `wal` to journal_mode = WAL).
      const bad = Object.entries(configuration.settings ?? {}).filter(([k, v]) => t.effective[k]?.toUpperCase() !== v.toUpperCase());
      if (bad.length) {
        const why = bad.map(([k, v]) => `${k} is ${JSON.stringify(t.effective[k] ?? null)}, expected ${JSON.stringify(v)}`).join('; ');
        throw new MemoryMatrixError('TARGET_UNAVAILABLE', `${t.ep.where}: configuration not in effect: ${why}`);
      }
    } catch (err) {
      await t.stop();
      throw err;
    }
    return t;
  }

  /** Whether `stop()` was called (the instance and, if it owned it, its directory are gone). */
  get stopped(): boolean {
    return this.removed;
  }

  /** Whether the server process is alive. */
  running(): boolean {
    return this.child !== undefined && this.child.exitCode === null && this.child.signalCode === null;
  }

  private async launch(): Promise<void> {
    const port = await freeLoopbackPort();
    const args = this.launchFacts.args(this.hostDataDir, '127.0.0.1', port, true, this.configuration.settings ?? {});
    const child = spawn(process.execPath, [this.launchFacts.script, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
    const keep = (d: Buffer) => (this.output = (this.output + d.toString()).slice(-4096));
    child.stdout?.on('data', keep);
    child.stderr?.on('data', keep);
    this.child = child;
    this.forgets.push(guardProcess(child, this.hostDataDir)); // a shared directory too: at exit no instance of this process needs it
    this.ep = { ...this.ep, port };
    const deadline = Date.now() + this.startTimeoutMs;
    const exitedError = () =>
      child.exitCode !== null || child.signalCode !== null
        ? new MemoryMatrixError('TARGET_UNAVAILABLE', `${this.ep.where}: the server exited during start (${child.exitCode ?? child.signalCode}); output: ${this.tail()}`)
        : undefined;
    try {
      await pollReady((remaining) => this.engine.probe(this.ep, remaining), {
        deadline,
        everyMs: 100,
        where: this.ep.where,
        what: 'the server did not answer its readiness probe',
        stopIf: exitedError,
      });
    } catch (err) {
      if (err instanceof MemoryMatrixError && err.message.includes('output:')) throw err;
      throw new MemoryMatrixError('TARGET_UNAVAILABLE', `${(err as Error).message}; output: ${this.tail()}`, { cause: err });
    }
  }

  private tail(): string {
    return stripVTControlCharacters(this.output)
      .split('\n')
      .map((l) => l.trim())
      .filter(Boolean)
      .slice(-6)
      .join(' | ');
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
      const t = setTimeout(() => r(false), scaledLimitMs(15_000)); // × the host factor (spec host.ts)
      void gone.then(() => {
        clearTimeout(t);
        r(true);
      });
    });
    if (!ok) throw new MemoryMatrixError('BACKEND_ERROR', `${this.ep.where}: still running ${describeLimit(15_000)} after ${signal}`);
  }

  async address(): Promise<ServerAddress> {
    if (this.removed) throw new MemoryMatrixError('TARGET_UNAVAILABLE', `${this.ep.where}: address after stop()`);
    const url = this.engine.connectionString;
    return serverAddress(this.ep.where, this.target.split('@')[0]!, url && (() => url(this.ep)), 'its local engine has no connectionString');
  }

  async connect(opts?: ConnectOptions): Promise<MemoryStore> {
    if (this.removed) throw new MemoryMatrixError('BACKEND_ERROR', `${this.ep.where}: connect after stop()`);
    // Fault checks always pass options; `{}` keeps the instance's own transport bookkeeping.
    const store = await this.engine.connect(this.ep, opts ?? {}, this.adapterOptions);
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
    return this.end(this.faults.shutdownSignal);
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
    return this.faults.dropConnections(this.ep, clientName);
  }

  awaitWriteInFlight(clientName: string, timeoutMs: number, onWatching?: () => void): Promise<void> {
    return this.faults.awaitWriteInFlight(this.ep, clientName, timeoutMs, onWatching);
  }

  /** Close the stores, SIGKILL the server if it runs, remove the directory (unless it is another instance's). Idempotent. */
  async stop(): Promise<void> {
    if (this.removed) return;
    this.removed = true;
    await Promise.allSettled([...this.stores].map((s) => s.close()));
    await this.end('SIGKILL').catch(() => undefined);
    if (this.ownsDir) rmSync(this.hostDataDir, { recursive: true, force: true });
    this.forgets.forEach((f) => f());
  }
}
