/**
 * Redaction of personal details in memory text and metadata: e-mail addresses, card-like numbers,
 * phone numbers, street addresses and person names are replaced by typed placeholders
 * (`[EMAIL]`, `[CARD]`, `[PHONE]`, `[ADDRESS]`, `[NAME]`; see detectors.ts). Embeddings are never
 * touched. A `RedactionTally` counts, per category, what the strict detectors found before and
 * after, and what the independent loose pass finds before and after.
 */
import { CATEGORIES, LOOSE, PLACEHOLDER, STRICT, mergeSpans, type Category, type Span } from './detectors';

/** Per-category counts (numbers of detected spans). */
export type CategoryCounts = Record<Category, number>;

/** What redaction found and left, summed over every string it was given. */
export interface RedactionTally {
  /** strict detectors on the original strings */
  before: CategoryCounts;
  /** strict detectors on the redacted strings (0 unless a replacement created a new match) */
  after: CategoryCounts;
  /** loose pass on the original strings */
  looseBefore: CategoryCounts;
  /** loose pass on the redacted strings: an upper bound of what may remain */
  looseAfter: CategoryCounts;
  /** strings examined / strings changed */
  strings: number;
  changed: number;
}

const zero = (): CategoryCounts => ({ email: 0, card: 0, phone: 0, address: 0, name: 0 });

/** An empty tally. */
export function newTally(): RedactionTally {
  return { before: zero(), after: zero(), looseBefore: zero(), looseAfter: zero(), strings: 0, changed: 0 };
}

/** Count every category's detections in `text` (spans merged within a category). */
export function countDetections(text: string, detectors: typeof STRICT): CategoryCounts {
  const c = zero();
  for (const cat of CATEGORIES) c[cat] = mergeSpans(detectors[cat](text)).length;
  return c;
}

/**
 * Redact one string. All strict detectors run on the original text; overlapping detections are
 * joined: a span that overlaps the one before it extends it (so nothing detected survives
 * partially), and the joined span takes the placeholder of its first detection (earlier start,
 * then the longer span, then category order email, card, phone, address, name).
 * The result is redacted again (at most 3 passes in all) while that changes it.
 * When `tally` is given, the string's before/after counts are added to it.
 */
export function redactText(text: string, tally?: RedactionTally): string {
  // A replacement can bring a detail into a detector's reach (e.g. a second number after
  // "Phone: [PHONE], "): redact again until the strict detectors find nothing (at most 3 passes).
  let out = redactOnce(text);
  for (let pass = 1; pass < 3; pass += 1) {
    const again = redactOnce(out);
    if (again === out) break;
    out = again;
  }
  if (tally) {
    add(tally.before, countDetections(text, STRICT));
    add(tally.after, countDetections(out, STRICT));
    add(tally.looseBefore, countDetections(text, LOOSE));
    add(tally.looseAfter, countDetections(out, LOOSE));
    tally.strings += 1;
    if (out !== text) tally.changed += 1;
  }
  return out;
}

function redactOnce(text: string): string {
  const found: Array<{ span: Span; cat: Category; rank: number }> = [];
  CATEGORIES.forEach((cat, rank) => {
    for (const span of mergeSpans(STRICT[cat](text))) found.push({ span, cat, rank });
  });
  found.sort((a, b) => a.span[0] - b.span[0] || b.span[1] - a.span[1] || a.rank - b.rank);
  const kept: typeof found = [];
  for (const f of found) {
    const last = kept[kept.length - 1];
    if (last && f.span[0] < last.span[1]) last.span = [last.span[0], Math.max(last.span[1], f.span[1])];
    else kept.push({ ...f, span: [f.span[0], f.span[1]] });
  }
  let out = '';
  let at = 0;
  for (const k of kept) {
    out += text.slice(at, k.span[0]) + PLACEHOLDER[k.cat];
    at = k.span[1];
  }
  out += text.slice(at);
  return out;
}

/** Redact every string inside a JSON value (objects and arrays recursively; keys are kept). */
export function redactValue<T>(value: T, tally?: RedactionTally): T {
  if (typeof value === 'string') return redactText(value, tally) as T;
  if (Array.isArray(value)) return value.map((v) => redactValue(v, tally)) as T;
  if (value && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value as Record<string, unknown>).map(([k, v]) => [k, redactValue(v, tally)])) as T;
  }
  return value;
}

function add(into: CategoryCounts, c: CategoryCounts): void {
  for (const cat of CATEGORIES) into[cat] += c[cat];
}

/** One row of the redaction table. `fraction*` are `remaining / before` (0 when nothing was found before). */
export interface RedactionRow {
  category: Category;
  detected: number;
  remaining: number;
  fractionRemaining: number;
  looseBefore: number;
  looseRemaining: number;
  looseFractionRemaining: number;
}

/** The redaction table: one row per category plus an `all` total row (category "all"). */
export function redactionTable(t: RedactionTally): Array<Omit<RedactionRow, 'category'> & { category: Category | 'all' }> {
  const frac = (a: number, b: number) => (b === 0 ? 0 : Number((a / b).toFixed(6)));
  const rows = CATEGORIES.map((category) => ({
    category,
    detected: t.before[category],
    remaining: t.after[category],
    fractionRemaining: frac(t.after[category], t.before[category]),
    looseBefore: t.looseBefore[category],
    looseRemaining: t.looseAfter[category],
    looseFractionRemaining: frac(t.looseAfter[category], t.looseBefore[category]),
  }));
  const sum = (k: 'detected' | 'remaining' | 'looseBefore' | 'looseRemaining') => rows.reduce((s, r) => s + r[k], 0);
  return [
    ...rows,
    {
      category: 'all' as const,
      detected: sum('detected'),
      remaining: sum('remaining'),
      fractionRemaining: frac(sum('remaining'), sum('detected')),
      looseBefore: sum('looseBefore'),
      looseRemaining: sum('looseRemaining'),
      looseFractionRemaining: frac(sum('looseRemaining'), sum('looseBefore')),
    },
  ];
}
