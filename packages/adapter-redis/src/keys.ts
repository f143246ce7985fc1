import type Redis from 'ioredis';
import { MemoryMatrixError } from '@memory-matrix/spec';
import { ADAPTER } from './context';

/**
 * Key layout. Every key of a collection or a history session shares one prefix and one Redis
 * hash tag (`{…}`), so a collection is "the keys starting with `<prefix>{<name>}:`" and lives in
 * one cluster slot (MULTI/EXEC and scripts may touch all of them):
 *   collection  <prefix>{<name>}:meta   string  JSON marker (format, dim, metric, index, quantization, model)
 *               <prefix>{<name>}:vset   vector set  (element = memory id, attributes = typed filter fields)
 *               <prefix>{<name>}:docs   hash    id → JSON record incl. the float32 embedding (get() reads it)
 *               <prefix>{<name>}:nkeys  set     metadata keys that have held a number (numeric-keys.ts)
 *               <prefix>{<name>}:nkeys-pending  set  those whose backfill has not finished
 *   history     <prefix>{<session>}:messages  list  payloads, oldest first
 *               <prefix>{<session>}:meta      hash  format marker and version
 * Prefixes and session ids exclude Redis glob characters (`* ? [ ] \`) and braces, so
 * `SCAN MATCH <prefix>{<name>}:*` matches exactly the keys of that collection or session.
 */

/** Allowed store/history prefix: 1..64 chars of `[A-Za-z0-9._:@/-]` (no glob chars, no braces). */
export const PREFIX_RE = /^[A-Za-z0-9._:@/-]{1,64}$/;
/** Collection names (spec `CollectionSpec.name`). */
export const NAME_RE = /^[a-z0-9_]{1,48}$/;
/** History session ids (spec `HistoryOptions.sessionId`). */
export const SESSION_RE = /^[A-Za-z0-9._:@-]{1,200}$/;

/** Validate a prefix; INVALID_INPUT naming `field`. */
export function validatePrefix(prefix: unknown, field: string): string {
  if (typeof prefix !== 'string' || !PREFIX_RE.test(prefix)) {
    throw new MemoryMatrixError('INVALID_INPUT', `${ADAPTER}: ${field} must match ${PREFIX_RE.source}, got ${JSON.stringify(prefix)}`);
  }
  return prefix;
}

/** Validate a collection name; INVALID_INPUT. */
export function validateName(name: unknown): string {
  if (typeof name !== 'string' || !NAME_RE.test(name)) {
    throw new MemoryMatrixError('INVALID_INPUT', `${ADAPTER}: collection name must match [a-z0-9_]{1,48}, got ${JSON.stringify(name)}`);
  }
  return name;
}

/** The keys of collection `name` under `prefix`. */
export function collectionKeys(prefix: string, name: string): { base: string; meta: string; vset: string; docs: string; nkeys: string; pending: string; pattern: string } {
  const base = `${prefix}{${name}}:`;
  return { base, meta: `${base}meta`, vset: `${base}vset`, docs: `${base}docs`, nkeys: `${base}nkeys`, pending: `${base}nkeys-pending`, pattern: `${base}*` };
}

/** The keys of history session `session` under `prefix`. */
export function sessionKeys(prefix: string, session: string): { messages: string; meta: string; pattern: string } {
  const base = `${prefix}{${session}}:`;
  return { messages: `${base}messages`, meta: `${base}meta`, pattern: `${base}*` };
}

/**
 * Every key matching `pattern` (a prefix + `*`), by SCAN (never KEYS, never FLUSH*): the server's
 * own listing, sorted. Keys that expire during the scan may or may not be listed.
 */
export async function scanKeys(client: Redis, pattern: string): Promise<string[]> {
  const found = new Set<string>();
  let cursor = '0';
  do {
    const [next, keys] = await client.scan(cursor, 'MATCH', pattern, 'COUNT', 1000);
    for (const k of keys) found.add(k);
    cursor = next;
  } while (cursor !== '0');
  return [...found].sort();
}
