import type { CheckResult } from '@memory-matrix/spec';
import type { CellReport } from '../src/report/model';

/**
 * A cell of a report as the runner records it for a target that ran (`status: 'ran'`, no versions,
 * no timings, index `none`): `backend` is the part of `target` before `@`, the provider `embedded`;
 * `extra` overrides any field.
 */
export function cellReport(target: string, checks: CheckResult[], extra: Partial<CellReport> = {}): CellReport {
  return {
    target,
    backend: target.split('@')[0]!,
    provider: 'embedded',
    serverVersion: null,
    components: {},
    image: null,
    imageId: null,
    index: { type: 'none' },
    tolerances: {},
    timings: { startMs: null, loadMs: null, indexMs: null },
    status: 'ran',
    checks,
    ...extra,
  };
}

/** A check result of check `id` (name `check-<id>`) with `status`, no figures, failures or notes, 1 ms; `extra` overrides any field. */
export function checkResult(id: string, status: CheckResult['status'], extra: Partial<CheckResult> = {}): CheckResult {
  return { id, name: `check-${id}`, status, figures: {}, failures: [], notes: [], durationMs: 1, ...extra };
}
