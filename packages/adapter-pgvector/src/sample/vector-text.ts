import { MemoryMatrixError } from '@memory-matrix/spec';

/**
 * Parse a vector from PostgreSQL's text output: pgvector `vector` (`[1,2.5,-3e-05]`) or a
 * `real[]` / `double precision[]` array (`{1,2.5,-3e-05}`). pgvector prints each float4 with the
 * shortest decimal that round-trips (vector_out → float_to_shortest_decimal), and so does
 * PostgreSQL ≥ 12 for `real[]` at the default extra_float_digits = 1, so `Math.fround(Number(s))`
 * gives back the stored float32 bit for bit. Returns a `Float32Array` of the components.
 * Throws INVALID_VECTOR naming `where` for an empty vector, an unparsable or non-finite component.
 */
export function parseVectorText(text: string, where: string): Float32Array {
  const t = text.trim();
  const open = t[0];
  const close = t[t.length - 1];
  if (!((open === '[' && close === ']') || (open === '{' && close === '}'))) {
    throw new MemoryMatrixError('INVALID_VECTOR', `${where}: "${t.slice(0, 40)}" is not a pgvector text ([…]) or array ({…})`);
  }
  const body = t.slice(1, -1).trim();
  if (!body) throw new MemoryMatrixError('INVALID_VECTOR', `${where}: empty vector`);
  const parts = body.split(',');
  const out = new Float32Array(parts.length);
  for (let i = 0; i < parts.length; i += 1) {
    const x = Number(parts[i]!.trim());
    if (!Number.isFinite(x) || parts[i]!.trim() === '') throw new MemoryMatrixError('INVALID_VECTOR', `${where}: component ${i} "${parts[i]}" is not a finite number`);
    out[i] = x;
  }
  return out;
}
