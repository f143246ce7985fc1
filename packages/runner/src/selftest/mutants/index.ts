import { MemoryMatrixError } from '@memory-matrix/spec';
import { BATCH_MUTANTS } from './batch';
import { DECAY_MUTANTS } from './decay';
import { DELETE_MUTANTS } from './delete';
import { DELETE_FILTER_MUTANTS } from './delete-filter';
import { FILTER_MUTANTS } from './filter';
import { FILTER_WHERE_MUTANTS } from './filter-where';
import { GET_ORDER_MUTANTS } from './get-order';
import { HISTORY_MUTANTS } from './history';
import { LOCAL_TIME_MUTANTS } from './local-time';
import { METADATA_MUTANTS } from './metadata';
import { NAMESPACE_MUTANTS } from './namespace';
import type { Mutant } from './proxy';
import { RESULT_COUNT_MUTANTS } from './result-count';
import { SCORE_MUTANTS } from './scores';
import { THRESHOLD_MUTANTS } from './threshold';
import { TIE_MUTANTS } from './ties';
import { UPSERT_MUTANTS } from './upsert';
import { VECTOR_MUTANTS } from './vectors';
import { VISIBILITY_MUTANTS } from './visibility';
import { WRITE_ERROR_MUTANTS } from './write-errors';

export { faultCollection, faultStore, type ContractFault, type Mutant } from './proxy';

/** Every mutant of `memory-matrix selftest`, in report order (family by family). */
export const MUTANTS: readonly Mutant[] = [
  ...SCORE_MUTANTS,
  ...FILTER_MUTANTS,
  ...FILTER_WHERE_MUTANTS,
  ...RESULT_COUNT_MUTANTS,
  ...BATCH_MUTANTS,
  ...TIE_MUTANTS,
  ...WRITE_ERROR_MUTANTS,
  ...THRESHOLD_MUTANTS,
  ...UPSERT_MUTANTS,
  ...METADATA_MUTANTS,
  ...NAMESPACE_MUTANTS,
  ...VECTOR_MUTANTS,
  ...DECAY_MUTANTS,
  ...LOCAL_TIME_MUTANTS,
  ...HISTORY_MUTANTS,
  ...GET_ORDER_MUTANTS,
  ...VISIBILITY_MUTANTS,
  ...DELETE_MUTANTS,
  ...DELETE_FILTER_MUTANTS,
];

/**
 * The mutants `--mutant` names (all of them when `names` is empty), in `MUTANTS` order. Throws
 * USAGE naming the unknown names and listing the known ones.
 */
export function selectMutants(names: readonly string[]): Mutant[] {
  if (!names.length) return [...MUTANTS];
  const unknown = names.filter((n) => !MUTANTS.some((m) => m.name === n));
  if (unknown.length) throw new MemoryMatrixError('USAGE', `--mutant ${unknown.map((u) => JSON.stringify(u)).join(', ')}: no such mutant; mutants are ${MUTANTS.map((m) => m.name).join(', ')}`);
  return MUTANTS.filter((m) => names.includes(m.name));
}
