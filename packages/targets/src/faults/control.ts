import { MemoryMatrixError, type DurabilityConfiguration, type FaultControl, type FaultTarget } from '@memory-matrix/spec';
import type { ResolvedTarget } from '../catalog';
import { startTimeoutScale } from '../container/start';
import { resolveImage, type ImageSource } from '../image-source';
import type { StartedBackend } from '../types';
import { containerState } from './docker-ops';
import { findContainerKind } from '../registry';
import { LocalFaultTarget } from './local-instance';
import { ContainerFaultTarget } from './instance';
import { createVolume, removeVolume } from './volumes';

/** What a fault control needs besides the target: the run (labels) and the target's resolved image. */
export interface FaultControlContext {
  runId: string;
  /** Local image reference of `target` (as the container provider started it). */
  image: string;
  /** Where the `upgradeFrom` target's image comes from (default `auto`). */
  imageSource?: ImageSource;
  log?: (line: string) => void;
}

/**
 * The container provider's `FaultControl` for a catalog target with `durability:`. Each `start`
 * creates a labelled volume (`mm-<runId>-<hex>`) and a container of the same image on it, in the
 * named configuration; `storageOf` mounts the volume of an earlier instance instead (which must
 * not be running). A volume is removed when the last instance using it stops; `dispose` stops
 * every instance still running. Throws INVALID_INPUT for an unknown configuration name or a
 * foreign/running `storageOf`, TARGET_UNAVAILABLE when the kind has no fault implementation.
 */
export function containerFaultControl(target: ResolvedTarget, ctx: FaultControlContext): FaultControl {
  const configurations = target.durability ?? [];
  if (configurations.length === 0) throw new MemoryMatrixError('INVALID_INPUT', `${target.name}: no durability configurations in the catalog`);
  const instances = new Set<ContainerFaultTarget>();
  const locals = new Set<LocalFaultTarget>(); // upgradeFrom instances of a local target
  const volumeOf = new WeakMap<FaultTarget, string>();
  const users = new Map<string, number>();
  let disposed = false;

  const release = async (volume: string, where: string): Promise<void> => {
    const n = (users.get(volume) ?? 1) - 1;
    if (n > 0) return void users.set(volume, n);
    users.delete(volume);
    await removeVolume(volume, where);
  };

  async function startOn(t: ResolvedTarget, image: string, config: DurabilityConfiguration, storageOf?: FaultTarget): Promise<FaultTarget> {
    if (disposed) throw new MemoryMatrixError('BACKEND_ERROR', `${target.name}: fault control already disposed`);
    const kindName = t.start?.kind;
    const kind = kindName === undefined ? undefined : findContainerKind(kindName)?.kind;
    if (!kind?.faults) throw new MemoryMatrixError('TARGET_UNAVAILABLE', `${t.name}: container kind ${kindName ?? '(none)'} has no fault controls in its driver`);
    let volume: string;
    let seedFrom: string | undefined;
    if (storageOf instanceof LocalFaultTarget) {
      if (storageOf.running()) throw new MemoryMatrixError('INVALID_INPUT', `${t.name}: the storage of ${storageOf.target} is still in use by its running server; shutdown() or kill() it first`);
      seedFrom = storageOf.hostDataDir; // a host directory: copied into a new volume (the directory stays the local instance's)
      volume = await createVolume(ctx.runId, t.name);
    } else if (storageOf) {
      const v = volumeOf.get(storageOf);
      if (!v || !(storageOf instanceof ContainerFaultTarget)) throw new MemoryMatrixError('INVALID_INPUT', `${t.name}: storageOf must be an instance started by this fault control`);
      if ((await containerState(storageOf.containerId, t.name)).status === 'running') {
        throw new MemoryMatrixError('INVALID_INPUT', `${t.name}: the storage of ${storageOf.target} is still in use by its running server; shutdown() or kill() it first`);
      }
      volume = v;
    } else volume = await createVolume(ctx.runId, t.name);
    users.set(volume, (users.get(volume) ?? 0) + 1);
    let inst: ContainerFaultTarget;
    try {
      inst = await ContainerFaultTarget.start({
        target: t.name,
        configuration: config,
        kind,
        adapterOptions: t.driverOptions,
        image,
        runId: ctx.runId,
        volume,
        dataDir: t.start?.dataDir ?? kind.dataDir,
        startTimeoutMs: Math.round((t.start?.timeoutMs ?? 60_000) * startTimeoutScale()),
        adoptStorage: storageOf instanceof ContainerFaultTarget && storageOf.spec.image !== image,
        seedFrom,
        onStopped: async () => {
          instances.delete(inst);
          await release(volume, t.name);
        },
      });
    } catch (err) {
      await release(volume, t.name).catch(() => undefined);
      throw err;
    }
    instances.add(inst);
    volumeOf.set(inst, volume);
    return inst;
  }

  const from = target.upgradeFromTarget;
  return {
    target: target.name,
    configurations,
    start(name, opts) {
      const config = configurations.find((c) => c.name === name);
      if (!config) return Promise.reject(new MemoryMatrixError('INVALID_INPUT', `${target.name}: unknown durability configuration "${name}" (known: ${configurations.map((c) => c.name).join(', ')})`));
      return startOn(target, ctx.image, config, opts?.storageOf);
    },
    upgradeFrom: from
      ? {
          target: from.name,
          start: async () => {
            if (from.provider !== 'local') return startOn(from, await resolveImage(from, ctx.imageSource ?? 'auto', ctx.log), from.durability![0]!);
            if (disposed) throw new MemoryMatrixError('BACKEND_ERROR', `${target.name}: fault control already disposed`);
            const l = await LocalFaultTarget.start(from, from.durability?.[0] ?? configurations[0]!);
            locals.add(l);
            return l;
          },
        }
      : undefined,
    async dispose() {
      disposed = true;
      const errors = (await Promise.allSettled([...instances, ...locals].map((i) => i.stop()))).filter((r) => r.status === 'rejected');
      if (errors.length) throw new MemoryMatrixError('BACKEND_ERROR', `${target.name}: stopping fault instances failed: ${String((errors[0] as PromiseRejectedResult).reason)}`);
    },
  };
}

/**
 * `started` with `faults` attached and its `stop()` disposing the fault instances first (then
 * stopping the backend, also when disposal throws). The one place both providers with fault
 * controls (container: `withFaults`; embedded: `withLocalFaults`) attach them.
 */
export function attachFaults<B extends StartedBackend>(started: B, faults: FaultControl): B {
  const stop = started.stop.bind(started);
  return Object.assign(started, {
    faults,
    async stop() {
      try {
        await faults.dispose();
      } finally {
        await stop();
      }
    },
  });
}

/**
 * The container provider's started backend with `faults` attached when the target has the
 * `faults` capability (`attachFaults`). Unchanged otherwise.
 */
export function withFaults<B extends StartedBackend>(started: B, target: ResolvedTarget, ctx: FaultControlContext): B {
  return target.capabilities.faults ? attachFaults(started, containerFaultControl(target, ctx)) : started;
}
