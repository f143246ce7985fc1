import { CHECKS } from '@memory-matrix/spec';
import { z } from 'zod';

/**
 * A catalog field naming a check by id (`C03`, any case) or name (`topk-exact`), normalised to its
 * id. An unknown check is a schema issue naming the value and the range of ids (the catalog loader
 * turns it into USAGE with the file, line and path, exit 2).
 */
export const checkRef = z
  .string()
  .refine(
    (ref) => CHECKS.some((c) => c.id === ref.toUpperCase() || c.name === ref),
    (ref) => ({ message: `unknown check ${JSON.stringify(ref)} (checks are ${CHECKS[0]!.id}–${CHECKS[CHECKS.length - 1]!.id}, by id or name)` }),
  )
  .transform((ref) => CHECKS.find((c) => c.id === ref.toUpperCase() || c.name === ref)!.id);
