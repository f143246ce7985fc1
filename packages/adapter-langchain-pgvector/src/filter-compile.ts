import type { PGVectorStore } from '@langchain/community/vectorstores/pgvector';
import { filterCannot, instantAsMicros, pushdownFilterExpr, type FilterExpr, type FilterField, type FilterOperator, type FilterScalar, type RecallFilter } from '@memory-matrix/spec';
import { FIELD_KEYS } from './documents';
import { ADAPTER, invalid } from './errors';

// The filter language (docs/filters.md) compiled to the filter object of PGVectorStore
// (@langchain/community 1.1.29, `buildFilterClauses`): one flat object, its keys ANDed, each key
// either a plain value (`metadata->>'key' = $n`) or an object of operators `in` (`->> IN (…)`),
// `notIn` (`->> NOT IN (…)`), `arrayContains` (`metadata->'key' ?| array[…]`), `gt gte lt lte`
// (`(->>)::numeric > $n`, number operands only) and `neq` (`->> IS NULL OR ->>::text != $n`).
// The client has no OR, no NOT, no existence test and no nested path (the key is one top-level
// metadata key, written into the SQL text). Every comparison is on the TEXT of the value (`->>`),
// so where the client's SQL differs from the reference the compiler does not hide it: C31 fails
// on those cases and the README shows each with the client alone.

/**
 * The operators PGVectorStore's filter object pushes into SQL (capability `filterOperators`):
 * `$and` (the object's keys, ANDed), `$eq`, `$ne`, `$in`, `$nin`, the four ranges and `$contains`.
 * Not `$or`, `$not`, `$exists`: the client has none.
 */
export const LANGCHAIN_PGVECTOR_FILTER_OPERATORS: readonly FilterOperator[] = ['$eq', '$ne', '$gt', '$gte', '$lt', '$lte', '$in', '$nin', '$contains', '$and'];

type Slot = Record<string, unknown>;
const RANGE_KEY = { $gt: 'gt', $gte: 'gte', $lt: 'lt', $lte: 'lte' } as const;

/**
 * `filter` (the whole RecallFilter: namespaces, kinds, metadata and where, via `recallFilterExpr`)
 * as PGVectorStore's filter object; undefined when it restricts nothing. Per leaf, with `key` the
 * metadata key the driver keeps the field under (documents.ts FIELD_KEYS: `mm_namespace`, `mm_kind`,
 * `mm_created_us` — createdAt as epoch microseconds, a number, so ranges go through the client's
 * numeric syntax; a metadata path of one key is that key):
 * `$eq v` → `{ key: v }` (or `in: [v]` when the key already has operators), `$ne` → `neq`, `$in` →
 * `in`, `$nin` → `notIn` (`$nin []` matches everything and is left out: the client would send
 * `NOT IN ()`, a syntax error), ranges → `gt gte lt lte`, `$contains v` → `arrayContains: [v]`;
 * `$and` (any depth) flattens into the one object. Throws CAPABILITY_MISSING (`where` naming it)
 * for an operator outside LANGCHAIN_PGVECTOR_FILTER_OPERATORS, a nested metadata path, `$in []`
 * (the client sends `IN ()`), two clauses the one object cannot hold on one key (two `$eq`, two
 * `$ne`, two bounds of one kind); INVALID_INPUT for a metadata key starting with `mm_` (the
 * driver's) or holding `'` (the client writes the key into the SQL text unescaped).
 */
export function compileLangchainFilter(filter: RecallFilter | undefined, where: string): PGVectorStore['FilterType'] | undefined {
  const expr = pushdownFilterExpr(
    filter,
    LANGCHAIN_PGVECTOR_FILTER_OPERATORS,
    `${ADAPTER}: ${where}`,
    (ops) => `operators ${ops}: PGVectorStore's filter object has no OR, NOT or existence test (capability filterOperators)`,
  );
  if (expr === undefined) return undefined;
  const out: Record<string, unknown> = {};
  const slot = (key: string): Slot => {
    const s = out[key];
    if (s === undefined) return (out[key] = {}) as Slot;
    if (typeof s !== 'object' || s === null) {
      out[key] = { in: [s] }; // a plain value so far: the same `->>` text comparison as `in` of one value
      return out[key] as Slot;
    }
    return s as Slot;
  };
  const put = (key: string, op: string, v: unknown): void => {
    const s = slot(key);
    if (op in s) throw cannot(where, `two ${op} clauses on ${JSON.stringify(key)}: PGVectorStore's filter object holds one per key`);
    s[op] = v;
  };
  const walk = (e: FilterExpr): void => {
    switch (e.op) {
      case '$and':
        return e.args.forEach(walk);
      case '$eq': {
        const key = keyOf(e.field, where);
        if (out[key] === undefined) out[key] = operand(e.field, e.value);
        else put(key, 'in', [operand(e.field, e.value)]);
        return;
      }
      case '$ne':
        return put(keyOf(e.field, where), 'neq', operand(e.field, e.value));
      case '$in':
        if (e.values.length === 0) throw cannot(where, `$in [] on ${fieldName(e.field)}: PGVectorStore would send "IN ()", a syntax error`);
        return put(
          keyOf(e.field, where),
          'in',
          e.values.map((v) => operand(e.field, v)),
        );
      case '$nin':
        if (e.values.length === 0) return; // matches every row
        return put(
          keyOf(e.field, where),
          'notIn',
          e.values.map((v) => operand(e.field, v)),
        );
      case '$gt':
      case '$gte':
      case '$lt':
      case '$lte':
        return put(keyOf(e.field, where), RANGE_KEY[e.op], operand(e.field, e.value));
      case '$contains':
        return put(keyOf(e.field, where), 'arrayContains', [e.value]);
      default:
        throw cannot(where, `operator ${e.op}`);
    }
  };
  walk(expr);
  return Object.keys(out).length ? (out as PGVectorStore['FilterType']) : undefined;
}

/** The metadata key PGVectorStore filters on for `field` (see `compileLangchainFilter`). */
function keyOf(field: FilterField, where: string): string {
  if (field.root === 'namespace') return FIELD_KEYS.namespace;
  if (field.root === 'kind') return FIELD_KEYS.kind;
  if (field.root === 'createdAt') return FIELD_KEYS.createdMicros;
  if (field.path.length !== 1) throw cannot(where, `nested path ${fieldName(field)}: PGVectorStore filters on one top-level metadata key`);
  const key = field.path[0]!;
  if (key.startsWith('mm_')) throw invalid(`${where}: filter key ${JSON.stringify(key)} starts with mm_, which this driver keeps for the memory's own fields`);
  if (key.includes("'")) throw invalid(`${where}: filter key ${JSON.stringify(key)} holds ', which PGVectorStore writes into its SQL text unescaped`);
  return key;
}

/** An operand as the client gets it: an instant as epoch microseconds (createdAt's stored number), anything else as it is. */
function operand(field: FilterField, v: FilterScalar): unknown {
  return instantAsMicros(v);
}

function fieldName(field: FilterField): string {
  return field.root === 'metadata' ? `metadata.${field.path.join('.')}` : field.root;
}

function cannot(where: string, what: string): ReturnType<typeof filterCannot> {
  return filterCannot(`${ADAPTER}: ${where}`, what);
}
