import type { FilterJson } from '../filter-lang/types';
import type { MemoryRecord } from '../types';

/** The id of the derivation below; a filter set records it, so a changed derivation is a different set. */
export const FILTER_DERIVATION = 'filter-fields-v1';

/** The metadata keys `deriveFilterFields` adds; none of them is a key of agent-memories' own metadata. */
export const DERIVED_FILTER_KEYS = ['words', 'stance', 'src', 'labels', 'scores'] as const;

/**
 * Metadata shapes the golden memories lack (null, nested objects, arrays), derived
 * DETERMINISTICALLY from each memory's real fields — no random values — so the filter set can test
 * every type (golden-data/FORMAT.md "Filter sets" documents the same rules):
 * - `words` (number): the number of whitespace-separated words of `text`;
 * - `stance` (string | null | absent): metadata `polarity` when the memory has one (preferences,
 *   `""` included); `null` for an `episode` (an episode records no stance); absent otherwise;
 * - `src` (nested object): `{ corpus, doc: { year?, chapter?, speaker } }` from metadata `corpus`,
 *   `year`, `chapter` and `speaker`, with `speaker: null` where the memory has none (Moby-Dick);
 * - `labels` (array of strings): metadata `tag` when not `""`, then `lang`, then `kind`, then
 *   `"pinned"` when metadata `pinned` is true;
 * - `scores` (array of numbers): metadata `importance`, then `confidence` when present.
 * The memory's own metadata keys are kept unchanged; the derived keys are added after them.
 * Pure; `record.metadata` is not modified.
 */
export function deriveFilterFields(record: Pick<MemoryRecord, 'text' | 'kind' | 'metadata'>): Record<string, FilterJson> {
  const m = record.metadata;
  const out: Record<string, FilterJson> = {};
  out.words = record.text
    .trim()
    .split(/\s+/u)
    .filter((w) => w !== '').length;
  if (Object.prototype.hasOwnProperty.call(m, 'polarity')) out.stance = m.polarity!;
  else if (record.kind === 'episode') out.stance = null;
  const doc: Record<string, FilterJson> = {};
  if (typeof m.year === 'number') doc.year = m.year;
  if (typeof m.chapter === 'number') doc.chapter = m.chapter;
  doc.speaker = typeof m.speaker === 'string' ? m.speaker : null;
  out.src = { corpus: typeof m.corpus === 'string' ? m.corpus : null, doc };
  const labels: string[] = [];
  if (typeof m.tag === 'string' && m.tag !== '') labels.push(m.tag);
  if (typeof m.lang === 'string') labels.push(m.lang);
  labels.push(record.kind);
  if (m.pinned === true) labels.push('pinned');
  out.labels = labels;
  const scores: number[] = [];
  if (typeof m.importance === 'number') scores.push(m.importance);
  if (typeof m.confidence === 'number') scores.push(m.confidence);
  out.scores = scores;
  return out;
}

/** The record's metadata with the derived keys added (`deriveFilterFields`): what the filter set is evaluated against. */
export function filterSetMetadata(record: Pick<MemoryRecord, 'text' | 'kind' | 'metadata'>): Record<string, FilterJson> {
  return { ...record.metadata, ...deriveFilterFields(record) };
}
