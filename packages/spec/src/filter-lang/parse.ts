import { didYouMean } from '../did-you-mean';
import { MemoryMatrixError } from '../errors';
import { metadataKeyProblem, stringProblem } from '../stored-values';
import { formatInstant } from '../time';
import { MEMORY_KINDS } from '../types';
import { type FilterExpr, type FilterField, type FilterInstant, type FilterScalar, RANGE_OPERATORS, type RangeOperator } from './types';

/**
 * Parse the Mongo-like surface syntax (what Mastra, Chroma and LangChain users write; JSON or YAML
 * loaded to plain values) into the typed AST (types.ts). Grammar (docs/filters.md "Syntax"):
 *   filter  := { key: clause, … }              one or more keys, ANDed in key order
 *   key     := "$and" | "$or"  → [filter, …]   (non-empty)
 *            | "$not"          → filter
 *            | field           → clause
 *   field   := "namespace" | "kind" | "createdAt" | "metadata.<key>[.<key>…]"  (`\.` / `\\` escape a dot / backslash inside a key)
 *   clause  := operand                         implicit $eq
 *            | { "$op": operand, … }           one or more operators, ANDed; "$not": { "$op": … } negates them
 *   operand := string | number | boolean | null | { "$date": "<RFC 3339>" }
 * Value rules: ranges take a finite number, or an instant on `createdAt`; `createdAt` takes
 * instants only and metadata never (a string is never guessed to be a date); `kind` takes the
 * known kinds; `$in`/`$nin` a list of operands; `$exists` a boolean; `$contains` a non-instant
 * scalar; strings pass stored-values.ts; −0 becomes 0.
 * Throws INVALID_INPUT `<where>: <path inside the filter>: <what>`, e.g.
 * `filter: $and[2].metadata.importance.$gte: expected a number or instant, got "high"`; a caller
 * reading a file adds `<file>:<line>` (golden/where.ts `invalidAt`).
 */
export function parseFilter(input: unknown, where = 'filter'): FilterExpr {
  return parseObject(input, '', (path, msg) => new MemoryMatrixError('INVALID_INPUT', `${where}: ${path === '' ? '(filter)' : path}: ${msg}`));
}

type Fail = (path: string, message: string) => MemoryMatrixError;
const RECORD_FIELDS = ['namespace', 'kind', 'createdAt'] as const;
const FIELD_OPERATORS = ['$eq', '$ne', '$gt', '$gte', '$lt', '$lte', '$in', '$nin', '$exists', '$contains', '$not'];

function join(path: string, key: string): string {
  return path === '' ? key : `${path}.${key}`;
}

/** A short description of a bad value for messages: `"high"`, `an array`, `an object`, `NaN`. */
export function describeValue(v: unknown): string {
  if (Array.isArray(v)) return 'an array';
  if (v === undefined) return 'nothing';
  if (typeof v === 'object' && v !== null) return 'an object';
  if (typeof v === 'number' && !Number.isFinite(v)) return String(v);
  return typeof v === 'string' ? JSON.stringify(v) : String(v);
}

function isPlainObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function parseObject(input: unknown, path: string, fail: Fail): FilterExpr {
  if (!isPlainObject(input)) throw fail(path, `expected a filter object, got ${describeValue(input)}`);
  const keys = Object.keys(input);
  if (keys.length === 0) throw fail(path, 'an empty filter object matches everything; leave the filter out instead');
  const parts = keys.map((key) => parseKey(key, input[key], path, fail));
  return parts.length === 1 ? parts[0]! : { op: '$and', args: parts };
}

function parseKey(key: string, value: unknown, path: string, fail: Fail): FilterExpr {
  const at = join(path, key);
  if (key === '$and' || key === '$or') {
    if (!Array.isArray(value) || value.length === 0) throw fail(at, `expected a non-empty list of filters, got ${describeValue(value)}`);
    return { op: key, args: value.map((v, i) => parseObject(v, `${at}[${i}]`, fail)) };
  }
  if (key === '$not') return { op: '$not', arg: parseObject(value, at, fail) };
  if (key.startsWith('$'))
    throw fail(at, `unknown operator ${JSON.stringify(key)} at filter level${hint(key, ['$and', '$or', '$not'])}; field operators go inside a field: { "metadata.x": { "${key}": … } }`);
  const field = parseField(key, at, fail);
  return parseClause(field, value, at, fail);
}

function hint(name: string, known: readonly string[]): string {
  const m = didYouMean(name, known);
  return m ? ` (${m})` : '';
}

/** Parse a field name (see `parseFilter`); exported for compilers' tests. Throws via `fail`. */
function parseField(name: string, at: string, fail: Fail): FilterField {
  if ((RECORD_FIELDS as readonly string[]).includes(name)) return { root: name as 'namespace' | 'kind' | 'createdAt' };
  const segments: string[] = [];
  let cur = '';
  for (let i = 0; i < name.length; i++) {
    const c = name[i]!;
    if (c === '\\') {
      const n = name[i + 1];
      if (n !== '.' && n !== '\\') throw fail(at, `field ${JSON.stringify(name)}: "\\" must be followed by "." or "\\"`);
      cur += n;
      i++;
    } else if (c === '.') {
      segments.push(cur);
      cur = '';
    } else cur += c;
  }
  segments.push(cur);
  if (segments[0] !== 'metadata' || segments.length < 2) {
    throw fail(at, `unknown field ${JSON.stringify(name)}: the record fields are namespace, kind and createdAt; a metadata key is written metadata.${name}${hint(name, RECORD_FIELDS)}`);
  }
  const path = segments.slice(1);
  for (const k of path) {
    const p = metadataKeyProblem(k);
    if (p !== null) throw fail(at, `field ${JSON.stringify(name)}: key ${JSON.stringify(k)} ${p}`);
  }
  return { root: 'metadata', path };
}

function parseClause(field: FilterField, value: unknown, at: string, fail: Fail): FilterExpr {
  if (!isPlainObject(value) || '$date' in value) return { op: '$eq', field, value: operand(field, '$eq', value, at, fail) };
  const ops = Object.keys(value);
  if (ops.length === 0) throw fail(at, 'expected an operand or an operator object, got an empty object');
  const parts = ops.map((op) => parseOperator(field, op, value[op], join(at, op), fail));
  return parts.length === 1 ? parts[0]! : { op: '$and', args: parts };
}

function parseOperator(field: FilterField, op: string, v: unknown, at: string, fail: Fail): FilterExpr {
  switch (op) {
    case '$eq':
    case '$ne':
      return { op, field, value: operand(field, op, v, at, fail) };
    case '$gt':
    case '$gte':
    case '$lt':
    case '$lte':
      return { op, field, value: rangeOperand(field, op, v, at, fail) };
    case '$in':
    case '$nin':
      if (!Array.isArray(v)) throw fail(at, `expected a list of values, got ${describeValue(v)}`);
      return { op, field, values: v.map((x, i) => operand(field, op, x, `${at}[${i}]`, fail)) };
    case '$exists':
      if (field.root !== 'metadata') throw fail(at, `${field.root} is present on every record; $exists applies to metadata keys`);
      if (typeof v !== 'boolean') throw fail(at, `expected true or false, got ${describeValue(v)}`);
      return { op, field, exists: v };
    case '$contains': {
      if (field.root !== 'metadata') throw fail(at, `$contains tests an array in metadata; ${field.root} is not an array`);
      const x = operand(field, op, v, at, fail);
      if (typeof x === 'object' && x !== null) throw fail(at, 'expected a string, number, boolean or null element, got an instant');
      return { op, field, value: x };
    }
    case '$not':
      if (!isPlainObject(v) || '$date' in v) throw fail(at, `expected an operator object such as { "$gt": 1 }, got ${describeValue(v)}`);
      return { op: '$not', arg: parseClause(field, v, at, fail) };
    default:
      throw fail(at, `unknown operator ${JSON.stringify(op)}${hint(op, FIELD_OPERATORS)}`);
  }
}

/** An `$eq`-style operand for `field`: the value rules of `parseFilter`. */
function operand(field: FilterField, op: string, v: unknown, at: string, fail: Fail): FilterScalar {
  if (isPlainObject(v) && '$date' in v) {
    if (field.root !== 'createdAt')
      throw fail(at, `an instant compares with createdAt only; ${field.root === 'metadata' ? 'metadata holds JSON values (store epoch milliseconds as a number)' : `${field.root} is a string`}`);
    return parseInstantOperand(v, at, fail);
  }
  if (field.root === 'createdAt') throw fail(at, `createdAt takes an instant { "$date": "2026-01-02T03:04:05Z" }, got ${describeValue(v)} (a string is never taken for a date)`);
  if (field.root === 'namespace' || field.root === 'kind') {
    if (typeof v !== 'string') throw fail(at, `${field.root} is a string; expected a string, got ${describeValue(v)}`);
    if (field.root === 'kind' && !(MEMORY_KINDS as readonly string[]).includes(v)) throw fail(at, `unknown kind ${JSON.stringify(v)}; kinds are ${MEMORY_KINDS.join(', ')}${hint(v, MEMORY_KINDS)}`);
  }
  if (v === null || typeof v === 'boolean') return v;
  if (typeof v === 'string') {
    const p = stringProblem(v);
    if (p !== null) throw fail(at, `string ${p}`);
    return v;
  }
  if (typeof v === 'number') {
    if (!Number.isFinite(v)) throw fail(at, `expected a finite number, got ${v} (JSON has no NaN or Infinity)`);
    return v === 0 ? 0 : v; // −0 equals 0
  }
  throw fail(at, `${op} expects a string, number, boolean, null${field.root === 'metadata' ? '' : ' or instant'}, got ${describeValue(v)}`);
}

function rangeOperand(field: FilterField, op: RangeOperator, v: unknown, at: string, fail: Fail): number | FilterInstant {
  if (field.root === 'namespace' || field.root === 'kind') throw fail(at, `${op} compares numbers and instants; ${field.root} is a string (strings are never compared by order)`);
  const isNum = typeof v === 'number' && Number.isFinite(v);
  if (!isNum && !(isPlainObject(v) && '$date' in v)) throw fail(at, `expected a number or instant, got ${describeValue(v)}`);
  const x = operand(field, op, v, at, fail);
  return x as number | FilterInstant;
}

const RFC3339 = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})(?:\.(\d{1,6}))?(Z|[+-]\d{2}:\d{2})$/;

/** `{ "$date": "<RFC 3339 with Z or offset, 0–6 fraction digits>" }` → a UTC `FilterInstant`. */
function parseInstantOperand(v: Record<string, unknown>, at: string, fail: Fail): FilterInstant {
  const extra = Object.keys(v).filter((k) => k !== '$date');
  if (extra.length) throw fail(at, `an instant is { "$date": "…" } alone; unexpected ${extra.map((k) => JSON.stringify(k)).join(', ')}`);
  const s = v.$date;
  const m = typeof s === 'string' ? RFC3339.exec(s) : null;
  if (!m) throw fail(`${at}.$date`, `expected an RFC 3339 instant such as "2026-01-02T03:04:05Z" or "2026-01-02T05:04:05.5+02:00", got ${describeValue(s)}`);
  const [y, mo, d, h, mi, se] = m.slice(1, 7).map(Number) as [number, number, number, number, number, number];
  const frac = (m[7] ?? '').padEnd(6, '0');
  const local = Date.UTC(y, mo - 1, d, h, mi, se);
  const check = new Date(local);
  if (
    y < 1 ||
    check.getUTCFullYear() !== y ||
    check.getUTCMonth() !== mo - 1 ||
    check.getUTCDate() !== d ||
    check.getUTCHours() !== h ||
    check.getUTCMinutes() !== mi ||
    check.getUTCSeconds() !== se
  ) {
    throw fail(`${at}.$date`, `${JSON.stringify(s)} is not a calendar date and time`);
  }
  const zone = m[8]!;
  const offsetMin = zone === 'Z' ? 0 : (zone[0] === '-' ? -1 : 1) * (Number(zone.slice(1, 3)) * 60 + Number(zone.slice(4, 6)));
  const ms = local - offsetMin * 60_000 + Number(frac.slice(0, 3));
  const us = Number(frac.slice(3, 6));
  let iso: string;
  try {
    iso = formatInstant({ ms, us });
  } catch {
    throw fail(`${at}.$date`, `${JSON.stringify(s)} is outside years 0001-9999 in UTC`);
  }
  return { $date: iso, ms, us };
}

/** Whether `op` is a range operator. */
export function isRangeOperator(op: string): op is RangeOperator {
  return (RANGE_OPERATORS as readonly string[]).includes(op);
}
