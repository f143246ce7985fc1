/**
 * Builds a golden filter set (golden-data/FORMAT.md "Filter sets") from a cases file and a golden
 * dataset, deterministically (same bytes on every run):
 *
 *   node --require tsx/cjs packages/spec/scripts/build-filter-set.ts \
 *     [--dataset golden-data/agent-memories] [--cases golden-data/filters/agent-memories.cases.jsonl] \
 *     [--out golden-data/filters/agent-memories.jsonl] [--check]
 *
 * `--cases` and `--out` default to `<dataset's parent>/filters/<dataset folder>.cases.jsonl` and
 * `.jsonl`: where C31 reads a dataset's set (golden-data/FORMAT.md "Filter sets").
 * `--check` writes nothing: it loads the committed file (`loadFilterSet`: a malformed line is exit 2
 * naming file:line), rebuilds, and exits 1 when the committed file differs. A bad cases
 * file, a vacuous case (no memory or every memory) or a bad dataset: the error naming file:line and
 * the case on stderr, exit 2, nothing written. The file is written whole (temporary file + rename).
 */
import fs from 'node:fs';
import path from 'node:path';
import { DEFAULT_TOLERANCES } from '../src/capabilities';
import { isMemoryMatrixError } from '../src/errors';
import { buildFilterSet, readFilterCases } from '../src/filter-set/build';
import { loadFilterSet, serializeFilterSet } from '../src/filter-set/file';
import { loadGoldenDataset } from '../src/golden/load';

const ROOT = path.resolve(__dirname, '../../..');

function arg(argv: string[], name: string, fallback: string): string {
  const i = argv.indexOf(name);
  if (i < 0) return fallback;
  const v = argv[i + 1];
  if (v === undefined || v.startsWith('--')) throw new Error(`${name} needs a value`);
  return path.resolve(v);
}

function main(argv: string[]): number {
  const known = ['--dataset', '--cases', '--out', '--check'];
  const unknown = argv.filter((a, i) => a.startsWith('--') && !known.includes(a) && !(i > 0 && ['--dataset', '--cases', '--out'].includes(argv[i - 1]!)));
  if (unknown.length) {
    process.stderr.write(`build-filter-set: unknown option ${unknown.join(', ')}; options: ${known.join(' ')}\n`);
    return 2;
  }
  const datasetDir = arg(argv, '--dataset', path.join(ROOT, 'golden-data/agent-memories'));
  const name = path.basename(datasetDir);
  // Beside the dataset's folder, where C31 looks (`filterSetPath`): golden-data/filters/ for the repository's datasets,
  // <your dir>/filters/ for yours — never the repository's file for a dataset elsewhere.
  const filtersDir = path.join(path.dirname(datasetDir), 'filters');
  const casesFile = arg(argv, '--cases', path.join(filtersDir, `${name}.cases.jsonl`));
  const out = arg(argv, '--out', path.join(filtersDir, `${name}.jsonl`));
  const t0 = Date.now();
  if (argv.includes('--check')) loadFilterSet(out);
  const dataset = loadGoldenDataset(datasetDir);
  const set = buildFilterSet(dataset, readFilterCases(casesFile), { casesFile, tieEpsilon: DEFAULT_TOLERANCES.tieEpsilon });
  const text = serializeFilterSet(set);
  const sel = set.cases.map((c) => c.selectivity);
  const summary = `${set.cases.length} cases, selectivity ${(Math.min(...sel) * 100).toFixed(3)} %..${(Math.max(...sel) * 100).toFixed(2)} %, ${set.header.queries.length} queries × k ${set.header.k}, ${Date.now() - t0} ms`;
  if (argv.includes('--check')) {
    const committed = fs.existsSync(out) ? fs.readFileSync(out, 'utf8') : '';
    if (committed !== text) {
      process.stderr.write(`build-filter-set: ${out} differs from a rebuild (${summary}); run without --check to rewrite it\n`);
      return 1;
    }
    process.stdout.write(`build-filter-set: ${out} is up to date (${summary})\n`);
    return 0;
  }
  const tmp = `${out}.tmp-${process.pid}`;
  fs.writeFileSync(tmp, text);
  fs.renameSync(tmp, out);
  process.stdout.write(`build-filter-set: wrote ${out}: ${summary}\n`);
  return 0;
}

try {
  process.exitCode = main(process.argv.slice(2));
} catch (e) {
  process.stderr.write(`build-filter-set: ${isMemoryMatrixError(e) ? `${e.code}: ${e.message}` : (e as Error).message}\n`);
  process.exitCode = 2;
}
