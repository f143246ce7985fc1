import {
  describeLimit,
  hostCalibration,
  MemoryMatrixError,
  type ConnectOptions,
  type ContainerEndpoint,
  type DurabilityConfiguration,
  type FaultKindControls,
  type FaultTarget,
  type MemoryStore,
  type ServerAddress,
} from '@memory-matrix/spec';
import { serverAddress } from '../address';
import { createContainer, type InstanceSpec } from './instance-create';
import { containerEndpoint } from '../container/endpoint';
import { findContainerKind } from '../registry';
import { registerContainer, unregisterContainer } from '../container/guard';
import { waitForKind } from '../container/start';
import { pollReady } from '../readiness';
import { freezeWithRetry } from './freeze';
import { containerState, docker, killContainer, logMatches, mappedPort, pollUntil, startContainer } from './docker-ops';
import { endCpuSegment } from '../container/cpu';

export type { InstanceSpec } from './instance-create';

/**
 * A fault instance: one container (labelled like every container of the run, registered with the
 * exit guard) whose data directory is a volume, driven with the Docker CLI. See spec
 * `FaultTarget` for the contract; `start` is the only way to make one.
 */
export class ContainerFaultTarget implements FaultTarget {
  readonly target: string;
  readonly configuration: DurabilityConfiguration;
  effective: Record<string, string> = {};
  private ep: ContainerEndpoint;
  private readonly faults: FaultKindControls;
  private paused = false;
  private removed = false;
  private stopping?: Promise<void>;
  private readonly stores = new Set<MemoryStore>();

  private constructor(
    readonly spec: InstanceSpec,
    readonly containerId: string,
  ) {
    this.target = spec.target;
    this.configuration = spec.configuration;
    this.ep = containerEndpoint(containerId, 0, `${spec.target} [${spec.configuration.name}] (container ${containerId.slice(0, 12)})`);
    if (!spec.kind.faults) throw new MemoryMatrixError('TARGET_UNAVAILABLE', `${spec.target}: container kind ${spec.kind.kind} has no fault controls`);
    this.faults = spec.kind.faults;
  }

  /**
   * Create (instance-create.ts `createContainer`) and start the container, wait until ready, apply and verify the configuration's
   * settings (restarting when they need it). Throws TARGET_UNAVAILABLE with the last log lines when
   * the server exits or is not ready in time (the container is removed; the volume is the caller's).
   */
  static async start(spec: InstanceSpec): Promise<ContainerFaultTarget> {
    const id = await createContainer(spec);
    registerContainer(id, spec.target);
    const t = new ContainerFaultTarget(spec, id);
    try {
      await t.startAndWait(0);
      const settings = spec.configuration.settings ?? {};
      if (Object.keys(settings).length && (await t.faults.applySettings(t.ep, settings)) === 'restart') await t.restart();
      await t.verify();
    } catch (err) {
      await t.remove().catch(() => undefined);
      throw err;
    }
    return t;
  }

  /** `docker start`, then the kind's ready log line (one more than `readyBefore`) and a real query, within the start deadline. */
  private async startAndWait(readyBefore: number): Promise<void> {
    const deadline = Date.now() + this.spec.startTimeoutMs;
    await startContainer(this.containerId, this.ep.where);
    const readyLog = this.spec.kind.readyLog;
    // The log line through the one readiness poller; a server that exits stops the wait at once.
    await pollReady(
      async () => {
        if ((await logMatches(this.containerId, readyLog)).count <= readyBefore) throw new Error('not yet');
      },
      {
        deadline,
        everyMs: 100,
        where: this.ep.where,
        what: `no "${readyLog.source}" log line`,
        stopIf: async () => {
          const st = await containerState(this.containerId, this.ep.where);
          if (st.status === 'running') return undefined;
          const logs = await logMatches(this.containerId, readyLog);
          return new MemoryMatrixError(
            'TARGET_UNAVAILABLE',
            `${this.ep.where}: the server exited (status ${st.status}, exit code ${st.exitCode}) before it was ready; container log: ${logs.tail.join(' | ')}`,
          );
        },
      },
    ).catch(async (err: unknown) => {
      if (!(err instanceof MemoryMatrixError) || err.message.includes('container log:')) throw err;
      const logs = await logMatches(this.containerId, readyLog);
      throw new MemoryMatrixError('TARGET_UNAVAILABLE', `${this.ep.where}: no "${readyLog.source}" log line within ${this.spec.startTimeoutMs} ms; container log: ${logs.tail.join(' | ')}`, {
        cause: err,
      });
    });
    this.ep = { ...this.ep, port: await mappedPort(this.containerId, this.spec.kind.port, this.ep.where) };
    await waitForKind(this.spec.kind, this.ep, deadline);
    await this.faults.verifyInstance?.(this.ep);
  }

  /** Every configured setting (settings and `-c k=v` args) must be in effect; TARGET_UNAVAILABLE otherwise. */
  private async verify(): Promise<void> {
    const want = { ...this.faults.settingsInArgs(this.spec.configuration.args ?? []), ...(this.spec.configuration.settings ?? {}) };
    const deadline = Date.now() + 5_000; // pg_reload_conf() signals the server; sessions pick it up within moments
    let got: Record<string, string> = {};
    const ok = await pollUntil(
      async () => {
        got = await this.faults.effectiveSettings(this.ep, Object.keys(want));
        return Object.entries(want).every(([k, v]) => got[k] === v) ? true : undefined;
      },
      deadline,
      100,
    );
    this.effective = got;
    if (!ok) {
      const bad = Object.entries(want)
        .filter(([k, v]) => got[k] !== v)
        .map(([k, v]) => `${k} is ${JSON.stringify(got[k] ?? null)}, expected ${JSON.stringify(v)}`);
      throw new MemoryMatrixError(
        'TARGET_UNAVAILABLE',
        `${this.ep.where}: configuration not in effect: ${bad.join('; ')} (an image whose command does not forward arguments ignores \`args\`; use \`settings\`)`,
      );
    }
  }

  async address(): Promise<ServerAddress> {
    const kind = this.spec.kind;
    if (this.removed) throw new MemoryMatrixError('TARGET_UNAVAILABLE', `${this.ep.where}: address after stop()`);
    return serverAddress(
      this.ep.where,
      findContainerKind(kind.kind)?.driver.name ?? '?',
      kind.connectionString && (() => kind.connectionString!(this.ep)),
      `container kind ${kind.kind} has no connectionString`,
    );
  }

  async connect(opts?: ConnectOptions): Promise<MemoryStore> {
    if (this.removed) throw new MemoryMatrixError('BACKEND_ERROR', `${this.ep.where}: connect after stop()`);
    const store = await this.spec.kind.connect(this.ep, opts ?? {}, this.spec.adapterOptions); // `{}`: the fault path of the kind (its own client bookkeeping)
    this.stores.add(store);
    const close = store.close.bind(store);
    store.close = async () => {
      this.stores.delete(store);
      await close();
    };
    return store;
  }

  async kill(): Promise<void> {
    await endCpuSegment(this.containerId); // the run's CPU figure: the counter restarts with the container
    await killContainer(this.containerId, this.ep.where);
    const factor = hostCalibration().factor; // a busy host's engine reports the exit late (spec host.ts)
    const dead = await pollUntil(async () => ((await containerState(this.containerId, this.ep.where)).status === 'running' ? undefined : true), Date.now() + Math.round(15_000 * factor), 50);
    if (!dead) throw new MemoryMatrixError('BACKEND_ERROR', `${this.ep.where}: still running ${describeLimit(15_000, factor)} after docker kill -s KILL`);
  }

  async shutdown(): Promise<void> {
    await endCpuSegment(this.containerId);
    await docker(['stop', '-t', '30', this.containerId], this.ep.where, 60_000);
  }

  async restart(): Promise<{ restartMs: number }> {
    const t0 = performance.now();
    const before = (await logMatches(this.containerId, this.spec.kind.readyLog)).count;
    await this.startAndWait(before);
    await this.verify();
    return { restartMs: performance.now() - t0 };
  }

  async pause(): Promise<void> {
    await freezeWithRetry(() => docker(['pause', this.containerId], this.ep.where), this.ep.where);
    this.paused = true;
  }

  async unpause(): Promise<void> {
    if (!this.paused) return;
    await docker(['unpause', this.containerId], this.ep.where);
    this.paused = false;
  }

  dropConnections(clientName: string): Promise<number> {
    return this.faults.dropConnections(this.ep, clientName);
  }

  awaitWriteInFlight(clientName: string, timeoutMs: number, onWatching?: () => void): Promise<void> {
    return this.faults.awaitWriteInFlight(this.ep, clientName, timeoutMs, onWatching);
  }

  get exportCollection(): FaultTarget['exportCollection'] {
    const k = this.faults;
    return k.exportCollection ? (name) => k.exportCollection!(this.ep, name) : undefined;
  }

  get importCollection(): FaultTarget['importCollection'] {
    const k = this.faults;
    return k.importCollection ? (name, dump) => k.importCollection!(this.ep, name, dump) : undefined;
  }

  /** Close the stores still open and remove the container (not the volume: the control owns it). Idempotent. */
  async remove(): Promise<void> {
    if (this.removed) return;
    this.removed = true;
    await Promise.allSettled([...this.stores].map((s) => s.close()));
    if (this.paused) await docker(['unpause', this.containerId], this.ep.where).catch(() => undefined);
    if ((await containerState(this.containerId, this.ep.where).catch(() => null))?.status === 'running') await endCpuSegment(this.containerId);
    await docker(['rm', '-f', '-v', this.containerId], this.ep.where).catch((err: Error) => {
      if (!/no such container/i.test(err.message)) throw err;
    });
    unregisterContainer(this.containerId);
  }

  /** Remove the container, then let the owner release the volume (`onStopped`). Idempotent. */
  async stop(): Promise<void> {
    this.stopping ??= (async () => {
      await this.remove();
      await this.spec.onStopped?.();
    })();
    return this.stopping;
  }
}
