import { MemoryMatrixError, missingCapabilities } from '@memory-matrix/spec';
import type { ResolvedTarget } from './catalog';
import { startClientTarget } from './client';
import { startContainer } from './container';
import { startEmbedded } from './embedded';
import { withFaults, withLocalFaults } from './faults';
import { resolveImage, type ImageSource } from './image-source';
import { startLocal } from './local';
import type { StartedBackend } from './types';
import { startUrlTarget } from './url';

/** Context of one run, shared by every target it starts. */
export interface StartContext {
  /** Labels containers and names temp dirs, e.g. `20261130193000-1234`. */
  runId: string;
  /** Where container images come from (default `auto`). */
  imageSource?: ImageSource;
  /** Progress lines (image pulls and builds). */
  log?: (line: string) => void;
}

/**
 * Start one catalog target with its provider — generic over the drivers: `embedded`, `local`,
 * `container` and `url` each start the facet of the target's driver (the catalog already refused
 * a target whose driver does not offer its provider); a client target (catalog `server:`) starts
 * its server target that way and opens its stores through the client (client.ts) — and return a handle whose `connect()`
 * opens a new client each call. Before it is returned, one store is opened and its reported
 * capabilities compared with the target's declared ones: a capability declared but not reported
 * stops the start with CAPABILITY_MISSING naming the target and the capabilities (the backend is
 * stopped again), so a check can never pass for lack of what it should test.
 * Throws TARGET_UNAVAILABLE naming the target when it cannot start here (no Docker engine, no
 * image offline, version mismatch), with the provider's error as `cause`.
 */
export async function startTarget(target: ResolvedTarget, ctx: StartContext): Promise<StartedBackend> {
  const started = target.serverTarget ? await startClientTarget(target, (server) => startWithProvider(server, ctx)) : await startWithProvider(target, ctx);
  try {
    await checkReportedCapabilities(target, started);
  } catch (err) {
    await started.stop().catch(() => undefined); // the capability error is the one that matters
    throw err;
  }
  return started;
}

function startWithProvider(target: ResolvedTarget, ctx: StartContext): Promise<StartedBackend> {
  switch (target.provider) {
    case 'embedded':
      if (!target.engine) throw new MemoryMatrixError('TARGET_UNAVAILABLE', `${target.name}: embedded target without an engine`);
      return startEmbedded(target.engine, { target: target.name, backend: target.backend, expect: target.expect, startTimeoutMs: target.start?.timeoutMs, adapterOptions: target.driverOptions }).then(
        (started) => withLocalFaults(started, target),
      );
    case 'container':
      return startContainerTarget(target, ctx);
    case 'local':
      if (!target.engine) throw new MemoryMatrixError('TARGET_UNAVAILABLE', `${target.name}: local target without an engine`);
      return startLocal({ target: target.name, engine: target.engine, expect: target.expect, startTimeoutMs: target.start?.timeoutMs, adapterOptions: target.driverOptions });
    case 'url':
      if (!target.url) throw new MemoryMatrixError('TARGET_UNAVAILABLE', `${target.name}: url target without a URL`);
      return startUrlTarget({ ...target, url: target.url });
    default:
      throw new MemoryMatrixError('TARGET_UNAVAILABLE', `${target.name}: provider "${String(target.provider)}" is not available in this build`);
  }
}

async function startContainerTarget(target: ResolvedTarget, ctx: StartContext): Promise<StartedBackend> {
  const kind = target.start?.kind;
  if (!kind) throw new MemoryMatrixError('TARGET_UNAVAILABLE', `${target.name}: container target without a container kind`);
  const image = await resolveImage(target, ctx.imageSource ?? 'auto', ctx.log);
  const started = await startContainer({ target: target.name, image, kind, runId: ctx.runId, expect: target.expect, startTimeoutMs: target.start?.timeoutMs, adapterOptions: target.driverOptions });
  return withFaults(started, target, { runId: ctx.runId, image, imageSource: ctx.imageSource, log: ctx.log });
}

/**
 * Compare what a connected store reports (`MemoryStore.capabilities`) with what the catalog
 * declares for the target; CAPABILITY_MISSING naming the target and each missing capability.
 */
async function checkReportedCapabilities(target: ResolvedTarget, started: StartedBackend): Promise<void> {
  const store = await started.connect();
  let missing: string[];
  try {
    missing = missingCapabilities(target.capabilities, store.capabilities);
  } finally {
    await store.close();
  }
  if (missing.length) {
    throw new MemoryMatrixError(
      'CAPABILITY_MISSING',
      `${target.name}: declared capabilities the connected store does not report: ${missing.join(', ')} (adapter ${store.adapter}; fix the driver's capabilities or the target's capabilities: in the catalog)`,
    );
  }
}
