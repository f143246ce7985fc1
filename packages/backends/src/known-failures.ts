import { z } from 'zod';
import { checkRef } from './check-ref';

/**
 * One `knownFailures` entry of a catalog target (spec `KnownFailureEntry`), strict: `check` an
 * existing check (id or name, normalised to the id), `reason` what fails and why, `link` the
 * upstream issue or fix (an http(s) URL), `kinds` the failure kinds it covers (kebab-case, as the
 * checks name them, e.g. `durability-partial`; every kind when absent), `intermittent` the failure
 * does not show in every run (a pass is then "not reproduced this run", not stale).
 */
export const knownFailureSchema = z
  .object({
    check: checkRef,
    reason: z.string().trim().min(1, 'give the reason: what fails upstream and why'),
    link: z
      .string()
      .url()
      .refine((u) => /^https?:\/\//.test(u), 'link must be an http(s) URL of the upstream issue or fix'),
    kinds: z
      .array(z.string().regex(/^[a-z0-9]+(-[a-z0-9]+)*$/, 'a failure kind is kebab-case, as report.json names it (e.g. durability-partial)'))
      .min(1)
      .optional(),
    intermittent: z.boolean().optional(),
  })
  .strict();

/** A target's `knownFailures`: at most one entry per check (a second one for the same check is a schema issue at that entry). */
export const knownFailuresSchema = z.array(knownFailureSchema).superRefine((entries, ctx) => {
  const seen = new Set<string>();
  entries.forEach((e, i) => {
    if (seen.has(e.check)) ctx.addIssue({ code: z.ZodIssueCode.custom, path: [i, 'check'], message: `check ${e.check} is listed twice; give one entry per check (with every kind it covers)` });
    seen.add(e.check);
  });
});
