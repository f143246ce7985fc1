import path from 'node:path';
import { InvalidArgumentError, Option, type Command } from 'commander';
import { diffCommand } from '../baseline/diff-command';
import { recordCommand } from '../baseline/record-command';

const repeatable = (v: string, acc: string[]): string[] => {
  const items = v.split(',').map((s) => s.trim());
  if (items.some((s) => s === '')) throw new InvalidArgumentError('empty value');
  return [...acc, ...items];
};
const imageSource = () => new Option('--image-source <source>', 'container images: registry, debian (build offline), auto').choices(['registry', 'debian', 'auto']).default('auto');
const out = (l: string): void => void process.stdout.write(l + '\n');

/**
 * Registers `record` and `diff` (packages/runner/src/baseline/) on the CLI program.
 * - `record`: exit 0 every target recorded, 2 otherwise.
 * - `diff`: exit 0 PASS or DRIFT, 1 FAIL, 2 could not run.
 */
export function registerBaselineCommands(program: Command): void {
  program
    .command('record')
    .description("record a target's results (top-k ids and scores of every golden query, index path and exact path) with provenance as a baseline")
    .addOption(new Option('-b, --backend <target>', 'target backend@version (repeatable or comma-separated)').argParser(repeatable).default([]))
    .option('-p, --profile <name>', 'record every target of this profile (when no --backend is given)')
    .option('-d, --dataset <name|dir>', 'golden dataset name under golden-data/ or a folder', 'agent-memories')
    .option('-o, --out <file>', 'baseline file (one target only); default matrix-baselines/<target>.json')
    .addOption(new Option('--index <key=value>', "override the target's index parameter, e.g. efSearch=40 (repeatable)").argParser(repeatable).default([]))
    .addOption(imageSource())
    .action(async (o: { backend: string[]; profile?: string; dataset: string; out?: string; index: string[]; imageSource: 'registry' | 'debian' | 'auto' }) => {
      process.exitCode = await recordCommand({ backends: o.backend, profile: o.profile, dataset: o.dataset, out: o.out, index: o.index, imageSource: o.imageSource, argv: process.argv.slice(2) }, out);
    });
  program
    .command('diff')
    .description('compare a candidate with a baseline per query (top-k overlap, rank changes, score deltas) and give each scan path PASS, DRIFT or FAIL under the profile thresholds')
    .requiredOption('--baseline <target|file>', 'a target (recorded now) or a baseline.json from `record`')
    .requiredOption('--candidate <target|file>', 'a target (recorded now) or a baseline.json')
    .option('-p, --profile <name>', 'profile whose diff thresholds apply (matrix/targets.yaml)', 'pr-gate')
    .addOption(new Option('--index <key=value>', "override the candidate's index parameter, e.g. efSearch=4 (repeatable)").argParser(repeatable).default([]))
    .option('-d, --dataset <name|dir>', 'golden dataset for targets recorded now', 'agent-memories')
    .option('-r, --report-dir <dir>', 'where diff.json, diff.md (and the live recordings) go', 'matrix-report')
    .addOption(imageSource())
    .action(async (o: { baseline: string; candidate: string; profile: string; index: string[]; dataset: string; reportDir: string; imageSource: 'registry' | 'debian' | 'auto' }) => {
      const r = await diffCommand({ ...o, reportDir: path.resolve(o.reportDir), argv: process.argv.slice(2) }, out);
      process.exitCode = r.exitCode;
    });
}
