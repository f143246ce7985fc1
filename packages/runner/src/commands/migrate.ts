import path from 'node:path';
import { Option, type Command } from 'commander';
import { runMigration } from '../migrate/run-migration';

/**
 * `memory-matrix migrate --from <target> --to <target> [--dataset d] [--report-dir dir]`: the
 * migration gate (packages/runner/src/migrate). Exit 0 pass, 1 verification failed, 2 could not
 * run. `--tamper <id>` is a hidden SELF-TEST of the gate (alters one memory's text during import).
 */
export function registerMigrateCommand(program: Command): void {
  program
    .command('migrate')
    .description('migration gate: load the golden data into target A, export A by scan, import into target B, verify ids, text, metadata, timestamps, vectors, recall and ordering')
    .requiredOption('--from <target>', 'target A, the store migrated from (backend@version, a target of matrix/targets.yaml)')
    .requiredOption('--to <target>', 'target B, the store migrated to (backend@version)')
    .option('-d, --dataset <name|dir>', 'golden dataset loaded into A; its queries are replayed on A and B', 'agent-memories')
    .option('-r, --report-dir <dir>', 'where migrate.json and migrate.md go', 'matrix-report')
    .addOption(new Option('--image-source <source>', 'container images: registry, debian, auto').choices(['registry', 'debian', 'auto']).default('auto'))
    .addOption(new Option('--tamper <id>', 'SELF-TEST of the gate: alter the text of memory <id> on its way into B; the run must fail naming it').hideHelp())
    .action(async (o: { from: string; to: string; dataset: string; reportDir: string; imageSource: 'registry' | 'debian' | 'auto'; tamper?: string }) => {
      const report = await runMigration({
        from: o.from,
        to: o.to,
        dataset: o.dataset,
        reportDir: path.resolve(o.reportDir),
        imageSource: o.imageSource,
        tamper: o.tamper,
        argv: process.argv.slice(2),
      });
      process.exitCode = report.exitCode;
    });
}
