import type Redis from 'ioredis';
import { numericField } from './attributes';
import { execReplies } from './context';
import type { collectionKeys } from './keys';
import { hashFields } from './scan';

/**
 * The numeric-key registry of a collection: the SET `<prefix>{name}:nkeys` of every metadata key
 * that has held a number in some element written. Why: a range compiles to `.x_<hex(key)> > n`,
 * and a selector an element lacks makes Redis' whole FILTER expression false (expr.c `exprRun`),
 * so every element must carry `x_<hex(key)>` for every registered key ("nan" when its value is not
 * a number; attributes.ts). An upsert that brings a key not yet registered:
 * 1. SADDs it to `nkeys` and to `nkeys-pending` in one MULTI first (so a concurrent writer that
 *    reads the registry after this writes the key too);
 * 2. adds `"x_<hex>":"nan"` to every element already in the set that lacks it — one Lua script per
 *    element, atomic against a concurrent VADD of the same element (read, append, VSETATTR) — then
 *    SREMs it from `nkeys-pending`; an upsert finding keys still pending (a backfill cut short by a
 *    dropped connection) backfills them again first;
 * 3. writes its own elements with the whole registry;
 * 4. re-reads the registry after its write and backfills any key another writer added meanwhile
 *    (`backfill` is idempotent: it adds only what an element lacks).
 * Cost: one pass over the set per new numeric key (O(n) the first time a key is seen). Until a
 * cut-short backfill is completed by the next upsert, elements without `x_<hex>` are left out of
 * every filter that ranges on that key (the cut-short upsert itself failed with BACKEND_ERROR).
 */

/** Every registered numeric metadata key (SMEMBERS). */
export async function readNumericKeys(client: Redis, keys: ReturnType<typeof collectionKeys>): Promise<Set<string>> {
  return new Set(await client.smembers(keys.nkeys));
}

/** Append `"<field>":"nan"` to the element's attribute JSON for each field it lacks; 1 when the element exists, else 0. */
const BACKFILL_LUA = `
local a = redis.call('VGETATTR', KEYS[1], ARGV[1])
if not a then return 0 end
local add = {}
for i = 2, #ARGV do
  if not string.find(a, '"' .. ARGV[i] .. '":', 1, true) then add[#add + 1] = '"' .. ARGV[i] .. '":"nan"' end
end
if #add == 0 then return 1 end
local body = string.sub(a, 1, #a - 1)
local sep = ','
if body == '{' then sep = '' end
redis.call('VSETATTR', KEYS[1], ARGV[1], body .. sep .. table.concat(add, ',') .. '}')
return 1
`;

/** Ids per pipeline of backfill scripts. */
const BACKFILL_CHUNK = 500;

/**
 * Give every element of the set the attribute `x_<hex(key)>` ("nan") for each of `added` it
 * lacks (module doc, step 2). Throws what the server throws (the caller wraps it).
 */
export async function backfillNumericKeys(client: Redis, keys: ReturnType<typeof collectionKeys>, added: readonly string[]): Promise<void> {
  if (added.length === 0) return;
  const fields = added.map(numericField);
  const ids = await hashFields(client, keys.docs);
  for (let i = 0; i < ids.length; i += BACKFILL_CHUNK) {
    const pipe = client.pipeline();
    for (const id of ids.slice(i, i + BACKFILL_CHUNK)) pipe.eval(BACKFILL_LUA, 1, keys.vset, id, ...fields);
    execReplies(await pipe.exec(), `adding numeric attributes ${fields.join(', ')} to the elements of ${keys.vset}`);
  }
}

/**
 * Steps 1–2 of the module doc before an upsert whose records hold numbers under `batchKeys`:
 * returns the registry to write the batch with (known ∪ batchKeys).
 */
export async function registerNumericKeys(client: Redis, keys: ReturnType<typeof collectionKeys>, batchKeys: Iterable<string>): Promise<Set<string>> {
  const [known, pending] = await Promise.all([readNumericKeys(client, keys), client.smembers(keys.pending)]);
  const added = [...new Set(batchKeys)].filter((k) => !known.has(k)).sort();
  if (added.length === 0 && pending.length === 0) return known;
  if (added.length)
    execReplies(
      await client
        .multi()
        .sadd(keys.nkeys, ...added)
        .sadd(keys.pending, ...added)
        .exec(),
      `registering numeric keys in ${keys.nkeys}`,
    );
  const todo = [...new Set([...pending, ...added])].sort();
  await backfillNumericKeys(client, keys, todo);
  await client.srem(keys.pending, ...todo);
  return new Set([...known, ...added]);
}

/** Step 4: backfill the keys registered by another writer since `used` was read. */
export async function settleNumericKeys(client: Redis, keys: ReturnType<typeof collectionKeys>, used: ReadonlySet<string>): Promise<void> {
  const now = await readNumericKeys(client, keys);
  await backfillNumericKeys(
    client,
    keys,
    [...now].filter((k) => !used.has(k)),
  );
}
