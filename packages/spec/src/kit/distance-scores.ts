// Distance → canonical score (issue 33 kit): the per-metric switch Chroma, pgvector, RediSearch,
// SQLite and libSQL each wrote. The canonical scale is docs/design.md "canonical score" (cosine
// similarity, inner product, negative Euclidean distance; higher is more similar); which form a
// store's distance takes stays in the adapter's scores.ts, with its source.
import { MemoryMatrixError } from '../errors';
import { negativeSqrtOfSquared } from '../scores';
import type { Metric } from '../types';

/**
 * How one metric's native value d becomes the canonical score:
 * - `'one-minus'`: d → 1 − d (a cosine distance 1 − cos; an inner-product distance 1 − a·b);
 * - `'negated'`: d → −d (a Euclidean distance, not squared; pgvector's negative inner product `<#>`);
 * - `'negative-sqrt'`: d → −√d (a SQUARED Euclidean distance; INVALID_INPUT for d < 0, `negativeSqrtOfSquared`);
 * - `{ missing }`: the store has no such distance: CAPABILITY_MISSING with the message `missing`.
 */
export type DistanceForm = 'one-minus' | 'negated' | 'negative-sqrt' | { missing: string };

/**
 * The converter `(metric, d) => canonical score` of a store whose metrics take `forms`. `where`
 * names the converter in `negative-sqrt`'s INVALID_INPUT message. Plain float64 arithmetic: a NaN
 * d gives NaN (the comparator reports it). Throws INVALID_INPUT / CAPABILITY_MISSING as above.
 */
export function distanceToCanonical(forms: Readonly<Record<Metric, DistanceForm>>, where: string): (metric: Metric, d: number) => number {
  return (metric, d) => {
    const form = forms[metric];
    if (form === 'one-minus') return 1 - d;
    if (form === 'negated') return -d;
    if (form === 'negative-sqrt') return negativeSqrtOfSquared(d, where);
    throw new MemoryMatrixError('CAPABILITY_MISSING', form.missing);
  };
}
