/**
 * MERGE POINT — the drivers `sample` asks for a sample source. This is the one place in the runner
 * that names a backend, and only until the driver registry (packages/backends/src/registry.ts)
 * lands: then `sampleDrivers` becomes the registry's `listDrivers()` and this import goes away
 * (the pgvector driver object carries `sampleSource: pgvectorSampleSource` itself).
 */
import { pgvectorSampleSource } from '@memory-matrix/adapter-pgvector';
import type { SampleDriver } from './find-source';

/** Every driver, in registry order; `findSampleSource` keeps those with a `sampleSource`. */
export function sampleDrivers(): readonly SampleDriver[] {
  return [{ name: 'pgvector', sampleSource: pgvectorSampleSource }];
}
