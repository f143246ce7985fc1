#!/usr/bin/env node
import { Command, CommanderError, InvalidArgumentError, Option } from 'commander';
import { DEFAULT_LOAD_SEED, MAX_LOAD_SEED, MemoryMatrixError } from '@memory-matrix/spec';
import path from 'node:path';
import { USER_CONFIG_FILE } from '@memory-matrix/targets';
import { BENCH_SECTIONS, parseSections } from './commands/bench-sections';
import { imagesBuild, imagesKeyCommand, imagesList } from './commands/images';
import { registerBaselineCommands } from './commands/baseline';
import { mergeCommand } from './commands/merge';
import { registerMigrateCommand } from './commands/migrate';
import { registerSampleCommand } from './commands/sample';
import { targetsCommand } from './commands/targets';
import { registerInitCommand } from './init/command';
import { registerSelftestCommand } from './selftest/command';
import { runMatrix } from './run';
import { runOptionsOf, type RunCliOptions } from './run/options';
import { runCatalog } from './select';
import { useTmpRoot } from './tmp-root';
import { deferMatrixTimeZone } from './time-zone';
import { beforeAction } from './cli-hooks';
import { exitWhenDone } from './cli-exit';
import { TOOL_VERSION } from './version';

/** Repeatable / comma-separated option values; an empty value is a usage error, not "all". */
const collect = (v: string, acc: string[]): string[] => {
  const items = v.split(',').map((s) => s.trim());
  if (items.some((s) => s === '')) throw new InvalidArgumentError('empty value (give a target / check, or leave the option out)');
  return [...acc, ...items];
};

/** A word that is an option (`--check`, `-b`), not a value; `-1` and `-` are values. */
const looksLikeOption = (word: string | undefined): boolean => word !== undefined && /^--?[A-Za-z]/.test(word);

/**
 * Make every option of `cmd` and its subcommands that takes a value refuse an option as that value,
 * and an empty one: commander takes the next word whatever it is, so `--backend --check C01` ran
 * with the target "--check" and an unknown command "C01", and `--report-dir ''` wrote the reports
 * into the working directory. The usage error names the option and the word instead.
 */
export function refuseOptionsAsValues(cmd: Command): void {
  for (const opt of cmd.options) {
    if (!opt.required) continue;
    const inner = opt.parseArg;
    opt.parseArg = <T>(value: string, previous: T): T => {
      if (looksLikeOption(value)) throw new InvalidArgumentError(`it needs a value right after it, and ${value} is an option`);
      if (value.trim() === '') throw new InvalidArgumentError('empty value (give one, or leave the option out for its default)');
      return (inner ? inner(value, previous) : value) as T;
    };
  }
  cmd.commands.forEach(refuseOptionsAsValues);
}

/**
 * The `memory-matrix` CLI (`pnpm matrix …`). Exit status: 0 all checks pass, 1 a check failed or none ran,
 * 2 the run could not be carried out (bad arguments, unknown target, bad golden data, a backend
 * that would not start). Usage errors print the problem and `--help` hint on stderr.
 */
export function buildProgram(): Command {
  const program = new Command('memory-matrix')
    .description('Conformance and regression matrix for LLM/agent memory stores')
    .version(TOOL_VERSION)
    .exitOverride()
    .showHelpAfterError('(run with --help for usage)')
    .option(
      '--config <file>',
      `your ${USER_CONFIG_FILE}: adapters (your own memory module as a driver), targets and profiles over the built-in catalog (default: ./${USER_CONFIG_FILE} when there is one)`,
    )
    .hook('preAction', (cmd, action) => beforeAction(cmd.opts<{ config?: string }>().config, action.name()));

  program
    .command('run', { isDefault: true })
    .description('run the checks on each target against the golden dataset and its oracle expectation')
    .addOption(new Option('-b, --backend <target>', 'target backend@version (repeatable or comma-separated; `memory-matrix targets` lists them)').argParser(collect).default([]))
    .option(
      '-p, --profile <name>',
      'profile from matrix/targets.yaml (default: default): its targets and its check tier; with --backend only its check tier (without --profile, --backend runs every check)',
    )
    .option('--parallel <n>', 'cells (target × dataset) run at once, 1-64; 1 = one after another (default: MM_PARALLEL, else from the CPUs, the free memory and the targets)')
    .option('-d, --dataset <name|dir>', 'golden dataset name under golden-data/ or a folder', 'agent-memories')
    .option('-r, --report-dir <dir>', 'where report.json, junit.xml, report.md and report.html go', 'matrix-report')
    .option('--update-golden', 're-record the oracle expectation before running (without it a missing expectation is an error)', false)
    .option('--shard <i/n>', 'run only shard i of n (cells split deterministically by target name)')
    .addOption(
      new Option('--image-source <source>', 'container images: registry (pull official), debian (build offline), auto (local, else pull, else build)')
        .choices(['registry', 'debian', 'auto'])
        .default('auto'),
    )
    .addOption(new Option('-c, --check <id>', 'run only these checks (C03 or topk-exact; repeatable or comma-separated)').argParser(collect).default([]))
    .option(
      '--repeat <n>',
      'C05: rebuild the ANN index and replay the queries n times (1-20); the report gives the spread of recall@k and a run below the floor whose mean over the repeats is above it is noise, not a failure',
    )
    .option(
      '--load-seed <n>',
      `seed of the order the golden memories are written in (a seeded shuffle, never id order, so ties broken by insertion order show in C07): an integer 0-${MAX_LOAD_SEED}, or "random"; every report names it (default ${DEFAULT_LOAD_SEED})`,
    )
    .addOption(new Option('--cell-journal <file>', "internal: the journal a child cell's parent reads when the child dies (cell-child/journal.ts)").hideHelp())
    .action(async (o: RunCliOptions) => {
      const report = await runMatrix(runOptionsOf(o, process.argv.slice(2)));
      process.exitCode = report.exitCode;
    });
  program
    .command('bench')
    .description("cell phases per target, load ratios against each backend's own bulk path, oracle vs an exact kNN library, the PR gate against 60 s, and a scale curve; every ratio with its goal")
    .addOption(
      new Option('-b, --backend <target>', 'targets of the phases section, backend@version (repeatable or comma-separated; default: the bench profile of matrix/targets.yaml)')
        .argParser(collect)
        .default([]),
    )
    .option('-d, --dataset <name|dir>', 'golden dataset', 'agent-memories')
    .addOption(new Option('-s, --section <name>', `only these sections (repeatable or comma-separated: ${BENCH_SECTIONS.join(', ')}; default all but profiles)`).argParser(collect).default([]))
    .option('--scale <sizes>', 'scale curve points on pgvector@pg17: comma-separated sizes (10k,100k,1m) or none (default 10k,100k,1m)')
    .addOption(
      new Option('-p, --profile <name>', 'catalog profiles of the profiles section, each run once with its CPU-seconds (repeatable or comma-separated; default pr-gate,default)')
        .argParser(collect)
        .default([]),
    )
    .action(async (o: { backend: string[]; dataset: string; section: string[]; scale?: string; profile: string[] }) => {
      const sections = parseSections(o.section);
      const { bench } = loadBench();
      process.exitCode = await bench({ targets: o.backend, dataset: o.dataset, sections, scale: o.scale, profiles: o.profile }, (l) => process.stdout.write(l + '\n'));
    });
  program
    .command('merge')
    .description('join shard reports (runs with --shard i/n) into one report: cells ordered by target, summary and exit status recomputed')
    .argument('<reports...>', 'report.json files of the shards (all of one dataset)')
    .option('-r, --report-dir <dir>', 'where the merged report.json, junit.xml, report.md and report.html go', 'matrix-report')
    .action(async (files: string[], o: { reportDir: string }) => {
      process.exitCode = await mergeCommand(files, path.resolve(o.reportDir), (l) => process.stdout.write(l + '\n'));
    });
  registerBaselineCommands(program);
  registerMigrateCommand(program);
  registerSampleCommand(program);
  registerSelftestCommand(program);
  registerInitCommand(program);
  program
    .command('targets')
    .description('list the targets --backend takes (the catalog and your memory-matrix.yaml): provider, what each runs, its profiles')
    .option('-p, --profile <name>', 'only the targets of this profile')
    .action((o: { profile?: string }) => {
      process.exitCode = targetsCommand(runCatalog(), (l) => process.stdout.write(l + '\n'), o.profile);
    });
  const images = program.command('images').description('offline container images built from Debian packages');
  images
    .command('build')
    .description('build (or reuse, cached by recipe hash) the image of each container target with a Debian recipe')
    .addOption(new Option('-t, --target <target>', 'target backend@version (repeatable); default all with a recipe').argParser(collect).default([]))
    .option('-p, --profile <name>', 'only the container targets of this profile of matrix/targets.yaml that have a recipe')
    .option('--force', 'rebuild even when an image with the recipe hash exists', false)
    .action(async (o: { target: string[]; profile?: string; force: boolean }) => {
      process.exitCode = await imagesBuild(o.target, (l) => process.stdout.write(l + '\n'), o.force, o.profile);
    });
  images
    .command('key')
    .description('print the cache key of the offline images (a hash of their recipe-hash tags), or with --tags the tags themselves, one per line; needs no Docker')
    .addOption(new Option('-t, --target <target>', 'target backend@version (repeatable); default all with a recipe').argParser(collect).default([]))
    .option('-p, --profile <name>', 'only the container targets of this profile of matrix/targets.yaml that have a recipe')
    .option('--tags', 'print the built tags (what docker save / docker load take) instead of the key', false)
    .action((o: { target: string[]; profile?: string; tags: boolean }) => {
      process.exitCode = imagesKeyCommand(o.target, (l) => process.stdout.write(l + '\n'), { profile: o.profile, tags: o.tags });
    });
  images
    .command('list')
    .description('list the images the offline builder made')
    .action(async () => {
      process.exitCode = await imagesList((l) => process.stdout.write(l + '\n'));
    });
  refuseOptionsAsValues(program);
  return program;
}

/**
 * `run` is the default command, so commander hands it any word that is not a command and
 * answers "too many arguments for 'run'". Throws USAGE naming the word and the commands instead
 * when the first word of `args` (argv after node and the script) that is neither an option of the
 * program or of `run` nor an option's value is not a command of `program`. Leaves everything else
 * (unknown options, missing values) to commander.
 */
export function rejectUnknownCommand(program: Command, args: readonly string[]): void {
  const run = program.commands.find((c) => c.name() === 'run');
  const options = [...program.options, ...(run?.options ?? [])];
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    if (a === '--') return;
    if (a.startsWith('-')) {
      const o = options.find((x) => x.long === a || x.short === a);
      if (!o && !a.includes('=')) return; // an unknown option: commander names it (and what it may have meant), not the word after it
      if (o && (o.required || o.optional) && !looksLikeOption(args[i + 1])) i++; // its value follows (`--opt=value` is one word); an option instead is commander's usage error
      continue;
    }
    const names = program.commands.map((c) => c.name());
    if (names.includes(a) || a === 'help') return;
    throw new MemoryMatrixError('USAGE', `unknown command "${a}"; the commands are ${names.join(', ')} (run is the default: pnpm matrix --backend pgvector@pglite-pg18)`);
  }
}

/** Entry point: parse, run, map usage errors to exit 2. */
export async function main(argv = process.argv): Promise<void> {
  // `pnpm matrix …` runs from the repository root; relative paths (--report-dir, --dataset, --out …) are meant from INIT_CWD.
  if (process.env.npm_lifecycle_event === 'matrix' && process.env.INIT_CWD) process.chdir(process.env.INIT_CWD);
  // A command whose promise never settles while nothing keeps the event loop alive (a client library awaiting a callback
  // that will not come) would make Node exit 0 without a word or a report. Seen: a node-redis quit() ended a run mid-C15 so.
  let settled = false;
  const drained = (): void => {
    if (settled) return;
    settled = true;
    process.stderr.write(
      'memory-matrix: INTERNAL: the command stopped before it finished (the event loop drained with work still awaited: a client left a promise that never settles); its report, if any, is incomplete\n',
    );
    process.exitCode = 2;
  };
  process.once('beforeExit', drained);
  try {
    useTmpRoot(); // every temp dir of this run (and of what it starts) in one root, removed at exit
    deferMatrixTimeZone(); // TZ of this process and of every process it starts: not UTC (time-zone.ts); a bad one is the command's USAGE error
    const program = buildProgram();
    rejectUnknownCommand(program, argv.slice(2));
    await program.parseAsync(argv);
  } catch (e) {
    if (e instanceof CommanderError) {
      process.exitCode = e.code === 'commander.helpDisplayed' || e.code === 'commander.version' || e.code === 'commander.help' ? 0 : 2;
      return;
    }
    const err = e as { code?: string; message?: string; stack?: string };
    // Our own errors carry a code and a message that names the thing; anything else is a bug: show the stack.
    process.stderr.write(`memory-matrix: ${err.code ? `${err.code}: ${err.message}` : (err.stack ?? String(e))}\n`);
    process.exitCode = 2;
  } finally {
    settled = true;
    process.off('beforeExit', drained);
  }
}

/**
 * The bench command's module, loaded when `bench` runs: it measures against other libraries
 * (LangChain.js, usearch, the Chroma client, pg-copy-streams) that are development dependencies of
 * the runner, installed in the repository but not with the published packages. Throws USAGE naming
 * the missing library when one is not installed.
 */
function loadBench(): typeof import('./commands/bench') {
  try {
    // eslint-disable-next-line @typescript-eslint/no-require-imports -- loaded on use: its libraries are not installed with the package
    return require('./commands/bench') as typeof import('./commands/bench');
  } catch (e) {
    if ((e as { code?: string }).code !== 'MODULE_NOT_FOUND') throw e;
    throw new MemoryMatrixError(
      'USAGE',
      `bench runs from a clone of the repository (pnpm bench): it compares against libraries installed there as development dependencies (${(e as Error).message.split('\n')[0]})`,
      { cause: e },
    );
  }
}

if (require.main === module) void main().then(exitWhenDone);
