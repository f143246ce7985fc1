import type { CheckDefinition } from '../checks/check';
import type { LiveCell } from './cell';
import type { CheckResult } from './result';
import { describeLimit, hostCalibration } from '../host';
import { armLimitTimer } from '../timer';

/**
 * How long the liveness probe waits for the store, ms. A healthy store answers a new client's
 * `serverInfo` and a `count` in milliseconds (a container server on the loaded 2-core machine:
 * well under a second); 30 s leaves a margin for a store still busy with the work of the check
 * that timed out, while a hung server costs 30 s once instead of every remaining check's limit.
 */
export const LIVENESS_LIMIT_MS = 30_000;

/**
 * Whether the cell's store still answers: a NEW client (`cell.connect`), its `serverInfo()`, and,
 * once the shared golden collection exists, `openCollection` + `count()` of it — all within
 * `baseLimitMs` × the host factor (host.ts). Returns null when it answered, else what went wrong as a phrase ("did not answer
 * serverInfo within 30000 ms", "count of the golden collection failed: BACKEND_ERROR: …").
 * Never throws.
 */
export async function probeLiveness(cell: LiveCell, baseLimitMs = LIVENESS_LIMIT_MS): Promise<string | null> {
  const factor = hostCalibration().factor; // a loaded host stretches the limit (host.ts)
  const limitMs = Math.round(baseLimitMs * factor);
  let step = 'a new client';
  const probe = (async () => {
    const store = await cell.connect();
    step = 'serverInfo';
    await store.serverInfo();
    const golden = cell.goldenCollectionName;
    if (golden !== undefined) {
      step = 'count of the golden collection';
      await (await store.openCollection(golden)).count();
    }
    return null;
  })();
  let timer: NodeJS.Timeout | undefined;
  const limit = new Promise<string>((resolve) => {
    timer = armLimitTimer(() => resolve(`did not answer ${step} within ${describeLimit(baseLimitMs, factor)}`), limitMs, { ref: true });
  });
  try {
    return await Promise.race([
      probe.catch((e: unknown) => {
        const err = e as { code?: unknown; message?: unknown };
        const first = String(err?.message ?? e).split('\n')[0];
        return `${step} failed: ${typeof err?.code === 'string' ? `${err.code}: ` : ''}${first}`;
      }),
      limit,
    ]);
  } finally {
    clearTimeout(timer);
    probe.catch(() => undefined); // a probe past its limit may still reject later: not an unhandled rejection
  }
}

/** What ended a check that calls for a liveness probe: it errored, or it never returned (its time limit stopped it). */
type Ending = { kind: 'error'; code?: string; message: string } | { kind: 'unsettled' };

/**
 * The liveness decision of one cell (issue 31, kind 9): after a check that threw or was stopped at
 * its time limit, the next check first probes the store (`probeLiveness`). When the store no longer
 * answers, that check and every later one of the cell are recorded not run with ONE cause — the
 * store stopped answering during <the check> — instead of a dozen failures of their own.
 * A check that failed with failures (a verdict) calls for no probe.
 */
export class CellLiveness {
  private running?: CheckDefinition;
  private last?: { check: CheckDefinition; ending?: Ending };
  private gone?: string;

  constructor(
    private readonly target: string,
    private readonly probe: () => Promise<string | null>,
  ) {}

  /**
   * Call before a check runs. Returns null when it may run, else the cause to record it with (the
   * same sentence for every later check once the store is judged gone).
   */
  async before(): Promise<string | null> {
    if (this.gone) return this.gone;
    const prev = this.running ? { check: this.running, ending: { kind: 'unsettled' } as Ending } : this.last;
    this.running = undefined;
    if (!prev?.ending) return null;
    const why = await this.probe();
    if (why === null) {
      this.last = undefined; // alive: one probe per suspicious ending
      return null;
    }
    const how = prev.ending.kind === 'unsettled' ? 'it did not finish within its time limit' : `it failed with ${prev.ending.code ?? 'an error'}: ${prev.ending.message.split('\n')[0]}`;
    this.gone = `not run: ${this.target} stopped answering during ${prev.check.id} ${prev.check.name} (${how}; a liveness probe ${why})`;
    return this.gone;
  }

  /** The check is about to run. */
  started(check: CheckDefinition): void {
    this.running = check;
  }

  /** The check returned its result (an error it threw included). */
  settled(check: CheckDefinition, result: CheckResult): void {
    this.running = undefined;
    this.last = { check, ...(result.error ? { ending: { kind: 'error', code: result.error.code, message: result.error.message } } : {}) };
  }
}

/** The report row of a check not run because the store stopped answering: failed, error code NOT_RUN, the one cause as message. */
export function notRunResult(check: CheckDefinition, cause: string): CheckResult {
  return { id: check.id, name: check.name, status: 'failed', figures: {}, failures: [], notes: [], durationMs: 0, error: { code: 'NOT_RUN', message: cause } };
}
