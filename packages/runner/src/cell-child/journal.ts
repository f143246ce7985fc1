import { appendFileSync, readFileSync } from 'node:fs';
import type { CheckResult } from '@memory-matrix/spec';
import type { SuitePhase } from '../runtime';

/**
 * The journal of a child cell: what the child has reached so far, one JSON object a line, appended
 * synchronously (`appendFileSync`) as it happens — the step it starts (`phase`), what its backend
 * runs once started (`started`), every check result it records (`result`) — so that when the child
 * process dies (a native module's SIGSEGV, an out-of-memory kill) before it writes its report.json,
 * the parent still has every verdict the child reached and the step it died in (spawn.ts reads it
 * back with `readJournal`). Each line reaches the kernel before the call returns: a crash of the
 * process loses none of them (a crash of the machine may). The file is `--cell-journal FILE` of
 * the child's `run` (protocol.ts `childRunArgs`), in the child's temp report dir.
 */
export type JournalEntry =
  { phase: SuitePhase } | { started: { serverVersion: string; components: Record<string, string>; image: string | null; imageId: string | null; startMs: number } } | { result: CheckResult };

/** What a journal holds: the check results in the order recorded (the first of an id: a check's body finishing after its time limit recorded TIMEOUT is no second verdict), the last step started, and what the backend runs. */
export interface JournalRead {
  results: CheckResult[];
  /** The step the child was in when its journal ended; undefined when it never reached its first step. */
  phase?: SuitePhase;
  started?: Extract<JournalEntry, { started: unknown }>['started'];
}

/** Appends entries to the journal `file` (created on the first entry). Throws the file system's error (naming the path) when it cannot. */
export class CellJournal {
  constructor(readonly file: string) {}

  /** Append one entry as a JSON line; synchronous, so the line is written before the step it announces starts. */
  append(entry: JournalEntry): void {
    appendFileSync(this.file, JSON.stringify(entry) + '\n');
  }
}

/**
 * Read the journal `file` back: its results (each id once, the first recorded), its last
 * step and its backend's start. A missing file is an empty journal (the child died before its first
 * step); a line that does not parse (the last one, torn by the death) is left out. Never throws.
 */
export function readJournal(file: string): JournalRead {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch {
    return { results: [] };
  }
  const out: JournalRead = { results: [] };
  const byId = new Map<string, CheckResult>();
  for (const line of text.split('\n')) {
    if (line.trim() === '') continue;
    let e: Partial<Record<'phase' | 'started' | 'result', unknown>>;
    try {
      e = JSON.parse(line) as typeof e;
    } catch {
      continue; // torn by the death of the process
    }
    if (e.phase) out.phase = e.phase as SuitePhase;
    if (e.started) out.started = e.started as JournalRead['started'];
    if (e.result && !byId.has((e.result as CheckResult).id)) byId.set((e.result as CheckResult).id, e.result as CheckResult); // the first is the verdict, as in the collector
  }
  out.results = [...byId.values()];
  return out;
}

/** The step of a journal in words: `C08 score-canonical`, `the start of its backend`, `the golden load (its shared fixtures)`, `its teardown`, `its start` (none reached). */
export function phaseText(phase: SuitePhase | undefined): string {
  if (!phase) return 'its start';
  if (phase.kind === 'test') return phase.title;
  if (phase.kind === 'teardown') return 'its teardown';
  return phase.hook === 0 ? 'the start of its backend' : 'the golden load (its shared fixtures)';
}
