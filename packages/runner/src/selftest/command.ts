import { Command, InvalidArgumentError, Option } from 'commander';
import path from 'node:path';
import { MUTANTS } from './mutants';
import { runSelftest } from './run';

/** Repeatable / comma-separated values; an empty value is a usage error. */
const collect = (v: string, acc: string[]): string[] => {
  const items = v.split(',').map((s) => s.trim());
  if (items.some((s) => s === '')) throw new InvalidArgumentError('empty value (give a name, or leave the option out)');
  return [...acc, ...items];
};

/**
 * Register `memory-matrix selftest [--backend T …] [--mutant a,b] [--first]` on `program`: the
 * gate tests itself (selftest/run.ts). Exit status 0 every applicable mutant caught, 1 one
 * escaped, 2 not carried out (bad arguments, a clean run that failed or did not start).
 */
export function registerSelftestCommand(program: Command): void {
  program
    .command('selftest')
    .description('the gate tests itself: runs the check catalogue once clean, then once per mutant (a regression kind injected at the store contract); prints mutant → caught by / ESCAPED')
    .addOption(new Option('-b, --backend <target>', 'target backend@version (repeatable or comma-separated; default: the embedded profile of matrix/targets.yaml)').argParser(collect).default([]))
    .addOption(new Option('-m, --mutant <name>', `only these mutants (repeatable or comma-separated): ${MUTANTS.map((m) => m.name).join(', ')}`).argParser(collect).default([]))
    .addOption(new Option('-c, --check <id>', 'only these checks, in the clean and the mutant runs (C03 or topk-exact; repeatable or comma-separated)').argParser(collect).default([]))
    .option('-p, --profile <name>', 'profile from matrix/targets.yaml: its check tier (the checks it leaves out are not run) and, without --backend, its targets')
    .option('--first', "stop each mutant's run at its first catching check; checks in a measured order, the cheap ones that catch most mutants first, the slow tier (C15 C16 C19 C23) last", false)
    .option('--parallel <n>', 'catalogue runs at once, 1-64; 1 = in this process, one after another; more = worker processes (default: MM_PARALLEL, else min(2, CPUs))')
    .option('-d, --dataset <name|dir>', 'golden dataset name under golden-data/ or a folder', 'agent-memories')
    .option('-r, --report-dir <dir>', 'where selftest.json and selftest.md go', 'matrix-report')
    .addOption(new Option('--image-source <source>', 'container images: registry, debian, auto').choices(['registry', 'debian', 'auto']).default('auto'))
    .action(
      async (o: {
        backend: string[];
        mutant: string[];
        check: string[];
        profile?: string;
        first: boolean;
        dataset: string;
        reportDir: string;
        imageSource: 'registry' | 'debian' | 'auto';
        parallel?: string;
      }) => {
        const report = await runSelftest({
          backends: o.backend,
          mutants: o.mutant,
          checks: o.check,
          profile: o.profile,
          first: o.first,
          dataset: o.dataset,
          reportDir: path.resolve(o.reportDir),
          imageSource: o.imageSource,
          parallel: o.parallel,
          argv: process.argv.slice(2),
        });
        process.exitCode = report.exitCode;
      },
    );
}
