import { MAX_SCAN_LIMIT, MemoryMatrixError, scanAll, type MemoryRecord } from '@memory-matrix/spec';
import { verifyRecall } from './verify-recall';
import { verifyRecords } from './verify-records';
import type { MigrateOptions, MigrationResult } from './types';

/**
 * The migration gate on live stores: export every memory of A's collection by `scan` (the real
 * store, not the golden files), import it into a new collection on B in batches of B's max batch,
 * build B's index, then verify from a NEW client on B against A's export:
 * count, ids, text, metadata, timestamps, namespace/kind, vectors (verify-records.ts) and recall /
 * ordering equivalence over `queries` (verify-recall.ts). Failures name the row or the query.
 * `transform` (test hook) changes records on their way into B; the ids it changed are reported.
 * Throws (the migration could not be carried out): CAPABILITY_MISSING (A without scan, B without
 * A's metric or without vectors), INVALID_INPUT (page size), and what the stores throw.
 * A verification failure is a result with `passed: false`, never a throw.
 */
export async function migrateCollection(opts: MigrateOptions): Promise<MigrationResult> {
  const { source: A, destination: B } = opts;
  const log = opts.log ?? (() => undefined);
  const pageSize = opts.pageSize ?? 1000;
  if (!Number.isInteger(pageSize) || pageSize < 1 || pageSize > MAX_SCAN_LIMIT) throw new MemoryMatrixError('INVALID_INPUT', `migrate: page size must be 1..${MAX_SCAN_LIMIT}, got ${pageSize}`);
  const spec = A.collection.spec;
  if (!B.capabilities.vectors || !B.capabilities.metrics.includes(spec.metric)) {
    throw new MemoryMatrixError(
      'CAPABILITY_MISSING',
      `migrate: ${B.target} cannot hold ${A.target}'s collection ${spec.name} (metric ${spec.metric}; ${B.target} offers ${B.capabilities.vectors ? B.capabilities.metrics.join(', ') || 'no metric' : 'no vectors'})`,
    );
  }
  const batchSize = opts.batchSize ?? B.capabilities.maxBatch ?? 1000;

  // 1. export A
  let t = performance.now();
  const exported = await scanAll(A.collection, pageSize, `migrate: export from ${A.target} collection ${spec.name}`, (n) => opts.progress?.('export', n, n));
  const exportMs = performance.now() - t;
  log(`exported ${exported.records.length} memories from ${A.target} in ${exported.pages} scan page(s) of ≤ ${pageSize} (${Math.round(exportMs)} ms)`);

  // 2. import into B
  t = performance.now();
  const target = await B.store.createCollection({ name: B.collectionName, dim: spec.dim, metric: spec.metric, index: B.index, embeddingModel: spec.embeddingModel });
  const transformed: string[] = [];
  let batches = 0;
  for (let i = 0; i < exported.records.length; i += batchSize) {
    let batch: MemoryRecord[] = exported.records.slice(i, i + batchSize);
    if (opts.transform) {
      batch = batch.map((r) => {
        const out = opts.transform!(r);
        if (out !== r) transformed.push(r.id);
        return out;
      });
    }
    await target.upsert(batch);
    batches++;
    opts.progress?.('import', Math.min(i + batchSize, exported.records.length), exported.records.length);
  }
  const importMs = performance.now() - t;
  t = performance.now();
  await target.buildIndex();
  const indexMs = performance.now() - t;
  log(`imported into ${B.target} collection ${B.collectionName} in ${batches} batch(es) of ≤ ${batchSize} (${Math.round(importMs)} ms), index ${Math.round(indexMs)} ms`);

  // 3. read B back from a new client and compare with A's export
  t = performance.now();
  const reader = await B.reopen(B.collectionName);
  const back = await scanAll(reader, pageSize, `migrate: read-back from ${B.target} collection ${B.collectionName}`, (n) => opts.progress?.('read-back', n, exported.records.length));
  const countB = await reader.count();
  const readMs = performance.now() - t;
  const quantizedSides = [A, B].filter((s) => s.capabilities.quantized).map((s) => s.target);
  const vectorNote = quantizedSides.length
    ? [
        `${quantizedSides.join(' and ')} quantize${quantizedSides.length > 1 ? '' : 's'} the vectors its index searches (int8), but its adapter keeps and scans the float32 as written beside them, so vectors are compared ${opts.vectors?.mode === 'cosine' ? 'within the quantization bound' : 'bit-exact'}; the quantization shows in the recall check's score tolerance`,
      ]
    : [];
  const checks = verifyRecords(exported.records, back.records, countB, opts.vectors ?? { mode: 'bit-exact' }, vectorNote);

  // 4. recall and ordering equivalence
  t = performance.now();
  const modeOf = (caps: typeof A.capabilities): 'exact' | 'index' => (caps.exactScan ? 'exact' : 'index');
  checks.push(
    await verifyRecall(
      { target: A.target, collection: A.collection, mode: modeOf(A.capabilities), tolerances: A.tolerances },
      { target: B.target, collection: reader, mode: modeOf(B.capabilities), tolerances: B.tolerances },
      opts.queries,
      exported.records,
      { dim: spec.dim, metric: spec.metric, dataset: opts.dataset },
      (done, total) => opts.progress?.('recall', done, total),
    ),
  );
  const recallMs = performance.now() - t;
  return {
    from: { target: A.target, collection: spec.name, quantized: A.capabilities.quantized, exactScan: A.capabilities.exactScan, recallMode: modeOf(A.capabilities) },
    to: { target: B.target, collection: B.collectionName, quantized: B.capabilities.quantized, exactScan: B.capabilities.exactScan, recallMode: modeOf(B.capabilities) },
    export: { records: exported.records.length, pages: exported.pages, pageSize, ms: exportMs },
    import: { records: exported.records.length, batches, batchSize, ms: importMs, indexMs },
    readBack: { records: back.records.length, pages: back.pages, ms: readMs },
    recall: { queries: opts.queries.length, ms: recallMs },
    transformed,
    checks,
    passed: checks.every((c) => c.status === 'pass'),
  };
}
