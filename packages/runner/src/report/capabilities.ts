import { DEFAULT_CAPABILITIES, offersCapability } from '@memory-matrix/spec';
import type { CapabilityEntry, CapabilityMatrix, CellReport } from './types';

export type { CapabilityEntry, CapabilityMatrix };

/** The numeric limits: informational, ✓ with the figure (null = no limit). */
const LIMITS = ['maxBatch', 'maxDim', 'maxIndexDim'];

/** The capability names in the order of `DEFAULT_CAPABILITIES`, then the limits (`maxBatch`, `maxDim`, `maxIndexDim`). */
export const CAPABILITY_NAMES: string[] = [...Object.keys(DEFAULT_CAPABILITIES), ...LIMITS];

/**
 * Target × capability matrix of the cells that carry `capabilities`. A flag is ✓ when true, a
 * list when non-empty, a `readYourWrites` level when above `eventual` (spec `offersCapability`, the rule of `needs`); a number (`maxBatch`, `maxDim`, `maxIndexDim`) is informational
 * and always ✓ (null = no limit). A ✗ names the checks of this run that were skipped for that capability
 * (their `skipReason` is `capability: <name>`, or `capability: <name> (<value>)`), e.g. `skipped C03, C05 (capability: vectors)`,
 * else `not declared by the target`.
 */
export function capabilityMatrix(cells: readonly CellReport[]): CapabilityMatrix {
  const withCaps = cells.filter((c) => c.capabilities);
  // Names in DEFAULT_CAPABILITIES order, then any a target declares beyond them (e.g. a newer spec).
  const extra = withCaps.flatMap((c) => Object.keys(c.capabilities!)).filter((n) => !CAPABILITY_NAMES.includes(n));
  const names = [...CAPABILITY_NAMES, ...new Set(extra)];
  const targets = withCaps.map((cell) => {
    const caps = cell.capabilities as unknown as Record<string, unknown>;
    const entries: Record<string, CapabilityEntry> = {};
    for (const name of names) {
      const v = caps[name];
      if (LIMITS.includes(name) || typeof v === 'number') {
        entries[name] = { ok: true, value: typeof v === 'number' ? v : null };
        continue;
      }
      const value = Array.isArray(v) ? v.map(String) : typeof v === 'string' ? [v] : v === true;
      const ok = offersCapability(name, v);
      const entry: CapabilityEntry = { ok, value };
      if (!ok) {
        const skipped = cell.checks.filter((k) => k.status === 'skipped' && skippedFor(k.skipReason, name)).map((k) => k.id);
        entry.reason = skipped.length ? `skipped ${skipped.join(', ')} (capability: ${name})` : 'not declared by the target';
        if (skipped.length) entry.skippedChecks = skipped;
      }
      entries[name] = entry;
    }
    return { target: cell.target, entries };
  });
  return { capabilities: names, targets };
}

/** Whether a check's `skipReason` names capability `name`: `capability: <name>`, or with the value that does not offer it, `capability: readYourWrites (eventual)`. */
function skippedFor(skipReason: string | undefined, name: string): boolean {
  return skipReason === `capability: ${name}` || (skipReason ?? '').startsWith(`capability: ${name} (`);
}

/** `✓` / `✗`, with a list value shown as `✓ hnsw,ivfflat`, a number as `✓ 5461` and a level as `✓ strong` / `✗ eventual`. */
export function capabilityGlyph(e: CapabilityEntry): string {
  if (!e.ok) return Array.isArray(e.value) && e.value.length ? `✗ ${e.value.join(',')}` : '✗';
  if (Array.isArray(e.value)) return `✓ ${e.value.join(',')}`;
  if (typeof e.value === 'number') return `✓ ${e.value}`;
  if (e.value === null) return '✓ no limit';
  return '✓';
}

/**
 * One compact console line for a target's row: the ✓ names, then the ✗ names with the checks
 * skipped for them, e.g. `✓ vectors exactScan … ✗ history ttl vectors(skipped C02,C03)`.
 */
export function capabilityLine(row: CapabilityMatrix['targets'][number]): string {
  const names = Object.keys(row.entries).filter((n) => n !== 'maxBatch');
  const ok = names.filter((n) => row.entries[n]!.ok);
  const no = names.filter((n) => !row.entries[n]!.ok).map((n) => (row.entries[n]!.skippedChecks ? `${n}(skipped ${row.entries[n]!.skippedChecks!.join(',')})` : n));
  return `✓ ${ok.join(' ') || '–'}${no.length ? `  ✗ ${no.join(' ')}` : ''}`;
}
