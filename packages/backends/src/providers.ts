import { MemoryMatrixError } from '@memory-matrix/spec';
import type { ResolvedTarget } from './catalog';
import { startEmbedded } from './embedded';
import type { StartedBackend } from './types';

/** Context of one run, shared by every target it starts. */
export interface StartContext {
  /** Labels containers and names temp dirs, e.g. `20261130193000-1234`. */
  runId: string;
}

/**
 * Start one catalog target with its provider and return a handle whose `connect()` opens a new
 * client each call. Throws TARGET_UNAVAILABLE naming the target when it cannot start here
 * (no Docker engine, no image offline, version mismatch), with the provider's error as `cause`.
 */
export async function startTarget(target: ResolvedTarget, ctx: StartContext): Promise<StartedBackend> {
  void ctx;
  switch (target.provider) {
    case 'embedded': {
      if (target.engine !== 'pglite-0.2' && target.engine !== 'pglite-0.5') {
        throw new MemoryMatrixError('TARGET_UNAVAILABLE', `${target.name}: unknown embedded engine "${target.engine}" (known: pglite-0.2, pglite-0.5)`);
      }
      const b = await startEmbedded(target.engine, { expect: target.expect, target: target.name });
      return b;
    }
    default:
      throw new MemoryMatrixError('TARGET_UNAVAILABLE', `${target.name}: provider "${target.provider}" is not available in this build`);
  }
}
