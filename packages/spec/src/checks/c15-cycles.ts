import type { Failure } from '../comparator';
import type { Figure } from '../conformance/result';
import type { DurabilityFigures, FaultTarget } from '../durability';

/**
 * Client limits of C15's writers (memories and history parts): a write never hangs on a dead server.
 * Connect 20 s, not 5 s: C15 connects only to a server that is up (before a kill, after a restart),
 * so the limit only bounds a hang, and at load average 6–13 on 2 cores (a default matrix beside
 * another one and a `pnpm test`) a 5 s connect of redis@8.0.6 ended "Connection is closed" and
 * stopped C15 with BACKEND_ERROR although the server was up. Used × the host factor (host.ts).
 */
export const C15_WRITER_TIMEOUTS = { connectMs: 20_000, queryMs: 30_000 };
/**
 * Client limits of the reader that audits after a restart (the server is up again, so the limit
 * only bounds a hang): a get after the restart ran past 30 s on a restarted embedded store
 * process under load average ~10-20 (lancedb@0.37 in 1 of 20 runs of the embedded profile,
 * sqlite@3.53-vec0.1.9 in one default matrix, while other runs shared the 2 cores), failing C15
 * with "no answer from the store process within 30000 ms" although nothing was lost. Used × the
 * host factor (host.ts).
 */
export const C15_AUDIT_TIMEOUTS = { connectMs: 20_000, queryMs: 120_000 };

/**
 * The kill a part's writers ask for. `issued` is called the moment the real kill -9 starts (the
 * writers record their acknowledged count then); resolves once the kill has landed.
 */
export type SharedKill = (issued: () => void) => Promise<void>;

/** What one part of C15 (memories, chat history) ends with: its durability row and the rest. */
export interface PartOutcome {
  figures: DurabilityFigures;
  /** `durability/<row>/…` figures beyond the row (restartMsMax, lostWithinMsOfKill, …). */
  extra: Record<string, Figure>;
  failures: Failure[];
  notes: string[];
}

/**
 * One part of C15 on one fault instance: what it writes and how it audits. The cycle loop
 * (`runKillCycles`) calls, in order: `setup` (once), then per cycle `beforeCycle`, `stream` (every
 * part's writers at once, one kill for all), one restart, `audit`; `finish` once at the end.
 * Every method throws what the adapter or the fault target throws (BACKEND_ERROR, TARGET_UNAVAILABLE).
 */
export interface DurabilityPart {
  /**
   * Set-up on the fresh instance (create the collection). True when it must become durable by a
   * clean shutdown and start before the first kill (the loop then does one for every part).
   */
  setup(): Promise<boolean>;
  /** Before cycle `cycle` (1-based; cycle 1 also runs right after the set-up restart). */
  beforeCycle(cycle: number): Promise<void>;
  /** Stream acknowledged writes until `kill` has landed (the writers ask for it mid-stream). */
  stream(cycle: number, kill: SharedKill): Promise<void>;
  /** Audit everything written so far after the restart of `cycle`, which took `restartMs`. */
  audit(cycle: number, restartMs: number): Promise<void>;
  finish(): PartOutcome;
}

/** Where the time of one configuration went, ms (summed over its cycles). */
export interface CyclePhases {
  setupMs: number;
  streamMs: number;
  restartMs: number;
  auditMs: number;
}

/**
 * `cycles` kill cycles on `ft` shared by every part: the parts' writers stream at the same time,
 * ONE kill -9 lands once every part has asked for it (so it is mid-stream for each: a part's
 * writers keep writing while they wait), ONE restart, then each part audits on its own. A kill
 * cycle costs a restart (1–8 s measured on the loaded CI host, redis@8.0 and pgvector@pg17, in
 * the notes' `restart … ms`), so parts that share an instance share the cycle instead of paying
 * one each; what each part writes, how many cycles it sees and how it is audited are unchanged.
 * Resolves with the phase times; rejects with the first error of a part or of the fault target.
 */
export async function runKillCycles(ft: FaultTarget, parts: DurabilityPart[], cycles: number): Promise<CyclePhases> {
  const phases: CyclePhases = { setupMs: 0, streamMs: 0, restartMs: 0, auditMs: 0 };
  let t = performance.now();
  const lap = (k: keyof CyclePhases): void => {
    const now = performance.now();
    phases[k] += now - t;
    t = now;
  };
  const needsRestart = (await Promise.all(parts.map((p) => p.setup()))).some(Boolean);
  if (needsRestart) {
    await ft.shutdown();
    await ft.restart();
  }
  lap('setupMs');
  for (let cycle = 1; cycle <= cycles; cycle++) {
    for (const p of parts) await p.beforeCycle(cycle);
    lap('setupMs');
    const kill = killBarrier(parts.length, () => ft.kill());
    await Promise.all(parts.map((p) => p.stream(cycle, kill)));
    lap('streamMs');
    const { restartMs } = await ft.restart();
    lap('restartMs');
    for (const p of parts) await p.audit(cycle, restartMs);
    lap('auditMs');
  }
  return phases;
}

/**
 * A kill shared by `n` callers: the real `kill` starts when the n-th caller asks for it, every
 * caller's `issued` is called then, and every caller's promise resolves when it has landed (or
 * rejects with its error).
 */
export function killBarrier(n: number, kill: () => Promise<void>): SharedKill {
  const waiting: Array<() => void> = [];
  let release!: (p: Promise<void>) => void;
  const landed = new Promise<void>((r) => (release = r));
  return async (issued) => {
    waiting.push(issued);
    if (waiting.length === n) {
      waiting.forEach((f) => f());
      release(kill());
    }
    await landed;
  };
}
