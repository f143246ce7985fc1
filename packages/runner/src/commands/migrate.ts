import type { Command } from 'commander';

/** Registers the `migrate` command(s) on the CLI program. (Stub: being built.) */
export function registerMigrateCommand(program: Command): void {
  void program;
}
