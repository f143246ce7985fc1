import type Redis from 'ioredis';

/** What a Redis server says about itself at connect time. */
export interface RedisServerFacts {
  /** `redis_version` from INFO server, e.g. `8.0.2`. */
  version: string;
  /** `redis_mode` (standalone, cluster, sentinel) and `os` from INFO server. */
  mode: string;
  os: string;
  /** MODULE LIST: module name → version as the server reports it, e.g. `{ vectorset: '1' }`. */
  modules: Record<string, string>;
  /** `VADD` is a known command (Vector Sets, built into Redis ≥ 8.0). */
  vectorSets: boolean;
  /** `FT.SEARCH` is a known command (RediSearch / the Redis Query Engine). */
  redisearch: boolean;
}

/** Fields of an INFO section reply (`key:value` lines). */
export function parseInfo(text: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const line of text.split(/\r?\n/)) {
    const i = line.indexOf(':');
    if (i > 0 && !line.startsWith('#')) out[line.slice(0, i)] = line.slice(i + 1).trim();
  }
  return out;
}

/** MODULE LIST reply (RESP2: one flat `[name, <name>, ver, <n>, …]` array per module) → name → version. */
export function parseModuleList(reply: unknown): Record<string, string> {
  const out: Record<string, string> = {};
  if (!Array.isArray(reply)) return out;
  for (const m of reply) {
    if (!Array.isArray(m)) continue;
    const f: Record<string, unknown> = {};
    for (let i = 0; i + 1 < m.length; i += 2) f[String(m[i])] = m[i + 1];
    if (typeof f.name === 'string') out[f.name] = String(f.ver ?? '');
  }
  return out;
}

/**
 * INFO server, MODULE LIST and COMMAND INFO VADD / FT.SEARCH in one pipeline. Throws the
 * client's error (the caller wraps it); a server without MODULE (none known) is not an error.
 */
export async function detectServer(client: Redis): Promise<RedisServerFacts> {
  const res = await client.pipeline().info('server').call('MODULE', 'LIST').call('COMMAND', 'INFO', 'VADD', 'FT.SEARCH').exec();
  if (!res) throw new Error('detection pipeline returned nothing');
  const [info, modules, commands] = res;
  if (info?.[0]) throw info[0];
  if (commands?.[0]) throw commands[0];
  const i = parseInfo(String(info?.[1] ?? ''));
  const cmds = (commands?.[1] ?? []) as unknown[];
  return {
    version: i.redis_version ?? 'unknown',
    mode: i.redis_mode ?? 'unknown',
    os: i.os ?? 'unknown',
    modules: modules?.[0] ? {} : parseModuleList(modules?.[1]),
    vectorSets: Array.isArray(cmds[0]),
    redisearch: Array.isArray(cmds[1]),
  };
}
