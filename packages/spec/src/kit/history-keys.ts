// Storage keys of a chat session kept as rows (issue 33 kit): the sqlite and lancedb history
// adapters each listed `<prefix><session>#<turn>` and `<prefix><session>@<snapshot>` this way.
import type { HistoryKey } from '../history';

/**
 * The `HistoryKey`s of a session stored as table rows without expiry: `<base>#<turn>` for each
 * turn label and `<base>@<snapshot>` for each snapshot id, sorted by key (UTF-16 code units,
 * `Array.prototype.sort`), each with `ttlMs: null` (rows never expire). `base` is
 * `<keyPrefix><sessionId>`; turn labels are given as the adapter spells them (zero-padded or not).
 * Pure; no error.
 */
export function rowHistoryKeys(base: string, turns: readonly (string | number)[], snapshots: readonly string[]): HistoryKey[] {
  const keys = [...turns.map((t) => `${base}#${t}`), ...snapshots.map((s) => `${base}@${s}`)];
  return keys.sort().map((key) => ({ key, ttlMs: null }));
}
