import cliProgress from 'cli-progress';
import type { ProgressPhase } from '@memory-matrix/spec';

const LABEL: Record<ProgressPhase, string> = {
  load: 'loading memories',
  index: 'building index',
  'query-exact': 'queries, exact scan',
  'query-index': 'queries, index scan',
};

/**
 * Progress of a cell's long phases. On a TTY a cli-progress bar per phase; otherwise one line
 * when a phase starts and one when it ends (CI logs stay short).
 */
export class Progress {
  private bar?: cliProgress.SingleBar;
  private phase?: string;
  constructor(private readonly stream: NodeJS.WriteStream = process.stderr) {}

  update(target: string, phase: ProgressPhase, done: number, total: number): void {
    const key = `${target}:${phase}`;
    if (this.phase !== key) {
      this.stop();
      this.phase = key;
      if (this.stream.isTTY) {
        this.bar = new cliProgress.SingleBar(
          { format: `${target} ${LABEL[phase]} [{bar}] {value}/{total}`, stream: this.stream, clearOnComplete: true, hideCursor: true },
          cliProgress.Presets.shades_classic,
        );
        this.bar.start(total, done);
      } else {
        this.stream.write(`${target}: ${LABEL[phase]} (${total})…\n`);
      }
    }
    this.bar?.update(done);
    if (done >= total) this.stop();
  }

  /** A line of text that does not break the bar. */
  log(line: string): void {
    this.stop();
    this.stream.write(line + '\n');
  }

  stop(): void {
    this.bar?.stop();
    this.bar = undefined;
    this.phase = undefined;
  }
}
