import { existsSync, statSync } from 'node:fs';
import path from 'node:path';
import type { Command } from 'commander';
import { MemoryMatrixError } from '@memory-matrix/spec';
import { CATALOG_FILE, driverNames, loadCatalog, loadUserConfig } from '@memory-matrix/targets';
import { TOOL_VERSION } from '../version';
import { GATE_JOB, initFiles } from './templates';
import { writeAllOrNone } from './write-all';

/**
 * `memory-matrix init`: write memory-matrix.yaml, golden-data/README.md and
 * .github/workflows/memory-matrix.yml into `dir` (templates.ts), all or none (write-all.ts).
 * memory-matrix.yaml is validated as the run reads it (targets `loadUserConfig`, then
 * `loadCatalog` with it over the built-in catalog) while staged, before any file is in place. Returns 0; throws USAGE naming each
 * existing file without `force`, or `dir` when it is not a folder.
 */
export function initCommand(dir: string, force: boolean, out: (line: string) => void): number {
  if (existsSync(dir) && !statSync(dir).isDirectory()) throw new MemoryMatrixError('USAGE', `init --dir ${dir}: not a folder`);
  const files = initFiles(TOOL_VERSION, driverNames()).map((f) => ({ file: path.join(dir, f.file), content: f.content }));
  writeAllOrNone(files, { force, check: (staged) => void loadCatalog(CATALOG_FILE, { config: loadUserConfig(staged[0]!) }) });
  out(`wrote ${files.map((f) => path.relative(process.cwd(), f.file) || f.file).join(', ')}`);
  out('next: npx memory-matrix --profile pr-gate   (the gate, here; --dataset <name> after a sample, see golden-data/README.md)');
  out(`      commit the files, then make the status check "${GATE_JOB}" required for your default branch`);
  return 0;
}

/** Register `init [--dir D] [--force]` on the CLI. */
export function registerInitCommand(program: Command): void {
  program
    .command('init')
    .description(
      'write memory-matrix.yaml (your targets and profiles over the built-in catalog), golden-data/README.md (how to sample your own store) and .github/workflows/memory-matrix.yml (the PR gate on GitHub Actions); refuses to overwrite any of them without --force',
    )
    .option('--dir <dir>', 'the folder to write into (default: the working directory)', '.')
    .option('--force', 'replace those files when they exist', false)
    .action((o: { dir: string; force: boolean }) => {
      process.exitCode = initCommand(path.resolve(o.dir), o.force, (l) => process.stdout.write(l + '\n'));
    });
}
