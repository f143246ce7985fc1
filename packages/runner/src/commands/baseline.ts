import type { Command } from 'commander';

/** Registers the `record, diff` command(s) on the CLI program. (Stub: being built.) */
export function registerBaselineCommands(program: Command): void {
  void program;
}
