import { MemoryMatrixError, type FaultControl } from '@memory-matrix/spec';
import type { ResolvedTarget } from '../catalog';
import type { StartedBackend } from '../types';
import { attachFaults } from './control';
import { LocalFaultTarget, localFaultEngine } from './local-instance';

/**
 * The `FaultControl` of an embedded target with `durability:` whose engine has a `faultProcess`
 * (spec driver.ts; SQLite): each `start` runs the store as a process of its own on a new host
 * directory (`LocalFaultTarget`: SIGKILL, restart on the same directory, SIGSTOP), in the named
 * configuration (its `settings` reach the process). The store lives in files several processes
 * open at once, so `sharedStorage` is true: `storageOf` names a running instance of this control and
 * starts one more process on its directory. `dispose` stops every instance still running.
 * Throws INVALID_INPUT for an unknown configuration or a foreign / stopped `storageOf`,
 * TARGET_UNAVAILABLE when the engine has no fault process or the process does not start.
 */
export function localFaultControl(target: ResolvedTarget): FaultControl {
  const configurations = target.durability ?? [];
  if (configurations.length === 0) throw new MemoryMatrixError('INVALID_INPUT', `${target.name}: no durability configurations in the catalog`);
  if (!localFaultEngine(target)) throw new MemoryMatrixError('TARGET_UNAVAILABLE', `${target.name}: engine ${target.engine} of driver ${target.backend} has no fault process`);
  const instances = new Set<LocalFaultTarget>();
  let disposed = false;
  return {
    target: target.name,
    configurations,
    sharedStorage: true,
    async start(name, opts) {
      if (disposed) throw new MemoryMatrixError('BACKEND_ERROR', `${target.name}: fault control already disposed`);
      const config = configurations.find((c) => c.name === name);
      if (!config) throw new MemoryMatrixError('INVALID_INPUT', `${target.name}: unknown durability configuration "${name}" (known: ${configurations.map((c) => c.name).join(', ')})`);
      const from = opts?.storageOf;
      if (from !== undefined && (!(from instanceof LocalFaultTarget) || !instances.has(from) || from.stopped)) {
        throw new MemoryMatrixError('INVALID_INPUT', `${target.name}: storageOf must be an instance started by this fault control and not stopped`);
      }
      const inst = await LocalFaultTarget.start(target, config, from ? { sharing: from } : {});
      instances.add(inst);
      return inst;
    },
    async dispose() {
      disposed = true;
      // Sharing instances first: the owner of a directory removes it when it stops.
      const all = [...instances].reverse();
      instances.clear();
      const errors: unknown[] = [];
      for (const i of all) await i.stop().catch((e: unknown) => errors.push(e));
      if (errors.length) throw new MemoryMatrixError('BACKEND_ERROR', `${target.name}: stopping fault instances failed: ${String(errors[0])}`);
    },
  };
}

/** An embedded target's started backend with `faults` attached when it has the `faults` capability (`attachFaults`). */
export function withLocalFaults<B extends StartedBackend>(started: B, target: ResolvedTarget): B {
  return target.capabilities.faults ? attachFaults(started, localFaultControl(target)) : started;
}
