import type { Command } from 'commander';

/** Registers the `sample` command(s) on the CLI program. (Stub: being built.) */
export function registerSampleCommand(program: Command): void {
  void program;
}
