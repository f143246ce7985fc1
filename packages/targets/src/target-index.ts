/**
 * A target's index, parsed by its driver: the catalog accepts any `index: { type: <name>, … }`
 * (target.ts `indexSchema`) and resolves it here against the index types the target's driver
 * declares (`BackendDriver.indexes`, spec index-config.ts; `none` is every driver's).
 */
import { MemoryMatrixError, noneIndexSchema, offeredIndexTypes, type BackendDriver, type IndexConfig } from '@memory-matrix/spec';
import { failOnIssues, type YamlFail } from './yaml-file';

/**
 * The index a target takes when it gives none itself: the catalog's `defaults.index`, or (a client
 * target) its server target's; `vectors` = whether the target stores vectors (its capabilities
 * with the catalog's overrides).
 */
export type InheritedIndex = { from: 'defaults' | `server ${string}`; index: IndexConfig; vectors: boolean };

/**
 * The target's index (`own`, as written at `at` = `['targets', <name>]`, or else `inherited`)
 * parsed by the schema its driver declares for its type (defaults applied). Errors through `fail`
 * (USAGE, exit 2, `<file>:<line>: targets.<name>.index.<key>: …`): a type the driver does not
 * declare names the types it offers (`driver pgvector offers index types: none, hnsw, ivfflat`);
 * a bad or unknown parameter is the schema's first issue at its key (an unknown key with "did you
 * mean …?"). An inherited index that does not fit the driver is reported at the target's `index`
 * (the target's line), saying where it came from and to give the target an index of its own —
 * unless the target stores no vectors (`vectors: false`, e.g. a chat-history client): then no index
 * is built and its index is `{ type: 'none' }`.
 */
export function resolveTargetIndex(
  driver: Pick<BackendDriver, 'name' | 'indexes'>,
  own: { type: string } | undefined,
  inherited: InheritedIndex,
  at: ReadonlyArray<string | number>,
  fail: YamlFail,
): IndexConfig {
  const written: { type: string } = own ?? inherited.index;
  const where = [...at, 'index'];
  const whence = own
    ? ''
    : ` (the target gives no index; ${inherited.from === 'defaults' ? "the catalog's defaults.index" : `its ${inherited.from}'s index`} is ${JSON.stringify(written.type)}: give the target an index of its own)`;
  if (!own && !inherited.vectors && !offeredIndexTypes(driver.indexes).includes(written.type)) return { type: 'none' };
  const schema = written.type === 'none' ? noneIndexSchema : driver.indexes && Object.hasOwn(driver.indexes, written.type) ? driver.indexes[written.type] : undefined;
  if (!schema)
    fail(own ? [...where, 'type'] : where, `driver ${driver.name} has no index type ${JSON.stringify(written.type)}; it offers index types: ${offeredIndexTypes(driver.indexes).join(', ')}${whence}`);
  const parsed = schema!.safeParse(written);
  if (parsed.success) return parsed.data;
  if (!own) fail(where, `${parsed.error.issues[0]!.path.join('.') || 'index'}: ${parsed.error.issues[0]!.message}${whence}`);
  return failOnIssues(parsed.error.issues, (p, message) => fail([...where, ...p], message), schema);
}

/**
 * The index of a target named by URL (`<backend>@url=<url>`): the catalog's `defaults.index`
 * parsed by the driver's schema of its type. Throws USAGE naming the target and the catalog file
 * when the driver does not offer that type or the parameters do not fit it.
 */
export function urlTargetIndex(driver: Pick<BackendDriver, 'name' | 'indexes' | 'capabilities'>, index: IndexConfig, target: string, catalogFile: string): IndexConfig {
  return resolveTargetIndex(driver, undefined, { from: 'defaults', index, vectors: driver.capabilities.vectors }, ['targets', target], (_at, message) => {
    throw new MemoryMatrixError('USAGE', `${catalogFile}: target ${target}: ${message}`);
  });
}
