import type { MemoryRecord } from '@memory-matrix/spec';

/**
 * SELF-TEST OF THE GATE ONLY (`migrate --tamper <id>`): the text with its middle code point
 * replaced (`X`, or `Y` where it already is `X`; an empty text becomes `tampered`), so exactly one
 * byte range of one memory differs after import and the verification must name that row.
 */
export function tamperText(text: string): string {
  const cps = [...text];
  if (cps.length === 0) return 'tampered';
  const i = Math.floor(cps.length / 2);
  cps[i] = cps[i] === 'X' ? 'Y' : 'X';
  return cps.join('');
}

/** A `MigrateOptions.transform` that alters the text of memory `id` only (self-test). */
export function tamperTransform(id: string): (r: MemoryRecord) => MemoryRecord {
  return (r) => (r.id === id ? { ...r, text: tamperText(r.text) } : r);
}
