import { MemoryMatrixError } from '@memory-matrix/spec';
import type { JournalConfig } from '../connection';

/**
 * The journal configuration of a catalog durability configuration's `settings` (matrix/targets.yaml,
 * target `sqlite@…`): `journal_mode` (`WAL` | `DELETE`) and `synchronous` (`NORMAL` | `FULL`), the
 * PRAGMA names and values SQLite documents ("PRAGMA journal_mode", "PRAGMA synchronous"); absent =
 * the adapter's defaults (WAL, NORMAL). Throws INVALID_INPUT naming the key for anything else.
 */
export function journalOfSettings(settings: Record<string, string>, where: string): JournalConfig {
  const out: JournalConfig = {};
  for (const [k, v] of Object.entries(settings)) {
    const value = v.toUpperCase();
    if (k === 'journal_mode' && (value === 'WAL' || value === 'DELETE')) out.journalMode = value;
    else if (k === 'synchronous' && (value === 'NORMAL' || value === 'FULL')) out.synchronous = value;
    else throw new MemoryMatrixError('INVALID_INPUT', `${where}: durability setting ${k}: ${JSON.stringify(v)} is not supported (journal_mode: WAL | DELETE, synchronous: NORMAL | FULL)`);
  }
  return out;
}
