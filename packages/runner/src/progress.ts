import cliProgress from 'cli-progress';
import type { ProgressPhase } from '@memory-matrix/spec';

const LABEL: Record<ProgressPhase, string> = {
  load: 'loading memories',
  index: 'building index',
  'query-exact': 'queries, exact scan',
  'query-index': 'queries, index scan',
};

/**
 * Progress of the cells' long phases, safe for cells running at once. On a TTY one cli-progress
 * bar line per running cell (a MultiBar: the bar of a cell shows its current phase; log lines are
 * printed above the bars, whole). Otherwise (a pipe, `| tee`, a CI log) one line when a phase of a
 * cell starts, prefixed by the target, and nothing per step, so lines of concurrent cells never mix.
 */
export class Progress {
  private multi?: cliProgress.MultiBar;
  private readonly bars = new Map<string, cliProgress.SingleBar>();
  /** The phase each cell is in (non-TTY: a line per change). */
  private readonly phases = new Map<string, ProgressPhase>();
  private width = 0;
  constructor(private readonly stream: NodeJS.WriteStream = process.stderr) {}

  /** `done` of `total` steps of `phase` in the cell of `target`. */
  update(target: string, phase: ProgressPhase, done: number, total: number): void {
    const changed = this.phases.get(target) !== phase;
    this.phases.set(target, phase);
    if (!this.stream.isTTY) {
      if (changed) this.stream.write(`${target}: ${LABEL[phase]} (${total})…\n`);
      return;
    }
    this.width = Math.max(this.width, target.length);
    this.multi ??= new cliProgress.MultiBar(
      { format: '{target} {phase} [{bar}] {value}/{total}', stream: this.stream, clearOnComplete: true, hideCursor: true, gracefulExit: false },
      cliProgress.Presets.shades_classic,
    );
    const payload = { target: target.padEnd(this.width), phase: LABEL[phase].padEnd(19) };
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
    const bar = this.bars.get(target);
    if (!bar) return;
    this.bars.delete(target);
    if (this.bars.size === 0) this.stop();
    else this.multi?.remove(bar);
  }

  /** A line of text, printed whole above the bars. */
  log(line: string): void {
    if (this.multi) this.multi.log(line + '\n');
    else this.stream.write(line + '\n');
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
