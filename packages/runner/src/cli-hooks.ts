import path from 'node:path';
import { findUserConfig } from '@memory-matrix/targets';
import { throwDeferredTimeZone } from './time-zone';

/**
 * What the CLI does before any command's action: make the run's memory-matrix.yaml known as
 * `MM_CONFIG` (select.ts `configFile`; child cells inherit it) — `--config FILE` (`config`), else
 * `MM_CONFIG` as set, else `memory-matrix.yaml` in the working directory when there is one — and,
 * for every command but `run` (`command`: the name of the command whose action follows), throw the
 * USAGE error of a bad `MM_TIME_ZONE` the CLI kept as it started (time-zone.ts
 * `deferMatrixTimeZone`); `run` records that error in its reports instead (run.ts), as it does a
 * bad `MM_HOST_FACTOR`.
 */
export function beforeAction(config: string | undefined, command: string): void {
  const file = config ?? (process.env.MM_CONFIG ? undefined : findUserConfig(process.cwd()));
  if (file !== undefined) process.env.MM_CONFIG = path.resolve(file);
  if (command !== 'run') throwDeferredTimeZone();
}
