import { MemoryMatrixError } from '@memory-matrix/spec';
import { FIELD } from './schema';

/**
 * Milvus boolean expressions (the `filter` of query/search/delete) built from values, never from
 * unescaped text. Milvus documents its expression grammar in "Filtering" / "Boolean Expression
 * Rules" (milvus.io/docs/boolean.md): string literals in double quotes, `in [...]` lists,
 * JSON fields addressed as `field["key"]`, `==` comparing type and value.
 */

/** Characters a Milvus string literal cannot carry (see quoteString): LF and CR. */
export const UNQUOTABLE = /[\n\r]/;

/**
 * A Milvus string literal for `s`: `"` + s + `"` with `\` → `\\` and `"` → `\"`; every other
 * character (tab, NUL, DEL, any Unicode, emoji) passes raw as UTF-8. So a value can never end
 * the literal or add an operator: `" || id != "` stays one string.
 * Measured on kylin-ai-vector-engine 1.2 (test/expr-live.test.ts): its parser unescapes `\\` and
 * `\"` only — `\n`, `\t`, `\uXXXX`, `\xHH`, octal and `\UXXXXXXXX` match nothing — and refuses a
 * raw LF or CR inside a literal ("Invalid expr"). A string with LF or CR therefore cannot be
 * written as a literal: throws INVALID_INPUT naming `where` (the adapter refuses such ids and
 * namespaces at write time, README "Expressions").
 */
export function quoteString(s: string, where = 'milvus: expression'): string {
  if (UNQUOTABLE.test(s)) {
    throw new MemoryMatrixError(
      'INVALID_INPUT',
      `${where}: ${JSON.stringify(s)} contains a line feed or carriage return, which a Milvus expression literal cannot carry (kylin-ai-vector-engine refuses them raw and does not unescape \\n / \\r)`,
    );
  }
  return `"${s.replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"`;
}

/** `[lit, lit, …]` of quoted strings (an empty list is `[]`). */
export function quoteList(values: readonly string[]): string {
  return `[${values.map((v) => quoteString(v)).join(', ')}]`;
}

/**
 * A Milvus literal for a metadata scalar: string → quoted (quoteString), boolean → `true`/`false`,
 * finite number → its shortest round-trip decimal (JS `String`, e.g. `0.1`, `1e-7`). `null` is not a literal Milvus compares
 * JSON values with (`metadata["k"] == null` is refused: "unsupported expr"), so callers test
 * nulls through the `meta_types` field instead (filter-expr.ts).
 */
export function literal(v: string | number | boolean): string {
  if (typeof v === 'string') return quoteString(v);
  if (typeof v === 'boolean') return v ? 'true' : 'false';
  if (!Number.isFinite(v)) throw new Error(`literal: ${v} is not a finite number`);
  return String(v);
}

/** Whether `s` holds a C0 control character (U+0000–U+001F): such a metadata key cannot be addressed by a JSON path (jsonPath). */
export function hasC0Control(s: string): boolean {
  for (let i = 0; i < s.length; i++) if (s.charCodeAt(i) < 0x20) return true;
  return false;
}

/**
 * `field["key"]`: the JSON path of one metadata key, the key quoted as a string literal. A key
 * with a C0 control character is INVALID_INPUT: measured on kylin-ai-vector-engine 1.2, a path
 * whose key holds a tab or NUL matches nothing although the row holds that key (JSON stores the
 * key escaped and the path is compared raw), so such a filter would silently return nothing.
 * (Values with tab or NUL compare fine; DEL in a key is fine.)
 */
export function jsonPath(field: string, key: string): string {
  if (hasC0Control(key)) {
    throw new MemoryMatrixError(
      'INVALID_INPUT',
      `milvus: filter on metadata key ${JSON.stringify(key)}: a key with a control character cannot be addressed by a Milvus JSON path (kylin-ai-vector-engine matches nothing for it)`,
    );
  }
  return `${field}[${quoteString(key)}]`;
}

/** `id in [...]` for a list of ids. */
export function idsExpr(ids: readonly string[]): string {
  return `${FIELD.id} in ${quoteList(ids)}`;
}

/** Both conditions (either may be ''). */
export function and(a: string, b: string): string {
  return a && b ? `(${a}) and (${b})` : a || b;
}
