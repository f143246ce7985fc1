import path from 'node:path';
import type { ImageSource } from '@memory-matrix/targets';

/** Options of one `memory-matrix run`. */
export interface RunOptions {
  backends: string[];
  /**
   * `--profile`: without `--backend` its targets and its check tier (`checks` / `excludeChecks` in
   * matrix/targets.yaml); with `--backend` only its check tier. Undefined: the `default` profile's
   * targets, and every check when `--backend` is given.
   */
  profile?: string;
  /** `--parallel N`: cells run at once (as given; validated by parseParallel). Default: `MM_PARALLEL`, else the bound of `defaultParallelism`. */
  parallel?: string;
  /** Dataset folder or a name under golden-data/. */
  dataset: string;
  reportDir: string;
  updateGolden: boolean;
  shard?: string;
  checks: string[];
  /** `--repeat n`: C05 replays the index path n times on fresh index builds (as given; validated by parseRepeat). */
  repeat?: string;
  /** `--load-seed`: seed of the golden load order (as given: an integer or `random`; spec `parseLoadSeed`). Default `DEFAULT_LOAD_SEED`. */
  loadSeed?: string;
  /** Where container images come from: registry | debian | auto (default). */
  imageSource?: ImageSource;
  argv: string[];
  /**
   * `--cell-journal FILE` (hidden; a child cell's parent passes it: cell-child/protocol.ts): every
   * step started and check result recorded is appended there as it happens (cell-child/journal.ts),
   * so a child that dies keeps what it measured. Undefined: no journal.
   */
  cellJournal?: string;
  /** Where console output goes (tests capture it). */
  out?: (line: string) => void;
}

/**
 * The `run` command's options as commander parses them (cli.ts): `RunOptions`' fields as given on
 * the command line, under their flag names (`--backend` → `backend`, `--check` → `check`), paths
 * not yet resolved; `imageSource` always set (its default `auto`).
 */
export type RunCliOptions = Omit<RunOptions, 'backends' | 'checks' | 'argv' | 'out' | 'imageSource'> & { backend: string[]; check: string[]; imageSource: ImageSource };

/** The `RunOptions` of a `run` command line: `o` as parsed, `--report-dir` and `--cell-journal` resolved from the working directory, `argv` as given. */
export function runOptionsOf(o: RunCliOptions, argv: string[]): RunOptions {
  const { backend, check, reportDir, cellJournal, ...rest } = o;
  return { ...rest, backends: backend, checks: check, reportDir: path.resolve(reportDir), argv, ...(cellJournal !== undefined ? { cellJournal: path.resolve(cellJournal) } : {}) };
}
