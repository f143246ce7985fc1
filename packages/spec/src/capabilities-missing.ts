import { capabilitiesSchema, PROVIDER_CAPABILITIES, READ_YOUR_WRITES_LEVELS, VECTOR_CAPABILITIES, type Capabilities, type ReadYourWrites } from './capabilities';

/**
 * The capabilities `declared` for a target that the connected store's `reported` ones lack:
 * a boolean declared true but reported false, a list entry (metric, ANN index) declared but not
 * reported, a `maxBatch` larger than the store's, a `maxDim` or `maxIndexDim` larger than the
 * store's or left out (no limit) where the store reports one (`maxIndexDim unlimited > 2000`), or a `readYourWrites` level stronger than the
 * store's (`readYourWrites strong > session`). Provider capabilities (`faults`, `upgrade`)
 * are not compared, nor, when `declared.vectors` is false, the flags only vector checks read
 * (`VECTOR_CAPABILITIES`: every check that reads them also needs `vectors`, so they cannot make a
 * check run). Returns e.g. `['vectors', 'annIndexes.hnsw']`; empty when nothing is missing.
 */
export function missingCapabilities(declared: Capabilities, reported: Capabilities): string[] {
  const out: string[] = [];
  for (const key of Object.keys(capabilitiesSchema.shape) as Array<keyof Capabilities>) {
    if (PROVIDER_CAPABILITIES.includes(key)) continue;
    if (!declared.vectors && VECTOR_CAPABILITIES.includes(key)) continue;
    const d = declared[key];
    const r = reported[key];
    if (typeof d === 'boolean') {
      if (d && r !== true) out.push(key);
    } else if (Array.isArray(d)) {
      const have = new Set((Array.isArray(r) ? r : []) as string[]);
      for (const x of d as string[]) if (!have.has(x)) out.push(`${key}.${x}`);
    } else if (key === 'maxBatch' && typeof d === 'number' && typeof r === 'number' && d > r) {
      out.push(`maxBatch ${d} > ${r}`);
    } else if ((key === 'maxDim' || key === 'maxIndexDim') && typeof r === 'number' && (d === undefined || (typeof d === 'number' && d > r))) {
      out.push(`${key} ${d ?? 'unlimited'} > ${r}`);
    } else if (key === 'readYourWrites') {
      const rank = (x: unknown) => READ_YOUR_WRITES_LEVELS.indexOf(x as ReadYourWrites);
      if (rank(d) > rank(r)) out.push(`readYourWrites ${String(d)} > ${String(r)}`);
    }
  }
  return out;
}
