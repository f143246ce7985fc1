import { MemoryMatrixError, type MemoryStore } from '@memory-matrix/spec';
import type { ResolvedTarget } from './target';
import { findDriver } from './registry';
import type { StartedBackend } from './types';

/**
 * `<backend>@url=<url>` → the backend and the URL, when `<backend>` is a registered driver with a
 * url facet; null when `name` is not a url target. Throws USAGE (with the password masked) for a
 * malformed URL, a scheme the driver does not take, or a driver without a url facet.
 */
export function parseUrlTarget(name: string): { backend: string; url: string } | null {
  const m = /^([a-z][a-z0-9-]*)@url=(.+)$/.exec(name);
  if (!m) return null;
  const backend = m[1]!;
  const driver = findDriver(backend);
  if (!driver) return null; // resolveTarget says UNKNOWN_TARGET with the known names
  if (!driver.url) throw new MemoryMatrixError('USAGE', `--backend ${redactUrl(name)}: driver ${backend} offers no url provider`);
  let u: URL;
  try {
    u = new URL(m[2]!);
  } catch {
    throw new MemoryMatrixError('USAGE', `--backend ${redactUrl(name)}: "${redactUrl(m[2]!)}" is not a URL (expected ${driver.url.example})`);
  }
  if (!driver.url.protocols.includes(u.protocol)) {
    throw new MemoryMatrixError('USAGE', `--backend ${redactUrl(name)}: only ${driver.url.protocols.map((p) => `${p}//`).join(' / ')} URLs are supported for ${backend} (got ${u.protocol})`);
  }
  return { backend, url: m[2]! };
}

/**
 * `s` (a URL, or any text holding one) with every password replaced by `***`: the `user:pw@`
 * part and libpq's `password=` / `sslpassword=` query parameters (what reports and messages show).
 */
export function redactUrl(s: string): string {
  return s.replace(/(\/\/[^:/@\s]+:)[^@\s]*@/g, '$1***@').replace(/([?&](?:ssl)?password=)[^&#\s'"]*/gi, '$1***');
}

/** A report-safe target name for a URL: `<backend>@url(host:port/db)`. */
export function urlTargetName(backend: string, url: string): string {
  const u = new URL(url);
  return `${backend}@url(${u.hostname}${u.port ? `:${u.port}` : ''}${u.pathname})`;
}

/**
 * Run the checks against an existing server the user names, through its driver's url facet
 * (which preflights it and touches only objects this run creates). `stop()` closes the stores
 * still open and has the facet remove what the run created. Throws TARGET_UNAVAILABLE naming the
 * target when the driver has no url facet or the server cannot be used.
 */
export async function startUrlTarget(target: ResolvedTarget & { url: string }): Promise<StartedBackend> {
  const facet = findDriver(target.backend)?.url;
  if (!facet) throw new MemoryMatrixError('TARGET_UNAVAILABLE', `${target.name}: driver ${target.backend} offers no url provider`);
  const t0 = performance.now();
  const inst = await facet.open(target.url, target.name, target.driverOptions);
  const stores = new Set<MemoryStore>();
  return {
    target: target.name,
    provider: 'url',
    startMs: performance.now() - t0,
    info: { serverVersion: inst.versions.serverVersion, components: inst.versions.components },
    async connect(opts) {
      const store = await inst.connect(opts);
      stores.add(store);
      const close = store.close.bind(store);
      store.close = async () => {
        stores.delete(store);
        await close();
      };
      return store;
    },
    async stop() {
      let failure: unknown;
      await inst.stop().catch((e: unknown) => (failure = e));
      await Promise.allSettled([...stores].map((s) => s.close()));
      if (failure) throw failure;
    },
  };
}
