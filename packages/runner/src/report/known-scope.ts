import type { Failure, KnownFailureMatch, KnownFailureScope } from '@memory-matrix/spec';

/** Where one failure stands against one scope item: inside (the values it matched), or the items it breaks. */
export type ScopeFit = { inside: true; scope: KnownFailureMatch['scope'] } | { inside: false; breaks: string[] };

const list = (xs: readonly unknown[]): string => `[${xs.join(', ')}]`;

/**
 * Whether `f` is inside scope item `s` (spec `KnownFailureScope`: every field holds; a field the
 * failure lacks breaks any item that restricts it). Inside: the failure's values of what the item
 * restricts and of its bounds (`absScoreDelta`, `defectResidual`, `recall`: the failure's
 * `recallWithoutThreshold` when it records one, else `actual`), for report.json's
 * `knownFailure.matched`. Outside: one phrase per broken field, e.g. `scan exact not in [index]`,
 * `metric (none recorded) not in [cosine]`, `|actual − (2 × expected − 1)| 3.1e-1 > 1e-2`. Pure.
 */
export function fitScope(f: Failure, s: KnownFailureScope): ScopeFit {
  const breaks: string[] = [];
  const scope: KnownFailureMatch['scope'] = { kind: f.kind };
  const member = (name: 'metric' | 'scan', value: string | undefined, allowed: readonly string[] | 'any'): void => {
    if (allowed === 'any') return;
    if (value !== undefined && allowed.includes(value)) scope[name] = value;
    else breaks.push(`${name} ${value ?? '(none recorded)'} not in ${list(allowed)}`);
  };
  const flag = (name: 'filtered' | 'threshold', value: boolean | undefined, want: boolean | 'any' | undefined): void => {
    if (want === undefined || want === 'any') return;
    if (value === want) scope[name] = value;
    else breaks.push(`${name} ${value ?? '(none recorded)'}, the scope says ${want}`);
  };
  if (s.kinds !== 'any' && !s.kinds.includes(f.kind)) breaks.push(`kind ${f.kind} not in ${list(s.kinds)}`);
  member('metric', f.metric, s.metrics);
  member('scan', f.scan, s.scan);
  flag('filtered', f.filtered, s.filtered);
  flag('threshold', f.threshold, s.threshold);
  if (s.filterCases !== undefined) {
    if (f.filterCase !== undefined && s.filterCases.includes(f.filterCase)) scope.filterCase = f.filterCase;
    else breaks.push(`filter case ${f.filterCase ?? '(none recorded)'} not in ${list(s.filterCases)}`);
  }
  const expected = typeof f.expected === 'number' && Number.isFinite(f.expected) ? f.expected : undefined;
  const actual = typeof f.actual === 'number' && Number.isFinite(f.actual) ? f.actual : undefined;
  if (f.kind === 'score' && (s.maxAbsScoreDelta !== undefined || s.scoreDefect !== undefined)) {
    if (expected === undefined || actual === undefined) breaks.push('a score bound is set and the failure has no finite expected and actual score');
    else {
      const delta = Math.abs(actual - expected);
      if (s.maxAbsScoreDelta !== undefined) {
        if (delta <= s.maxAbsScoreDelta) scope.absScoreDelta = delta;
        else breaks.push(`|actual − expected| ${delta.toExponential(2)} > maxAbsScoreDelta ${s.maxAbsScoreDelta}`);
      }
      if (s.scoreDefect) {
        const { scale, offset, within } = s.scoreDefect;
        const residual = Math.abs(actual - (scale * expected + offset));
        if (residual <= within) scope.defectResidual = residual;
        else breaks.push(`|actual − (${scale} × expected ${offset < 0 ? '−' : '+'} ${Math.abs(offset)})| ${residual.toExponential(2)} > within ${within} (not the documented defect)`);
      }
    }
  }
  if (f.kind === 'recall' && s.minRecall !== undefined) {
    // C05's mean over every query records the mean over those without minScore: that is what the bound judges.
    const plain = typeof f.recallWithoutThreshold === 'number' && Number.isFinite(f.recallWithoutThreshold) ? f.recallWithoutThreshold : undefined;
    const recall = plain ?? actual;
    const what = plain === undefined ? 'recall' : 'recall without minScore';
    if (recall !== undefined && recall >= s.minRecall) scope.recall = recall;
    else breaks.push(`${what} ${recall ?? '(none recorded)'} < minRecall ${s.minRecall}`);
  }
  return breaks.length ? { inside: false, breaks } : { inside: true, scope };
}

/** One line describing scope item `s` for messages: `kinds [score] · metrics [cosine] · scan [index] · filtered any · scoreDefect 2 × expected − 1 ± 0.01`. */
export function describeScope(s: KnownFailureScope): string {
  const v = (x: readonly unknown[] | boolean | 'any' | undefined): string => (x === undefined ? 'any' : Array.isArray(x) ? list(x) : String(x));
  const parts = [`kinds ${v(s.kinds)}`, `metrics ${v(s.metrics)}`, `scan ${v(s.scan)}`, `filtered ${v(s.filtered)}`];
  if (s.threshold !== undefined && s.threshold !== 'any') parts.push(`threshold ${s.threshold}`);
  if (s.maxAbsScoreDelta !== undefined) parts.push(`maxAbsScoreDelta ${s.maxAbsScoreDelta}`);
  if (s.scoreDefect) parts.push(`scoreDefect ${s.scoreDefect.scale} × expected ${s.scoreDefect.offset < 0 ? '−' : '+'} ${Math.abs(s.scoreDefect.offset)} ± ${s.scoreDefect.within}`);
  if (s.minRecall !== undefined) parts.push(`minRecall ${s.minRecall}`);
  if (s.maxFailures !== undefined) parts.push(`maxFailures ${s.maxFailures}`);
  if (s.filterCases !== undefined) parts.push(`filterCases ${list(s.filterCases)}`);
  return parts.join(' · ');
}
