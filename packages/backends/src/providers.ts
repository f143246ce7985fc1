import { MemoryMatrixError } from '@memory-matrix/spec';
import type { ResolvedTarget } from './catalog';
import { startChromaContainer, startContainer, startRedisContainer } from './container';
import { startEmbedded } from './embedded';
import { withFaults } from './faults';
import { resolveImage, type ImageSource } from './image-source';
import type { StartedBackend } from './types';
import { startUrlTarget } from './url';
import { LOCAL_CHROMA_ENGINES, startLocalChroma, type LocalChromaEngine } from './local';

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
 * Start one catalog target with its provider and return a handle whose `connect()` opens a new
 * client each call. Throws TARGET_UNAVAILABLE naming the target when it cannot start here
 * (no Docker engine, no image offline, version mismatch), with the provider's error as `cause`.
 */
export async function startTarget(target: ResolvedTarget, ctx: StartContext): Promise<StartedBackend> {
  switch (target.provider) {
    case 'embedded':
      return startEmbeddedTarget(target);
    case 'container':
      return startContainerTarget(target, ctx);
    case 'local':
      return startLocalTarget(target);
    case 'url':
      if (!target.url) throw new MemoryMatrixError('TARGET_UNAVAILABLE', `${target.name}: url target without a URL`);
      return startUrlTarget({ ...target, url: target.url });
    default:
      throw new MemoryMatrixError('TARGET_UNAVAILABLE', `${target.name}: provider "${target.provider}" is not available in this build`);
  }
}

function startEmbeddedTarget(target: ResolvedTarget): Promise<StartedBackend> {
  if (target.engine !== 'pglite-0.2' && target.engine !== 'pglite-0.5') {
    throw new MemoryMatrixError('TARGET_UNAVAILABLE', `${target.name}: unknown embedded engine "${target.engine}" (known: pglite-0.2, pglite-0.5)`);
  }
  return startEmbedded(target.engine, { expect: target.expect, target: target.name });
}

async function startContainerTarget(target: ResolvedTarget, ctx: StartContext): Promise<StartedBackend> {
  const kind = target.start?.kind ?? 'postgres';
  if (kind === 'redis') {
    const image = await resolveImage(target, ctx.imageSource ?? 'auto', ctx.log);
    const started = await startRedisContainer({ target: target.name, image, runId: ctx.runId, expect: target.expect, startTimeoutMs: target.start?.timeoutMs, adapterOptions: target.adapterOptions });
    return withFaults(started, target, { runId: ctx.runId, image, imageSource: ctx.imageSource, log: ctx.log }); // faults once FAULT_KINDS has redis
  }
  if (kind === 'chroma') {
    const image = await resolveImage(target, ctx.imageSource ?? 'auto', ctx.log);
    const started = await startChromaContainer({ target: target.name, image, runId: ctx.runId, expect: target.expect, startTimeoutMs: target.start?.timeoutMs });
    return withFaults(started, target, { runId: ctx.runId, image, imageSource: ctx.imageSource, log: ctx.log });
  }
  if (kind !== 'postgres') {
    throw new MemoryMatrixError('TARGET_UNAVAILABLE', `${target.name}: container kind "${kind}" is not supported by this build`);
  }
  const image = await resolveImage(target, ctx.imageSource ?? 'auto', ctx.log);
  const started = await startContainer({ target: target.name, image, kind, runId: ctx.runId, expect: target.expect, startTimeoutMs: target.start?.timeoutMs });
  return withFaults(started, target, { runId: ctx.runId, image, imageSource: ctx.imageSource, log: ctx.log });
}

/** Local provider: a server started natively on this host (today: Chroma from its npm bindings). */
function startLocalTarget(target: ResolvedTarget): Promise<StartedBackend> {
  if (target.backend !== 'chroma' || !(target.engine && target.engine in LOCAL_CHROMA_ENGINES)) {
    throw new MemoryMatrixError('TARGET_UNAVAILABLE', `${target.name}: no local engine "${target.engine}" for ${target.backend} (known: ${Object.keys(LOCAL_CHROMA_ENGINES).join(', ')})`);
  }
  return startLocalChroma({ target: target.name, engine: target.engine as LocalChromaEngine, expect: target.expect, startTimeoutMs: target.start?.timeoutMs });
}
