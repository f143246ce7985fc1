/**
 * Which driver's sample source reads `sample --from`: `<driver>@url=<url>` names the driver, a
 * bare value goes to the first driver (in the given order) whose source accepts it. The drivers
 * come from the registry (today `sampleDrivers()` in drivers.ts); nothing here names a backend.
 */
import { MemoryMatrixError, type BackendDriver, type SampleSource } from '@memory-matrix/spec';

/** The part of a driver the lookup reads. */
export type SampleDriver = Pick<BackendDriver<never>, 'name' | 'sampleSource'>;

/** A source found for `--from`: the driver's name, its facet, and the URL to open (prefix removed). */
export interface FoundSampleSource {
  driver: string;
  source: SampleSource;
  url: string;
}

const DRIVER_URL = /^([a-z][a-z0-9-]*)@url=(.+)$/;

/** `user:pw@` → `user@`, for a `--from` or an example quoted in a message. */
const maskUserinfo = (s: string) => s.replace(/(\/\/[^:/@]+):[^@]*@/, '$1@');

/** `postgres://user:pw@host/db` → `postgres://…` (the `<driver>@url=` form in help and errors). */
const schemeOnly = (example: string) => example.replace(/\/\/.*$/, '//…');

const withSources = (drivers: readonly SampleDriver[]) => drivers.flatMap((d) => (d.sampleSource ? [{ name: d.name, source: d.sampleSource }] : []));

/** The accepted `--from` forms, per source `<example> or <driver>@url=<scheme>://…`, joined by `; ` (with `mask`: the example's password part removed). */
export function sampleFromForms(drivers: readonly SampleDriver[], mask = false): string {
  return withSources(drivers)
    .map(({ name, source }) => {
      const example = mask ? maskUserinfo(source.example) : source.example;
      return `${example} or ${name}@url=${schemeOnly(example)}`;
    })
    .join('; ');
}

/**
 * Find the sample source that reads `from`. Throws USAGE naming `--from` (password removed) and
 * the accepted forms when no driver's source accepts it (e.g. a URL of another scheme, a catalog
 * target, a driver without a sample source).
 */
export function findSampleSource(from: string, drivers: readonly SampleDriver[]): FoundSampleSource {
  const named = DRIVER_URL.exec(from);
  const url = named ? named[2]! : from;
  const hit = withSources(drivers).find(({ name, source }) => (!named || name === named[1]) && source.accepts(url));
  if (hit) return { driver: hit.name, source: hit.source, url };
  throw new MemoryMatrixError('USAGE', `--from ${maskUserinfo(from)}: expected ${sampleFromForms(drivers, true)} (the sampler reads an existing store; catalog targets start empty)`);
}
