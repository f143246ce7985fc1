import { MemoryMatrixError } from '@memory-matrix/spec';

/**
 * Text codecs between JS values and what PostgreSQL / pgvector read and print.
 *
 * Vectors travel as pgvector text literals `[x1,x2,…]` in both directions, so the same SQL works
 * over any driver (pg, PGlite) without a binary type parser.
 * - Write: each float32 component is printed with 9 significant digits (`toPrecision(9)`).
 *   9 digits always identify a float32 uniquely (FLT_DECIMAL_DIG = 9, IEEE 754-2008 §5.12.2),
 *   and pgvector parses with `strtof` (correctly rounded), so the stored float4 is bit-identical.
 *   −0 is written as `-0` (toPrecision would drop the sign).
 * - Read: pgvector prints the shortest decimal that round-trips to the float4; `Number()` then
 *   `Math.fround` recovers the same float32 (round-to-nearest-even at each step agrees because
 *   the decimal already identifies the float4).
 */
export function vectorToLiteral(v: ArrayLike<number>): string {
  const parts = new Array<string>(v.length);
  for (let i = 0; i < v.length; i++) {
    const x = v[i]!;
    parts[i] = x === 0 ? (Object.is(x, -0) ? '-0' : '0') : x.toPrecision(9);
  }
  return `[${parts.join(',')}]`;
}

/**
 * Parse pgvector's text output `[x1,…,xn]` into a `Float32Array` of length n (bit-exact, see
 * above). `where` names the table and id for the error. Throws BACKEND_ERROR on text that is not
 * a vector literal (never returns a partial vector).
 */
export function literalToVector(text: string, where: string): Float32Array {
  if (typeof text !== 'string' || text.length < 2 || text[0] !== '[' || text[text.length - 1] !== ']') {
    throw new MemoryMatrixError('BACKEND_ERROR', `pgvector: ${where}: embedding is not a vector literal: ${String(text).slice(0, 60)}`);
  }
  const body = text.slice(1, -1);
  if (body.length === 0) return new Float32Array(0);
  const parts = body.split(',');
  const out = new Float32Array(parts.length);
  for (let i = 0; i < parts.length; i++) {
    const p = parts[i]!;
    const x = Number(p);
    if (p === '' || Number.isNaN(x)) {
      throw new MemoryMatrixError('BACKEND_ERROR', `pgvector: ${where}: embedding component ${i} is not a number: ${p}`);
    }
    out[i] = x; // Float32Array assignment rounds to nearest float32 (Math.fround)
  }
  return out;
}

/**
 * SQL expression printing a timestamptz column as the canonical instant (spec time.ts) in UTC,
 * independent of the session's TimeZone and DateStyle: `US` prints the microseconds timestamptz
 * keeps, and a zero sub-millisecond part is cut (`.123000Z` → `.123Z`), so a millisecond instant
 * reads back as `YYYY-MM-DDTHH:MM:SS.sssZ` and a microsecond one as `…SS.ssssssZ`, byte for byte.
 */
export function isoTimestampSql(column: string): string {
  return `regexp_replace(to_char(${column} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"'), '000Z$', 'Z')`;
}

/**
 * Quote a string as a PostgreSQL escape-string literal `E'…'` (for the few statements that take
 * no bind parameters, e.g. COMMENT ON). Backslashes and quotes are doubled, so the result means
 * the same under any `standard_conforming_strings`. NUL is rejected by the caller's validation.
 */
export function quoteLiteral(s: string): string {
  return `E'${s.replace(/\\/g, '\\\\').replace(/'/g, "''")}'`;
}

/** Quote an identifier that is already validated as `[a-z0-9_]+`. */
export function ident(name: string): string {
  return `"${name}"`;
}
