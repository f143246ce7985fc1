/**
 * A number JSON cannot carry, as report.json writes it: the string `"Infinity"`, `"-Infinity"` or
 * `"NaN"` (JSON.stringify would write `null`, which says "no value" about a score or a figure that
 * was infinite: a C15 failure's `actual: Infinity` read as `null`). Other values unchanged; a
 * `JSON.stringify` replacer.
 */
export function faithfulNumber(_key: string, v: unknown): unknown {
  return typeof v === 'number' && !Number.isFinite(v) ? String(v) : v;
}
