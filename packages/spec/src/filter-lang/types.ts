// The filter language's typed AST (docs/filters.md): what `parseFilter` (parse.ts) produces from
// the Mongo-like surface syntax, what `evaluateFilter` (evaluate.ts) gives the reference meaning
// of, and what an adapter's native compiler (pgvector SQL, Chroma `where`, LanceDB `where`, Milvus
// expressions, Redis `FILTER`) translates. Build it with `parseFilter`, never by hand in checks:
// the parser is the one place that enforces the value rules below.

/** Every operator of the language, in the order docs/filters.md lists them. */
export const FILTER_OPERATORS = ['$eq', '$ne', '$gt', '$gte', '$lt', '$lte', '$in', '$nin', '$exists', '$contains', '$and', '$or', '$not'] as const;

/** One operator name (capability `filterOperators` lists the ones an adapter pushes down). */
export type FilterOperator = (typeof FILTER_OPERATORS)[number];

/** The range operators: number and instant operands only (a string is never compared by order). */
export const RANGE_OPERATORS = ['$gt', '$gte', '$lt', '$lte'] as const;
export type RangeOperator = (typeof RANGE_OPERATORS)[number];

/**
 * What a comparison looks at:
 * - `namespace`, `kind`: the record's fields (strings; `kind` one of MEMORY_KINDS);
 * - `createdAt`: the record's canonical instant (time.ts), compared with instant operands only;
 * - `metadata`: the value at `path` inside the record's metadata, one key per level
 *   (`["src", "corpus"]` is `metadata.src.corpus`; each segment a non-empty key that does not
 *   begin with `$`). A path through a missing key or a non-object is missing.
 */
export type FilterField = { root: 'namespace' } | { root: 'kind' } | { root: 'createdAt' } | { root: 'metadata'; path: readonly string[] };

/**
 * An instant operand, written `{ "$date": "2026-01-02T03:04:05Z" }` (RFC 3339, `Z` or an offset,
 * 0–6 fractional digits) and kept in UTC: `iso` its canonical spelling (time.ts, e.g.
 * `2026-01-02T03:04:05.000Z`), `ms` epoch milliseconds (integer), `us` 0..999 further microseconds.
 * A plain string is never taken for an instant.
 */
export interface FilterInstant {
  $date: string;
  ms: number;
  us: number;
}

/** A scalar operand: string, finite number (−0 equals 0), boolean, null, or an instant. */
export type FilterScalar = string | number | boolean | null | FilterInstant;

/** A comparison operand of a range: a finite number, or an instant (for `createdAt`). */
export type FilterRangeValue = number | FilterInstant;

/**
 * The filter AST. Every node is a plain JSON-able object (the golden filter set stores the
 * surface form, describe.ts `filterToSurface`, not this tree):
 * - `and` / `or`: one or more `args` (an empty list is a parse error: it would be vacuous);
 * - `not`: boolean negation of `arg` (two-valued: a missing key makes the inner test false, so
 *   `not` makes it true; docs/filters.md "Missing keys");
 * - `$eq` / `$ne`: the field holds (does not hold) `value`, same JSON type and value;
 * - range (`$gt` `$gte` `$lt` `$lte`): the field holds a value of the operand's type (number with
 *   number, instant with instant) on that side of it;
 * - `$in` / `$nin`: `$eq` with one of `values` (none of them); an empty list is allowed;
 * - `$exists`: the key is present (any value, `null` included) / absent;
 * - `$contains`: the field holds an ARRAY with an element equal to `value` (a scalar; MongoDB's
 *   implicit `{ tags: "x" }` array match is not part of `$eq`, docs/filters.md "Arrays").
 */
export type FilterExpr =
  | { op: '$and'; args: FilterExpr[] }
  | { op: '$or'; args: FilterExpr[] }
  | { op: '$not'; arg: FilterExpr }
  | { op: '$eq' | '$ne'; field: FilterField; value: FilterScalar }
  | { op: RangeOperator; field: FilterField; value: FilterRangeValue }
  | { op: '$in' | '$nin'; field: FilterField; values: FilterScalar[] }
  | { op: '$exists'; field: FilterField; exists: boolean }
  | { op: '$contains'; field: FilterField; value: string | number | boolean | null };

/** A JSON value as metadata may hold it (nested objects and arrays included, docs/filters.md). */
export type FilterJson = string | number | boolean | null | FilterJson[] | { [key: string]: FilterJson };

/**
 * What a filter is evaluated against: a record's `namespace`, `kind`, `createdAt` (canonical
 * instant; needed only by filters that read it) and `metadata`. `MemoryRecord` fits it.
 */
export interface FilterDocument {
  namespace: string;
  kind: string;
  createdAt?: string;
  metadata: Readonly<Record<string, FilterJson>>;
}

/** Whether `v` is an instant operand (`{ $date, ms, us }` as the parser builds it). */
export function isFilterInstant(v: unknown): v is FilterInstant {
  return typeof v === 'object' && v !== null && !Array.isArray(v) && typeof (v as FilterInstant).$date === 'string' && typeof (v as FilterInstant).ms === 'number';
}

/** The field as written in the surface syntax: `namespace`, `kind`, `createdAt` or `metadata.a.b` (a `.` or `\` inside a key escaped with `\`). */
export function fieldName(f: FilterField): string {
  if (f.root !== 'metadata') return f.root;
  return ['metadata', ...f.path.map((k) => k.replace(/\\/g, '\\\\').replace(/\./g, '\\.'))].join('.');
}
