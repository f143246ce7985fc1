import { z } from 'zod';
import { checkRef } from './check-ref';

const ANY = z.literal('any');
const kebab = z.string().regex(/^[a-z0-9]+(-[a-z0-9]+)*$/, 'a failure kind is kebab-case, as report.json names it (e.g. durability-partial)');
const finite = z.number().finite();

/**
 * One scope item of a `knownFailures` entry (spec `KnownFailureScope`), strict: the failures the
 * documented defect produces. `kinds`, `metrics`, `scan` and `filtered` are required (a list, or
 * `any` stated on purpose); `threshold` defaults to `any`. Optional bounds on the failure's figure:
 * `maxAbsScoreDelta` (|actual − expected| of a `score` failure), `scoreDefect` (the documented
 * wrong formula: actual = scale × expected + offset, ± within), `minRecall` (a `recall` failure's
 * recall ≥ it; C05's mean failure is judged by its mean over the queries without minScore),
 * `maxFailures` (the item absorbs at most this many failures of one check result; the rest are
 * outside it: a defect that shows on a few queries per run, not on every query), `filterCases`
 * (C31: only failures of these golden filter-set cases, by name).
 */
export const knownFailureScopeSchema = z
  .object({
    kinds: z.union([ANY, z.array(kebab).min(1)], { required_error: 'state the failure kinds the defect produces (a list, or any)' }),
    metrics: z.union([ANY, z.array(z.enum(['cosine', 'ip', 'l2'])).min(1)], { required_error: 'state the metrics the defect shows on (cosine, ip, l2; or any)' }),
    scan: z.union([ANY, z.array(z.enum(['exact', 'index'])).min(1)], { required_error: 'state the scan paths the defect shows on (exact, index; or any)' }),
    filtered: z.union([ANY, z.boolean()], { required_error: 'state whether the scope covers filtered queries (true: only filtered, false: only unfiltered, any)' }),
    threshold: z.union([ANY, z.boolean()]).optional(),
    maxAbsScoreDelta: finite.positive().optional(),
    scoreDefect: z.object({ scale: finite, offset: finite, within: finite.positive() }).strict().optional(),
    minRecall: finite.min(0).max(1).optional(),
    maxFailures: z.number().int().positive().optional(),
    filterCases: z.array(z.string().trim().min(1)).min(1).optional(),
  })
  .strict()
  .superRefine((s, ctx) => {
    const bounds = { maxAbsScoreDelta: 'score', scoreDefect: 'score', minRecall: 'recall' } as const;
    for (const [key, kind] of Object.entries(bounds) as Array<[keyof typeof bounds, string]>) {
      if (s[key] !== undefined && s.kinds !== 'any' && !s.kinds.includes(kind)) {
        ctx.addIssue({ code: z.ZodIssueCode.custom, path: [key], message: `${key} bounds ${kind} failures, and this scope item does not list kind ${kind}` });
      }
    }
  });

/**
 * One `knownFailures` entry of a catalog target (spec `KnownFailureEntry`), strict: `check` an
 * existing check (id or name, normalised to the id), `reason` what fails and why, `link` the
 * upstream issue or fix (an http(s) URL), `scope` one or more `knownFailureScopeSchema` items (what
 * it absorbs: a failure outside every item fails as usual), `intermittent` the failure does not
 * show in every run (a pass is then "not reproduced this run", not stale). Entries without a scope
 * are refused (the catalog loader names file:line).
 */
export const knownFailureSchema = z
  .object({
    check: checkRef,
    reason: z.string().trim().min(1, 'give the reason: what fails upstream and why'),
    link: z
      .string()
      .url()
      .refine((u) => /^https?:\/\//.test(u), 'link must be an http(s) URL of the upstream issue or fix'),
    scope: z.array(knownFailureScopeSchema, { required_error: 'give the scope: a list of items with kinds, metrics, scan and filtered (docs/known-failures.md)' }).min(1),
    intermittent: z.boolean().optional(),
  })
  .strict();

/** A target's `knownFailures`: at most one entry per check (a second one for the same check is a schema issue at that entry). */
export const knownFailuresSchema = z.array(knownFailureSchema).superRefine((entries, ctx) => {
  const seen = new Set<string>();
  entries.forEach((e, i) => {
    if (seen.has(e.check)) ctx.addIssue({ code: z.ZodIssueCode.custom, path: [i, 'check'], message: `check ${e.check} is listed twice; give one entry per check (with every scope item it covers)` });
    seen.add(e.check);
  });
});
