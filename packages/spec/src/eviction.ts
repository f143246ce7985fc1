/**
 * Memory limits and eviction (docs/checks.md C19). A store whose server can evict keys under memory
 * pressure (Redis `maxmemory` + `maxmemory-policy`) exposes its settings through the optional
 * `MemoryStore.memoryPolicy` / `setMemoryPolicy` (capability `evictionPolicy`). C19 changes them
 * only on a fresh instance the run started for it (`CellConfig.spawn`), and restores them after.
 */

/**
 * - `maxmemoryBytes`: the limit in bytes; 0 = none.
 * - `policy`: what the server does at the limit, in its own words (Redis: `noeviction`,
 *   `allkeys-lru`, `allkeys-lfu`, `allkeys-random`, `volatile-lru`, `volatile-lfu`,
 *   `volatile-random`, `volatile-ttl`).
 */
export interface MemoryPolicy {
  maxmemoryBytes: number;
  policy: string;
}

/**
 * What the server reports: its policy plus `usedBytes` (Redis INFO memory `used_memory`), `keys`
 * (DBSIZE of the store's database) and `evictedKeys` (INFO stats `evicted_keys`, cumulative since
 * the server started).
 */
export interface MemoryPolicyState extends MemoryPolicy {
  usedBytes: number;
  keys: number;
  evictedKeys: number;
}

/**
 * Whether `p` lets the server delete keys to make room (any policy but `noeviction`, with a
 * limit): `allkeys-*` may delete any memory key; `volatile-*` deletes keys that carry a TTL (chat
 * history sessions with `ttlMs`) before their TTL is up, and fails writes like `noeviction` when
 * none has one. Either way a write is acknowledged and something else silently disappears.
 */
export function isEvictingPolicy(p: MemoryPolicy): boolean {
  return p.maxmemoryBytes > 0 && p.policy !== 'noeviction';
}
