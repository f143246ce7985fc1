import { MemoryMatrixError, type ServerAddress } from '@memory-matrix/spec';

/**
 * The `ServerAddress` a client driver connects to, or TARGET_UNAVAILABLE naming `where` when the
 * server's driver gives no connection URL for this provider (then no client target can run over it:
 * the catalog names the server target, the message names what is missing).
 */
export function serverAddress(where: string, backend: string, url: (() => string) | undefined, missing: string): ServerAddress {
  if (!url) throw new MemoryMatrixError('TARGET_UNAVAILABLE', `${where}: a client target cannot run over this server: ${missing}`);
  return { where, backend, url: url() };
}
