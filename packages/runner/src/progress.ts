import cliProgress from 'cli-progress';
import type { ProgressPhase } from '@memory-matrix/spec';

const LABEL: Record<ProgressPhase, string> = {
  load: 'loading memories',
  index: 'building index',
  'query-exact': 'queries, exact scan',
  'query-index': 'queries, index scan',
};

/** A phase line of any cell (`isPhaseLine`), built once from LABEL. */
const PHASE_LINE = new RegExp(`^\\S.*: (?:${Object.values(LABEL).join('|')})(?: \\(\\d+\\)…| \\d+/\\d+, \\d+ s)$`);

/**
 * Whether `line` is a phase line of a cell (`<target>: loading memories (5111)…`, `<target>: queries,
 * exact scan 177/353, 30 s`), as this class prints it and a child cell's relayed output carries it.
 */
export function isPhaseLine(line: string): boolean {
  return PHASE_LINE.test(line);
}

/** How often a long phase prints a line of its own without a TTY, ms: `… loading memories 2000/5111, 95 s`. */
export const PROGRESS_LINE_MS = 30_000;

/**
 * Progress of the cells' long phases, safe for cells running at once. On a TTY one cli-progress
 * bar line per running cell (a MultiBar: the bar of a cell shows its current phase, done / total
 * and the seconds since the phase began; log lines are printed above the bars, whole). Otherwise (a
 * pipe, `| tee`, a CI log) one line when a phase of a cell starts, prefixed by the target, then at
 * most one every `PROGRESS_LINE_MS` while it lasts (`<target>: loading memories 2000/5111, 95 s`),
 * each whole, so lines of concurrent cells never mix and a long golden load is seen moving.
 */
export class Progress {
  private multi?: cliProgress.MultiBar;
  private readonly bars = new Map<string, cliProgress.SingleBar>();
  /** The phase each cell is in (non-TTY: a line per change). */
  private readonly phases = new Map<string, ProgressPhase>();
  /** When each cell's phase began, and when its last line was printed (non-TTY), ms (`now`). */
  private readonly since = new Map<string, { start: number; line: number }>();
  private width = 0;
  /** Set by `halt`: no more bars or phase lines (an interrupted run says only how it stops). */
  private halted = false;
  constructor(
    private readonly stream: NodeJS.WriteStream = process.stderr,
    private readonly now: () => number = () => performance.now(),
  ) {}

  /** `done` of `total` steps of `phase` in the cell of `target`. */
  update(target: string, phase: ProgressPhase, done: number, total: number): void {
    if (this.halted) return;
    const changed = this.phases.get(target) !== phase;
    this.phases.set(target, phase);
    const t = this.now();
    if (changed) this.since.set(target, { start: t, line: t });
    const since = this.since.get(target)!;
    const elapsed = `${Math.round((t - since.start) / 1000)} s`;
    if (!this.stream.isTTY) {
      if (changed) this.stream.write(`${target}: ${LABEL[phase]} (${total})…\n`);
      else if (t - since.line >= PROGRESS_LINE_MS) {
        since.line = t;
        this.stream.write(`${target}: ${LABEL[phase]} ${done}/${total}, ${elapsed}\n`);
      }
      return;
    }
    this.width = Math.max(this.width, target.length);
    this.multi ??= new cliProgress.MultiBar(
      { format: '{target} {phase} [{bar}] {value}/{total} {elapsed}', stream: this.stream, clearOnComplete: true, hideCursor: true, gracefulExit: false },
      cliProgress.Presets.shades_classic,
    );
    const payload = { target: target.padEnd(this.width), phase: LABEL[phase].padEnd(19), elapsed };
    const bar = this.bars.get(target);
    if (!bar) this.bars.set(target, this.multi.create(total, done, payload));
    else {
      if (changed) bar.setTotal(total);
      bar.update(done, payload);
    }
  }

  /** The cell of `target` has ended: its bar goes away (and the bars, when it was the last). */
  end(target: string): void {
    this.phases.delete(target);
    this.since.delete(target);
    const bar = this.bars.get(target);
    if (!bar) return;
    this.bars.delete(target);
    if (this.bars.size === 0) this.stop();
    else this.multi?.remove(bar);
  }

  /** A line of text, printed whole above the bars. (Bound: a line sink as it is, e.g. the collector's.) */
  readonly log = (line: string): void => {
    if (this.halted && isPhaseLine(line)) return; // a child cell's progress, relayed after the interrupt
    if (this.multi) this.multi.log(line + '\n');
    else this.stream.write(line + '\n');
  };

  /**
   * The display hooks of `target`'s cell (registerTargetCell's `log`, `progress`, `onEnded`), bound
   * to this progress and the target: a line above the bars, `update` of its bar, `end` of it.
   */
  cellHooks(target: string): { log: (line: string) => void; progress: (phase: ProgressPhase, done: number, total: number) => void; onEnded: () => void } {
    return { log: this.log, progress: (phase, done, total) => this.update(target, phase, done, total), onEnded: () => this.end(target) };
  }

  /** Stop for good (an interrupt): remove the bars; later `update` calls and phase lines given to `log` are dropped. */
  halt(): void {
    this.halted = true;
    this.stop();
  }

  /** Remove every bar (pending log lines are printed first). */
  stop(): void {
    const m = this.multi;
    this.multi = undefined;
    this.bars.clear();
    if (!m) return;
    m.update(); // prints the buffered log lines
    m.stop();
  }
}
