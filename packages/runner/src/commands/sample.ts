import path from 'node:path';
import { Option, type Command } from 'commander';
import { MemoryMatrixError, METRICS, CHECK_MIN_MEMORIES, MIN_DATASET_MEMORIES, MIN_DATASET_QUERIES, type Metric, type SampleStratify } from '@memory-matrix/spec';
import { parseColumns } from '../sample/columns';
import { sampleDrivers } from '../sample/drivers';
import { findSampleSource, sampleFromForms, type SampleDriver } from '../sample/find-source';
import { formatRedactionTable } from '../sample/format';
import { runSample } from '../sample/sampler';

const int = (flag: string, v: string, min: number): number => {
  if (!/^\d+$/.test(v) || Number(v) < min || !Number.isSafeInteger(Number(v))) throw new MemoryMatrixError('USAGE', `${flag} ${v}: expected an integer ≥ ${min}`);
  return Number(v);
};

const minimums = (): string =>
  Object.entries(CHECK_MIN_MEMORIES)
    .map(([c, m]) => `${c} ${m}`)
    .join(', ');

/**
 * Registers `memory-matrix sample`: reads memories with embeddings from a user's table through the
 * sample source of the driver that reads `--from` (`findSampleSource` over `drivers`, whose
 * sources also give the help's examples and defaults), samples reproducibly, optionally redacts personal details, and writes a golden dataset with its
 * oracle expectation (so `pnpm matrix --dataset <dir>` runs on it) and sample-provenance.json.
 * Prints the table layout it detected (or why none: USAGE listing the columns and the closest
 * known layout) and the mapping it reads with, then the redaction table. Exit 0 on success, 2 on
 * any error (USAGE names the flag or column).
 * Refuses, before reading the store: `--n` below `MIN_DATASET_MEMORIES` (C23's 53), `--queries` below
 * `MIN_DATASET_QUERIES` (C04's 10) (an existing `--out` is checked by `checkSampleOut`, also before the store).
 */
export function registerSampleCommand(program: Command, given?: readonly SampleDriver[]): void {
  // The drivers are loaded here for the help text. A broken MM_DRIVERS must not stop the other
  // commands before they parse (a run still writes its reports, naming the module): its error is
  // thrown when sample itself runs, and `run` meets it again inside its own error handling.
  let loadError: unknown;
  let drivers: readonly SampleDriver[] = [];
  try {
    drivers = given ?? sampleDrivers();
  } catch (e) {
    loadError = e;
  }
  const sources = drivers.flatMap((d) => (d.sampleSource ? [{ name: d.name, source: d.sampleSource }] : []));
  const tables = sources.map(({ name, source }) => `"${source.defaults.table}"${sources.length > 1 ? ` for ${name}` : ''}`).join(', ');
  program
    .command('sample')
    .description(`sample memories (with embeddings) from a real ${sources.map((s) => s.source.description).join(' or ')} store into a golden dataset, reproducibly, with --redact for personal details`)
    .requiredOption('--from <url>', `${sampleFromForms(drivers)} (the password is never printed or written)`)
    .option('--table <[schema.]table>', `table holding the memories (default: ${tables})`)
    .option(
      '--columns <mapping>',
      `field=column,… for id,text,embedding,metadata,created_at,namespace,kind over the default mapping: ${sources.map((s) => s.source.defaults.description).join('; ')}; "none" unsets, metadata.<key> reads a metadata key (text, created_at, namespace, kind; metadata.<key>|<key2> the first present). sample prints the layout and mapping it reads with`,
    )
    .requiredOption('--n <count>', `memories in the dataset (at least ${MIN_DATASET_MEMORIES.count}: ${MIN_DATASET_MEMORIES.check} needs them)`)
    .option('--queries <count>', `held-out queries sampled in addition to --n (default: n/10, at least ${MIN_DATASET_QUERIES.count}: ${MIN_DATASET_QUERIES.check} needs them)`)
    .option('--k <k>', 'top-k of each query', '10')
    .requiredOption('--seed <s>', 'non-negative integer seed: same store + same seed → same bytes')
    .addOption(new Option('--stratify <by>', 'proportional sample per namespace, kind or created_at quartile').choices(['namespace', 'kind', 'age']))
    .option('--redact', 'replace e-mail addresses, phone numbers, card numbers, person names and street addresses in text and metadata by [EMAIL] [PHONE] [CARD] [NAME] [ADDRESS]', false)
    .option('--out <dir>', 'dataset folder (default golden-data/<name> in the working directory, where --dataset <name> finds it)')
    .option('--name <name>', 'dataset name', 'sample')
    .addOption(new Option('--metric <metric>', 'metric of the expectations').choices(METRICS as unknown as string[]).default('cosine'))
    .option('--embedding-model <id>', 'embedding model id recorded in the manifest (default <table>.<embedding column>)')
    .option('--licence <text>', 'licence of the sampled data, recorded in the manifest', "the source store's (not relicensed by sampling)")
    .option('--overwrite', 'replace an existing dataset folder', false)
    .action(
      async (o: {
        from: string;
        table?: string;
        columns?: string;
        n: string;
        queries?: string;
        k: string;
        seed: string;
        stratify?: SampleStratify;
        redact: boolean;
        out?: string;
        name: string;
        metric: Metric;
        embeddingModel?: string;
        licence: string;
        overwrite: boolean;
      }) => {
        if (loadError) throw loadError;
        const { source, url } = findSampleSource(o.from, drivers);
        const table = o.table ?? source.defaults.table;
        const columns = parseColumns(o.columns, source);
        const n = int('--n', o.n, 1);
        if (n < MIN_DATASET_MEMORIES.count)
          throw new MemoryMatrixError(
            'USAGE',
            `--n ${n}: a dataset needs at least ${MIN_DATASET_MEMORIES.count} memories (after the held-out queries): check ${MIN_DATASET_MEMORIES.check} needs ${MIN_DATASET_MEMORIES.count}; the per-check minimums are ${minimums()}`,
          );
        const queries = o.queries === undefined ? Math.max(MIN_DATASET_QUERIES.count, Math.round(n / 10)) : int('--queries', o.queries, 1);
        if (queries < MIN_DATASET_QUERIES.count)
          throw new MemoryMatrixError(
            'USAGE',
            `--queries ${queries}: a dataset needs at least ${MIN_DATASET_QUERIES.count} held-out queries: check ${MIN_DATASET_QUERIES.check} replays 5 unfiltered ones per sweep point and every second query is a namespace-filter one`,
          );
        const out = path.resolve(o.out ?? path.join('golden-data', o.name));
        const say = (l: string) => process.stdout.write(l + '\n');
        const { dir, provenance: p } = await runSample({
          source,
          url,
          table,
          columns,
          n,
          queries,
          k: int('--k', o.k, 1),
          seed: int('--seed', o.seed, 0),
          stratify: o.stratify,
          redact: o.redact,
          out,
          name: o.name,
          metric: o.metric,
          embeddingModel: o.embeddingModel,
          licence: o.licence,
          overwrite: o.overwrite,
          log: say,
        });
        say(
          `sampled ${p.sample.memories} memories + ${p.sample.queries} held-out queries from ${p.source.url} ${p.source.table} (${p.source.eligibleRows} eligible of ${p.source.rows} rows), seed ${p.sample.seed}${p.sample.stratify ? `, stratified by ${p.sample.stratify}` : ''}`,
        );
        if (p.sample.stratify) for (const s of p.sample.strata) say(`  stratum ${s.stratum || '(empty)'}: ${s.sampled} of ${s.rows}`);
        if (p.redaction) {
          say(`redaction (${p.redaction.stringsChanged} of ${p.redaction.strings} strings changed; embeddings unchanged):`);
          for (const l of formatRedactionTable(p.redaction.table)) say(l);
        } else say('not redacted (pass --redact to replace personal details)');
        say(`wrote ${path.relative(process.cwd(), dir) || dir}: manifest.json, memories.jsonl/.f32, queries.jsonl/.f32, expected/oracle.jsonl, sample-provenance.json`);
      },
    );
}
