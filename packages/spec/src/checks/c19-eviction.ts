import type { Failure } from '../comparator';
import type { MemoryStore } from '../adapter';
import { MemoryMatrixError } from '../errors';
import { isEvictingPolicy, type MemoryPolicyState } from '../eviction';
import { type CheckDefinition, failure } from './check';
import { phaseFigures, pressurePhase, type PhaseResult } from './c19-pressure';

/**
 * C19 eviction: under `maxmemory` pressure memory keys are not silently evicted — or the run
 * detects an evicting policy and reports it. On a FRESH instance of the target that
 * the check starts (`CellConfig.spawn`; the cell's server and its golden data are never touched),
 * two pressure phases (c19-pressure.ts: limit = used + 4 MiB, about 10 MiB of memories and
 * history written):
 * - `allkeys-lru`: every write is acknowledged while the server deletes keys. The run must detect
 *   it: the memories that no longer read back are counted through the contract and matched by the
 *   server's own `evicted_keys`. Verdict: reported ("evicting policy detected: N of M memory keys
 *   lost …", figures `lru.*`), not a failure — unless memories vanish WITHOUT the server reporting
 *   an eviction (undetectable loss), or the writes never reached the limit (nothing was tested).
 * - `noeviction`: a write beyond the limit fails loudly with OUT_OF_MEMORY (the backend's OOM
 *   reply in the message); fails when no write fails, when one fails with another code, when an
 *   acknowledged memory is lost, or when a failed batch partly landed.
 * The instance's original settings are restored and verified before it is stopped. The cell's own
 * server is only READ (its configured policy, a figure; an evicting one is reported as unsafe).
 */
export const c19Eviction: CheckDefinition = {
  id: 'C19',
  name: 'eviction',
  requires(caps) {
    if (!caps.evictionPolicy) return 'capability: evictionPolicy';
    if (!caps.vectors && !caps.history) return 'capability: vectors';
    return null;
  },
  timeoutMs: 600_000,
  async run(cell) {
    if (!cell.config.spawn) {
      throw new MemoryMatrixError(
        'CAPABILITY_MISSING',
        `${cell.target}: capability evictionPolicy is declared but the cell config has no spawn() to start an instance of its own (C19 never changes the cell's server)`,
      );
    }
    const failures: Failure[] = [];
    const fail = (message: string, extra: Partial<Failure> = {}) => failures.push(failure(cell, 'eviction', message, extra));
    const notes: string[] = [];
    const configured = await policyOf(await cell.connect(), cell.target);
    const instance = await cell.config.spawn();
    let lru: PhaseResult;
    let noev: PhaseResult;
    let original: MemoryPolicyState;
    try {
      const store = await instance.connect();
      original = await policyOf(store, cell.target);
      lru = await pressurePhase(cell, store, 'allkeys-lru', 'lru', false);
      noev = await pressurePhase(cell, store, 'noeviction', 'noev', true);
      await store.setMemoryPolicy!({ maxmemoryBytes: original.maxmemoryBytes, policy: original.policy });
      const restored = await store.memoryPolicy!();
      if (restored.maxmemoryBytes !== original.maxmemoryBytes || restored.policy !== original.policy) {
        fail(`the spawned instance's settings were not restored: maxmemory ${restored.maxmemoryBytes} policy ${restored.policy}, expected ${original.maxmemoryBytes} ${original.policy}`);
      }
    } finally {
      await instance.stop();
    }

    const lossLine = (r: PhaseResult) =>
      `${r.keysEvicted} of ${r.keysTotal} memory keys lost (${r.lost} of ${r.acknowledged} acknowledged memories/messages unreadable, ${r.unitsGone} of ${r.units} users' collections or sessions gone)`;
    if (lru.keysEvicted > 0 || lru.lost > 0) {
      notes.push(`evicting policy detected: allkeys-lru at maxmemory ${lru.limitBytes} B: ${lossLine(lru)}; every write was acknowledged (${lru.failedWrites} failed) — unsafe for agent memory`);
      if (lru.lost > 0 && lru.keysEvicted === 0)
        fail(`allkeys-lru: ${lru.lost} acknowledged memories are gone but the server reports no eviction: the loss cannot be attributed`, { expected: '> 0 evicted keys', actual: 0 });
    } else {
      fail(`allkeys-lru: no key was evicted after ${lru.units} units (peak used ${lru.peakUsedBytes} B, limit ${lru.limitBytes} B): the pressure never reached the limit, nothing was tested`, {
        expected: 'evictions',
        actual: 0,
      });
    }
    if (noev.error === null)
      fail(`noeviction: no write failed though ${noev.units} units were written over a ${noev.limitBytes} B limit (peak used ${noev.peakUsedBytes} B)`, { expected: 'OUT_OF_MEMORY', actual: null });
    else if (noev.error.code !== 'OUT_OF_MEMORY')
      fail(`noeviction: the write beyond the limit failed with ${noev.error.code}, expected OUT_OF_MEMORY: ${noev.error.message}`, { expected: 'OUT_OF_MEMORY', actual: noev.error.code });
    else notes.push(`noeviction at maxmemory ${noev.limitBytes} B: after ${noev.units - 1} units the next write failed loudly: ${noev.error.code}: ${noev.error.message}`);
    if (noev.lost > 0 || noev.keysEvicted > 0) fail(`noeviction: ${lossLine(noev)}`, { expected: 0, actual: noev.lost });
    if (noev.partial > 0) fail(`noeviction: ${noev.partial} records of the failed write landed anyway (a batch must be atomic)`, { expected: 0, actual: noev.partial });
    if (isEvictingPolicy(configured))
      notes.push(`UNSAFE configuration: ${cell.target} itself runs with maxmemory ${configured.maxmemoryBytes} B and policy ${configured.policy}; memory keys can be evicted silently`);
    return {
      figures: {
        configuredPolicy: configured.policy,
        configuredMaxmemory: configured.maxmemoryBytes,
        configuredEvicting: isEvictingPolicy(configured),
        evictingPolicyDetected: lru.keysEvicted > 0 || lru.lost > 0,
        ...phaseFigures('lru', lru),
        ...phaseFigures('noeviction', noev),
        restoredPolicy: `${original!.maxmemoryBytes}/${original!.policy}`,
      },
      failures,
      notes,
    };
  },
};

/** The store's memory policy; CAPABILITY_MISSING when the adapter has none despite the capability. */
async function policyOf(store: MemoryStore, target: string): Promise<MemoryPolicyState> {
  if (typeof store.memoryPolicy !== 'function' || typeof store.setMemoryPolicy !== 'function') {
    throw new MemoryMatrixError('CAPABILITY_MISSING', `${target}: capability evictionPolicy is declared but adapter ${store.adapter} has no memoryPolicy/setMemoryPolicy`);
  }
  return store.memoryPolicy();
}
