import type { FaultControl, FaultTarget, MemoryStore, SpawnedInstance } from '@memory-matrix/spec';
import { overlay } from './overlay';

/** A function applied to every store a cell opens (`TargetCellHooks.wrapStore`). */
export type StoreWrap = (store: MemoryStore) => MemoryStore;

/**
 * A fault control whose instances' stores are wrapped by `wrap` (so C15, C16, C22, C23 run on the
 * same faulty contract as the other checks). The wrapped `FaultTarget`s are mapped back to the
 * real ones where the control takes them again (`start(name, { storageOf })`), so the provider's
 * bookkeeping by identity still works.
 */
export function wrapFaultControl(faults: FaultControl, wrap: StoreWrap): FaultControl {
  const real = new WeakMap<FaultTarget, FaultTarget>();
  const wrapTarget = (t: FaultTarget): FaultTarget => {
    const w = overlay(t, { connect: async (opts) => wrap(await t.connect(opts)) });
    real.set(w, t);
    return w;
  };
  const over: Partial<FaultControl> = {
    start: async (name, opts) => wrapTarget(await faults.start(name, opts?.storageOf ? { ...opts, storageOf: real.get(opts.storageOf) ?? opts.storageOf } : opts)),
  };
  const up = faults.upgradeFrom;
  if (up) (over as { upgradeFrom: FaultControl['upgradeFrom'] }).upgradeFrom = { target: up.target, start: async () => wrapTarget(await up.start()) };
  return overlay(faults, over);
}

/** A spawned instance whose stores are wrapped by `wrap`. */
export function wrapSpawned<S extends SpawnedInstance>(s: S, wrap: StoreWrap): S {
  return overlay(s, { connect: async () => wrap(await s.connect()) } as Partial<S>);
}
