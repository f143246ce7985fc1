import { listDrivers } from '@memory-matrix/targets';
import type { SampleDriver } from './find-source';

/** Every registered driver, in registry order; `findSampleSource` keeps those with a `sampleSource`. */
export function sampleDrivers(): readonly SampleDriver[] {
  return listDrivers();
}
