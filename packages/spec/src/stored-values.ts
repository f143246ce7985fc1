/**
 * The ONE rule on which strings and numbers a memory may hold: what every store in the catalogue
 * keeps byte for byte, and therefore what both the golden loader (golden/records.ts, GOLDEN_INVALID
 * `<file>:<line>: field …`) and the adapter contract (record-validation.ts, INVALID_INPUT) accept.
 * Anything these functions accept must round-trip through every adapter (the user-data fixture
 * golden-data/user-data/odd-strings holds one of each kind); anything they refuse is refused at
 * load and by every adapter, so a dataset the loader accepts never fails a check for its strings.
 * Documented in golden-data/FORMAT.md ("Strings and numbers") and docs/design.md.
 *
 * Refused, with the store that cannot keep it (measured, see the adapter READMEs):
 * - U+0000 in any string: PostgreSQL `text` and `jsonb` reject it ("invalid byte sequence for
 *   encoding UTF8: 0x00" / "unsupported Unicode escape sequence").
 * - a lone UTF-16 surrogate in any string: not Unicode, UTF-8 has no encoding for it (every store
 *   speaks UTF-8; Node replaces it with U+FFFD, so the value would come back changed).
 * - a C0 control character (U+0001–U+001F) or U+007F in an id, a namespace or a metadata key:
 *   identifiers end up inside filter expressions and JSON paths (Milvus refuses LF/CR in an
 *   expression literal and matches nothing for a key with a control character, measured).
 *   Text and metadata string VALUES may hold them.
 * - an empty metadata key: Chroma refuses it ("metadata keys cannot be empty"), Milvus's JSON path
 *   `metadata[""]` is "Invalid expr".
 * - a metadata key beginning with `$`: `$`-keys are operators in Chroma and MongoDB-style filter
 *   languages (`$and`, `$eq`, …), and a JSON path root (`$.a`) in SQLite and PostgreSQL jsonpath.
 * - the metadata key `__proto__`: `obj[key] = value` on a plain JavaScript object sets its
 *   prototype instead, so zod's record parsing (the golden loader, measured) and any adapter that
 *   builds metadata that way drop the key without a word.
 * - metadata number −0 in a record: JSON text and jsonb keep no sign of zero (pgvector, SQLite JSON,
 *   LanceDB, Redis, Milvus store 0). In a filter −0 is allowed: it equals 0 there.
 * - a metadata number that is not finite (JSON has no NaN/Infinity).
 */

/** A lone UTF-16 surrogate (a high not followed by a low, or a low not preceded by a high). */
export const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;
/** A C0 control character other than NUL, or DEL: refused in identifiers (ids, namespaces, metadata keys). */
// eslint-disable-next-line no-control-regex -- matching control characters is the point
export const IDENTIFIER_CONTROL = /[\u0001-\u001F\u007F]/;

/** Why string `s` cannot be stored (`null` when it can): a NUL or a lone surrogate. `s` must be a string. */
export function stringProblem(s: string): string | null {
  if (s.includes('\u0000')) return 'contains U+0000 (NUL), which PostgreSQL text and jsonb cannot store';
  if (LONE_SURROGATE.test(s)) return 'contains a lone UTF-16 surrogate, which UTF-8 cannot store';
  return null;
}

/** Why `s` cannot be an id or a namespace (`null` when it can): `stringProblem`, or a C0 control character / DEL. */
export function identifierProblem(s: string): string | null {
  const p = stringProblem(s);
  if (p !== null) return p;
  const m = IDENTIFIER_CONTROL.exec(s);
  return m ? `contains the control character U+${m[0].charCodeAt(0).toString(16).toUpperCase().padStart(4, '0')} at index ${m.index}, which no identifier may hold` : null;
}

/** Why `key` cannot be a metadata key (`null` when it can): empty, beginning with `$`, or `identifierProblem`. */
export function metadataKeyProblem(key: string): string | null {
  if (key === '') return 'is empty (Chroma and Milvus refuse empty metadata keys)';
  if (key.startsWith('$')) return 'begins with "$", which filter languages reserve for operators and JSON paths';
  if (key === '__proto__') return 'is "__proto__": assigning it to a JavaScript object sets the prototype, so the key is silently dropped';
  return identifierProblem(key);
}

/**
 * Why metadata number `n` cannot be stored (`null` when it can): not finite, or −0 outside a
 * filter (`inFilter` true: −0 equals 0 in a filter and is allowed).
 */
export function metadataNumberProblem(n: number, inFilter: boolean): string | null {
  if (!Number.isFinite(n)) return `is ${n}; JSON has no NaN/Infinity`;
  if (!inFilter && Object.is(n, -0)) return 'is -0, which JSON stores (jsonb, SQLite JSON, LanceDB, Redis, Milvus) keep as 0';
  return null;
}

/** Whether every key and value of a metadata object of scalars passes the rules above (no message built: the hot path). */
export function metadataValuesOk(m: Record<string, unknown>, inFilter: boolean): boolean {
  for (const key in m) {
    if (!Object.prototype.hasOwnProperty.call(m, key)) continue;
    if (metadataKeyProblem(key) !== null) return false;
    const v = m[key];
    if (typeof v === 'string' ? stringProblem(v) !== null : typeof v === 'number' && metadataNumberProblem(v, inFilter) !== null) return false;
  }
  return true;
}
