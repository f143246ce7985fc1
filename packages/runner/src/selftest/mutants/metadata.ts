import type { Metadata, MemoryRecord } from '@memory-matrix/spec';
import { needsCaps, type Mutant } from './proxy';

/** `metadata` without its keys whose value is `0`, `false` or `""` (null and every other value kept). */
export function dropFalsy(metadata: Metadata): Metadata {
  return Object.fromEntries(Object.entries(metadata).filter(([, v]) => !(v === 0 || v === false || v === '')));
}

/**
 * Falsy metadata lost. Public bug kind: "metadata fields with value 0 / false / empty string
 * disappear" — `if (value) row[key] = value`, `{k: v for k, v in m.items() if v}`, or a client
 * that treats falsy values as absent when serialising. Keys with `0`, `false` or `""` are dropped
 * on write (upsert); `null` and truthy values are kept.
 */
export const falsyMetadataLost: Mutant = {
  name: 'falsy-metadata-lost',
  family: 'metadata',
  bug: 'metadata keys whose value is 0, false or "" are not stored',
  requires: needsCaps('vectors'),
  fault: () => ({
    collection: (inner) => ({
      upsert: (records) => inner.upsert(records.map((r: MemoryRecord) => ({ ...r, metadata: dropFalsy(r.metadata) }))),
    }),
  }),
};

export const METADATA_MUTANTS: readonly Mutant[] = [falsyMetadataLost];
