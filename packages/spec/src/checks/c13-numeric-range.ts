import type { Failure } from '../comparator';
import { referenceScore } from '../scores';
import { pairTolerances, vectorNorm } from '../tolerance';
import { type CheckDefinition, failure, needs } from './check';
import { errorCode } from './helpers/error-code';
import { requireMemories, sampleRecords } from './helpers/sampling';

/**
 * Magnitudes the check asserts: unit golden vectors scaled by these factors keep finite scores,
 * float64-consistent order and (for cosine, scale-invariant) the same scores. 1e6 covers any
 * unnormalized embedding seen in practice. Larger factors (`PROBED`) are only reported: a float32
 * dot product over 384 terms overflows near 1e19 (384·(1e19)² > 3.4e38 = FLT_MAX).
 */
export const ASSERTED_SCALES = [1e-3, 1e3, 1e6] as const;
export const PROBED_SCALES = [1e9, 1e15, 1e19] as const;

/**
 * C13 numeric-range: large-magnitude finite components give finite canonical scores in
 * float64-consistent order. Writes 40 golden memories scaled by each factor into a fresh
 * collection (one per factor) and queries with a scaled stored vector; compares scores and ids
 * with the float64 reference under the tolerance model (tolerance.ts: the target's figure scaled
 * by the dimension and the two vectors' norms, so it holds whatever the dataset's own norms).
 */
/** Memories C13 needs: a query memory and at least one other to order. */
export const C13_MIN_MEMORIES = 2;

export const c13NumericRange: CheckDefinition = {
  id: 'C13',
  name: 'numeric-range',
  requires: needs('vectors'),
  async run(cell) {
    const metric = cell.dataset.manifest.metric;
    requireMemories('C13', cell.datasetName, cell.dataset.memories.length, C13_MIN_MEMORIES, 'an order of scaled scores');
    const base = sampleRecords(cell.dataset.memories, 40); // min(40, n), distinct
    const failures: Failure[] = [];
    const figures: Record<string, string | number> = {};
    let largestFinite = 0;
    for (const scale of [...ASSERTED_SCALES, ...PROBED_SCALES]) {
      const asserted = (ASSERTED_SCALES as readonly number[]).includes(scale);
      const records = base.map((r) => ({ ...r, embedding: Float32Array.from(r.embedding, (x) => x * scale) }));
      const { collection } = await cell.scratch(`c13_${Math.round(Math.log10(scale)) + 20}`);
      const code = await errorCode(() => collection.upsert(records));
      if (code) {
        figures[`scale ${scale.toExponential(0)}`] = `rejected:${code}`;
        if (asserted) failures.push(failure(cell, 'numeric', `write of vectors scaled by ${scale} failed with ${code}`, { expected: 'accepted', actual: code }));
        continue;
      }
      await collection.buildIndex();
      const q = records[Math.min(3, records.length - 1)]!.embedding;
      const hits = await collection.recall({ vector: q, k: 10, scan: cell.config.capabilities.exactScan ? 'exact' : undefined });
      const ref = records.map((r) => ({ id: r.id, score: referenceScore(metric, q, r.embedding) })).sort((a, b) => b.score - a.score || (a.id < b.id ? -1 : 1));
      // The tolerance model (tolerance.ts): per pair, from the metric, dimension and both norms.
      const qNorm = vectorNorm(q);
      const rowNorms = new Map(records.map((r) => [r.id, vectorNorm(r.embedding)]));
      const tols = pairTolerances(cell.config.tolerances, metric, q.length, qNorm, (id) => rowNorms.get(id));
      const problems: string[] = [];
      for (const [i, h] of hits.entries()) {
        const r = ref.find((x) => x.id === h.id);
        const at = ref[i];
        if (!Number.isFinite(h.score)) problems.push(`rank ${i + 1} id ${h.id} score ${h.score} is not finite`);
        else if (!r || !(Math.abs(h.score - r.score) <= tols.score(h.id))) {
          problems.push(`rank ${i + 1} id ${h.id} score ${h.score} vs float64 ${r?.score} (|Δ| ${r ? Math.abs(h.score - r.score).toExponential(2) : 'n/a'} > ${tols.score(h.id).toExponential(2)})`);
        } else if (at && !(Math.abs(r.score - at.score) <= Math.max(tols.tie(h.id), tols.tie(at.id)))) problems.push(`rank ${i + 1} is ${h.id}, float64 order has ${at.id}`);
      }
      figures[`scale ${scale.toExponential(0)}`] = problems.length ? `wrong: ${problems[0]}` : 'finite, consistent';
      if (!problems.length) largestFinite = Math.max(largestFinite, scale);
      if (asserted) for (const p of problems.slice(0, 5)) failures.push(failure(cell, 'numeric', `vectors scaled by ${scale}: ${p}`));
    }
    figures.largestConsistentScale = largestFinite;
    return { figures, failures, notes: [`scales ${PROBED_SCALES.join(', ')} are probed and reported, not asserted`] };
  },
};
