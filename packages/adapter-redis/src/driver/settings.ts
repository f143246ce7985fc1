/**
 * Pure helpers of the redis fault kind: the settings a configuration's redis-server arguments
 * carry, and CLIENT LIST parsing. No I/O.
 */

/**
 * `--name v1 v2 …` arguments → `{ name: 'v1 v2' }`, the way redis-server reads them (each `--x`
 * starts a config line, the following arguments are its values) and the way `CONFIG GET` prints
 * them. The LAST occurrence wins, as in redis-server (`--save "" --save 60 1` → `save: '60 1'`;
 * `--save ""` → `save: ''`). Arguments before the first `--name` are ignored.
 */
export function redisSettingsInArgs(args: string[]): Record<string, string> {
  const out: Record<string, string> = {};
  let name: string | undefined;
  let values: string[] = [];
  const flush = () => {
    if (name !== undefined) out[name] = values.join(' ');
  };
  for (const a of args) {
    if (a.startsWith('--') && a.length > 2) {
      flush();
      name = a.slice(2).toLowerCase();
      values = [];
    } else if (name !== undefined) {
      if (a !== '') values.push(a);
    }
  }
  flush();
  return out;
}

/** One line of `CLIENT LIST`: its `k=v` fields (`id`, `name`, `flags`, `multi`, `cmd`, …). */
export type ClientInfo = Record<string, string> & { id: string; name: string; flags: string };

/** Parse the reply of `CLIENT LIST` (one client per line, space-separated `k=v`). */
export function parseClientList(reply: string): ClientInfo[] {
  return reply
    .split('\n')
    .map((l) => l.trim())
    .filter(Boolean)
    .map((line) => {
      const f: Record<string, string> = {};
      for (const kv of line.split(' ')) {
        const i = kv.indexOf('=');
        if (i > 0) f[kv.slice(0, i)] = kv.slice(i + 1);
      }
      return { ...f, id: f.id ?? '', name: f.name ?? '', flags: f.flags ?? '' };
    });
}
