import { shownDir } from '../shown-dir';
import { ensureWritableDir } from '../report/dir';
import { lockReportDir } from '../report/lock';
import { signalExitCode } from '../baseline/interrupt';
import { randomBytes } from 'node:crypto';
import { checkFingerprint, loadGoldenDataset, MemoryMatrixError, type GoldenDataset, type MemoryCollection, type MemoryStore } from '@memory-matrix/spec';
import { dockerStatus, installGuard, redactUrl, removeRunContainers, resolveTarget, startTarget, type ImageSource, type StartedBackend } from '@memory-matrix/targets';
import { datasetDir, runIdOf } from '../run';
import { runCatalog } from '../select';
import { TOOL_VERSION } from '../version';
import { migrateCollection } from './migrate';
import { renderMigrationConsole, writeMigrationReports, type MigrationReport } from './report';
import { tamperTransform } from './tamper';

/** Options of `memory-matrix migrate`. */
export interface MigrationRunOptions {
  /** Target A (`backend@version` of the catalog). */
  from: string;
  /** Target B. */
  to: string;
  /** Golden dataset name under golden-data/ or a folder: loaded into A, its queries replayed on both. */
  dataset: string;
  reportDir: string;
  imageSource?: ImageSource;
  /** SELF-TEST of the gate: alter this memory's text on its way into B (the run must fail naming it). */
  tamper?: string;
  argv: string[];
  out?: (line: string) => void;
}

/** Records per upsert while loading the golden data into A (adapters chunk further). */
const LOAD_CHUNK = 500;

/**
 * `memory-matrix migrate --from A --to B`: start both targets with their providers, load the golden
 * dataset into a new collection on A (the run's "production" store), run the migration gate
 * (migrate.ts: export A by scan, import into B, verify B against A's export), print the table,
 * write migrate.json and migrate.md into `reportDir` (in every case but the USAGE below), and remove everything the
 * run started (on success, failure and SIGINT/SIGTERM). Exit status in the report: 0 pass,
 * 1 verification failed, 2 could not run (bad arguments, unknown target, bad golden data, a
 * backend that would not start). Throws USAGE, before anything starts and without writing a
 * report, when `reportDir` cannot be written or another memory-matrix command holds its lock
 * (report/lock.ts); the lock is this run's until its reports are written.
 */
export async function runMigration(opts: MigrationRunOptions): Promise<MigrationReport> {
  const out = opts.out ?? ((l: string) => process.stdout.write(l + '\n'));
  const startedAt = new Date();
  const t0 = performance.now();
  const side = (target: string) => ({ target, serverVersion: null, components: {}, image: null, imageId: null });
  const report: MigrationReport = {
    format: 'memory-matrix-migration',
    version: 1,
    tool: { name: 'memory-matrix', version: TOOL_VERSION, node: process.version },
    startedAt: startedAt.toISOString(),
    finishedAt: startedAt.toISOString(),
    durationMs: 0,
    argv: opts.argv.map(redactUrl),
    from: side(opts.from),
    to: side(opts.to),
    dataset: null,
    tamper:
      opts.tamper === undefined
        ? null
        : { id: opts.tamper, detected: null, note: `SELF-TEST of the gate: the text of ${opts.tamper} was altered on its way into B; the verification must fail naming it.` },
    result: null,
    verdict: 'error',
    exitCode: 2,
  };
  const started: StartedBackend[] = [];
  const cleanups: Array<() => Promise<unknown>> = [];
  const finish = () => {
    report.finishedAt = new Date().toISOString();
    report.durationMs = performance.now() - t0;
    try {
      writeMigrationReports(report, opts.reportDir);
    } catch (e) {
      process.stderr.write(`memory-matrix: cannot write migrate.json/migrate.md to ${opts.reportDir}: ${(e as Error).message}\n`);
      report.exitCode = 2;
    }
  };
  // Before anything starts, outside the report: nothing can be written there, or another command
  // (run, selftest, merge, diff, migrate) is writing its reports there (USAGE; the dir is left as it was).
  ensureWritableDir(opts.reportDir, 'reports');
  const release = lockReportDir(opts.reportDir, '--report-dir', 'migrate'); // also released when the process exits (a signal)
  let interrupted = false;
  const onSignal = (sig: NodeJS.Signals): void => {
    // From here on the run's own errors (its backends are being stopped) are not a verdict.
    interrupted = true;
    out(`\n${sig}: stopping ${started.length} backend(s) and writing the partial report…`);
    void Promise.allSettled(started.map((b) => b.stop())).finally(() => {
      Object.assign(report, { verdict: 'error', exitCode: 2, error: { code: 'INTERRUPTED', message: `interrupted by ${sig}; the report holds what completed before it` } });
      finish();
      process.exit(signalExitCode(sig));
    });
  };
  installGuard({ exitOnSignal: false });
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);
  try {
    const catalog = runCatalog();
    const fromT = resolveTarget(catalog, opts.from);
    const toT = resolveTarget(catalog, opts.to);
    report.from.target = fromT.name;
    report.to.target = toT.name;
    const dataset = loadGoldenDataset(datasetDir(opts.dataset));
    const m = dataset.manifest;
    report.dataset = { name: m.name, version: String(m.version), sha256: dataset.datasetSha256, memories: dataset.memories.length, queries: dataset.queries.length };
    if (opts.tamper !== undefined && !dataset.memories.some((r) => r.id === opts.tamper)) {
      throw new MemoryMatrixError('USAGE', `--tamper ${JSON.stringify(opts.tamper)}: no memory with that id in dataset ${m.name} (e.g. ${dataset.memories[0]?.id})`);
    }
    if (opts.tamper !== undefined) out(`SELF-TEST of the gate: --tamper ${opts.tamper} alters that memory's text on its way into ${toT.name}; this run must FAIL naming it`);
    if ([fromT, toT].some((t) => t.provider === 'container')) {
      const docker = await dockerStatus();
      if (docker.available) {
        const removed = await removeRunContainers(); // left by a run whose process died
        if (removed.length) out(`removed ${removed.length} container(s) left by an earlier run that died`);
      }
    }

    const runId = runIdOf(startedAt);
    out(`migrate ${fromT.name} (${fromT.provider}) → ${toT.name} (${toT.provider}): starting both…`);
    const starts = await Promise.allSettled([fromT, toT].map((t) => startTarget(t, { runId, imageSource: opts.imageSource, log: out })));
    for (const s of starts) if (s.status === 'fulfilled') started.push(s.value);
    const failed = starts.find((s): s is PromiseRejectedResult => s.status === 'rejected');
    if (failed) throw failed.reason;
    const [a, b] = starts.map((s) => (s as PromiseFulfilledResult<StartedBackend>).value) as [StartedBackend, StartedBackend];
    for (const [r, s] of [
      [report.from, a],
      [report.to, b],
    ] as const)
      Object.assign(r, { serverVersion: s.info.serverVersion, components: s.info.components, image: s.info.image ?? null, imageId: s.info.imageId ?? null });

    const suffix = randomBytes(3).toString('hex');
    const storeA = await a.connect();
    cleanups.push(() => storeA.close());
    const source = await loadGolden(storeA, dataset, fromT.name, fromT.index, `migrate_src_${suffix}`, out);
    cleanups.unshift(() => storeA.dropCollection(source.spec.name));
    const storeB = await b.connect();
    cleanups.push(() => storeB.close());
    const destName = `migrate_dst_${suffix}`;
    cleanups.unshift(() => storeB.dropCollection(destName));
    const readers: MemoryStore[] = [];
    cleanups.push(() => Promise.all(readers.map((s) => s.close())));

    const result = await migrateCollection({
      source: { target: fromT.name, collection: source, capabilities: fromT.capabilities, tolerances: fromT.tolerances },
      destination: {
        target: toT.name,
        store: storeB,
        reopen: async (name) => {
          const s = await b.connect();
          readers.push(s);
          return s.openCollection(name);
        },
        capabilities: { ...toT.capabilities, maxBatch: storeB.capabilities.maxBatch ?? toT.capabilities.maxBatch },
        tolerances: toT.tolerances,
        index: toT.index,
        collectionName: destName,
      },
      queries: dataset.queries,
      dataset: m.name,
      transform: opts.tamper === undefined ? undefined : tamperTransform(opts.tamper),
      log: out,
    });
    report.result = result;
    report.verdict = result.passed ? 'pass' : 'fail';
    report.exitCode = result.passed ? 0 : 1;
    if (report.tamper) report.tamper.detected = result.checks.some((c) => c.name === 'text' && c.failures.some((f) => f.startsWith(`${opts.tamper}: text differs`)));
  } catch (e) {
    const err = e as { code?: string; message?: string };
    if (!interrupted) {
      report.error = { code: err.code ?? 'INTERNAL', message: err.message ?? String(e) };
      report.verdict = 'error';
      report.exitCode = 2;
    }
  } finally {
    for (const c of cleanups) await c().catch((e: unknown) => out(`cleanup: ${(e as Error).message}`));
    await Promise.allSettled(started.map((s) => s.stop()));
    process.removeListener('SIGINT', onSignal);
    process.removeListener('SIGTERM', onSignal);
  }
  if (interrupted) return new Promise<MigrationReport>(() => undefined); // the signal handler writes the report and exits
  finish();
  release();
  out(renderMigrationConsole(report));
  out(`reports: ${shownDir(opts.reportDir)}/{migrate.json,migrate.md}`);
  return report;
}

/** A's collection: the golden memories in chunks, then A's index (the run's "production" store). */
async function loadGolden(
  store: MemoryStore,
  dataset: GoldenDataset,
  target: string,
  index: import('@memory-matrix/spec').IndexConfig,
  name: string,
  out: (l: string) => void,
): Promise<MemoryCollection> {
  const m = dataset.manifest;
  const t = performance.now();
  const coll = await store.createCollection({ name, dim: m.dim, metric: m.metric, index, embeddingModel: m.embeddingModel.id });
  checkFingerprint(m, coll.spec, target);
  for (let i = 0; i < dataset.memories.length; i += LOAD_CHUNK) await coll.upsert(dataset.memories.slice(i, i + LOAD_CHUNK));
  await coll.buildIndex();
  out(`loaded ${dataset.memories.length} memories of ${m.name} into ${target} collection ${name} (A, the run's production store) in ${Math.round(performance.now() - t)} ms`);
  return coll;
}
