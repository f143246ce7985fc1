import { readFileSync } from 'node:fs';
import path from 'node:path';
import { DEFAULT_DATASET, GOLDEN_DATA_DIR } from '@memory-matrix/golden-data';
import type { CheckDefinition } from '../checks/check';
import { registerConformance } from '../conformance/register';
import type { TestRuntime } from '../conformance/runtime';
import { testSuiteChecks } from '../conformance/test-checks';
import type { BackendDriver } from '../driver';
import { MemoryMatrixError } from '../errors';
import { parseExpectation } from '../expectation';
import { loadGoldenDataset } from '../golden/load';
import type { IndexConfig } from '../types';
import { readCatalogTarget } from './catalog-target';
import { openEmbeddedEngine, resolveSuiteTarget, type SuiteEngine, type SuiteTarget } from './target-cell';

/** Options of `conformanceSuite`. Only `target` and `driver` are required. */
export interface ConformanceSuiteOptions {
  /** A catalog target, `backend@version` (`sqlite@3.53-vec0.1.9`): its entry gives engine, index, tolerances, capability overrides and adapterOptions. */
  target: string;
  /** The adapter's driver (`defineDriver`): its `name` must be the entry's `backend`; its capabilities, index schemas, adapterOptions schema and embedded engines are used. */
  driver: BackendDriver<unknown>;
  /** A YAML file with the target (a memory-matrix.yaml or a catalog of the same format), read over the built-in catalog. Default: the built-in catalog alone. */
  catalog?: string;
  /** A golden dataset of `@memory-matrix/golden-data` (`email-sample`) or a dataset folder's path. Default `agent-memories`. */
  dataset?: string;
  /** The index the golden collection is built with instead of the catalog's (`{ type: 'none' }`: keep to the exact path); parsed by the driver's schema. */
  index?: IndexConfig;
  /** Starts the target when it is not embedded (a container, a client over a server): resolves a started engine, closed after the suite. Default: the entry's embedded engine. */
  open?: (target: SuiteTarget) => Promise<SuiteEngine>;
  /** The checks registered. Default `testSuiteChecks()` (`MM_CHECKS`: unset, `all`, or ids / names). */
  checks?: readonly CheckDefinition[];
  /** Checks registered as skipped, check id → reason (registerConformance `skip`). */
  skip?: Readonly<Record<string, string>>;
  /** Findings the adapter README measures, check id → the pattern every failure must match (registerConformance `findings`). */
  findings?: Readonly<Record<string, RegExp>>;
  /** Intermittent findings with a catalog knownFailures entry, check id → pattern (registerConformance `intermittentFindings`). */
  intermittentFindings?: Readonly<Record<string, RegExp>>;
  /**
   * Profiles that must list the target (`['default']`): one more test, failing when one of them
   * stops listing it, so the checks a jest suite leaves out (`testSuiteChecks`) still run on this
   * target in `pnpm matrix`. Default none (a target in no profile).
   */
  profiles?: readonly string[];
  /** Where to register. Default jest's globals (`describe`, `test`, `beforeAll`, `afterAll`), read when called. */
  runtime?: TestRuntime;
}

/** jest's globals as a `TestRuntime`; INVALID_INPUT when one is missing (not under jest: pass `runtime`). */
function jestGlobals(): TestRuntime {
  const g = globalThis as unknown as Partial<TestRuntime>;
  const missing = (['describe', 'test', 'beforeAll', 'afterAll'] as const).filter((k) => typeof g[k] !== 'function');
  if (missing.length) throw new MemoryMatrixError('INVALID_INPUT', `conformanceSuite: no ${missing.join(', ')} global (not under jest?): pass options.runtime`);
  return { describe: g.describe!, test: g.test!, beforeAll: g.beforeAll!, afterAll: g.afterAll! };
}

const mapOf = <V>(r: Readonly<Record<string, V>> | undefined): ReadonlyMap<string, V> | undefined => (r ? new Map(Object.entries(r)) : undefined);

/**
 * Register the conformance suite of one catalog target on jest (or `options.runtime`): an
 * adapter's test/spec.test.ts is then
 *
 * ```ts
 * import { conformanceSuite } from '@memory-matrix/spec/testing';
 * import { sqliteDriver } from '../src';
 * conformanceSuite({ target: 'sqlite@3.53-vec0.1.9', driver: sqliteDriver, profiles: ['default'] });
 * ```
 *
 * Where each input comes from (the sources `pnpm matrix` reads):
 * - the target's entry: `matrix/targets.yaml` of `@memory-matrix/catalog` (`options.catalog` over it);
 * - capabilities: `driver.capabilities` with the entry's `capabilities:`; `faults` and `upgrade`
 *   false (a jest suite has no fault control: C15, C16, C23 skip naming `faults`);
 * - tolerances: `DEFAULT_TOLERANCES`, the catalog's `defaults.tolerances`, the entry's `tolerances`;
 * - index: `options.index`, else the entry's, else `defaults.index`, parsed by the driver's schema;
 * - adapterOptions: the entry's, parsed by `driver.adapterOptions`;
 * - the store: the entry's embedded engine (`engine` of `driver.embedded`, no data directory:
 *   its temporary place goes at close), or `options.open` for any other provider;
 * - the dataset and its oracle expectation: `@memory-matrix/golden-data`'s `<dataset>/` and
 *   `<dataset>/expected/oracle.jsonl`, loaded (and their checksums verified) when this is called.
 * Registers one `describe` `<target> × <dataset>` with one test per check (registerConformance:
 * skips name the capability), plus the profile test when `options.profiles` is given.
 * Throws when called (nothing registered): UNKNOWN_TARGET (not in the catalog, with the closest
 * names); INVALID_INPUT naming file and key (the entry's backend is not the driver's, a capability
 * override, tolerance, index or adapterOptions its schema refuses; a `skip`/`findings` id that is
 * no check; no jest globals); GOLDEN_MISSING / GOLDEN_CHECKSUM / GOLDEN_INVALID (the dataset or its
 * expectation). In the suite's setup (the check tests then fail naming it): INVALID_INPUT for a
 * target that is not embedded without `open`, or an unknown engine; TARGET_UNAVAILABLE from the
 * engine's preflight (its packages not installed as pinned).
 */
export function conformanceSuite(options: ConformanceSuiteOptions): void {
  const rt = options.runtime ?? jestGlobals();
  const entry = readCatalogTarget(options.target, options.catalog);
  const driver = options.driver;
  const target = resolveSuiteTarget(entry, driver, options.index);
  const checks = options.checks ?? testSuiteChecks();
  const known = new Set(checks.map((c) => c.id));
  for (const [what, r] of [
    ['skip', options.skip],
    ['findings', options.findings],
    ['intermittentFindings', options.intermittentFindings],
  ] as const)
    for (const id of Object.keys(r ?? {}))
      if (!known.has(id)) throw new MemoryMatrixError('INVALID_INPUT', `conformanceSuite: ${what}.${id}: no such check among the registered ones (${[...known].join(', ')})`);
  const datasetDir = options.dataset === undefined ? path.join(GOLDEN_DATA_DIR, DEFAULT_DATASET) : path.isAbsolute(options.dataset) ? options.dataset : path.join(GOLDEN_DATA_DIR, options.dataset);
  const dataset = loadGoldenDataset(datasetDir);
  const expectationFile = path.join(dataset.dir, 'expected', 'oracle.jsonl');
  let text: string;
  try {
    text = readFileSync(expectationFile, 'utf8');
  } catch (e) {
    throw new MemoryMatrixError('GOLDEN_MISSING', `conformanceSuite: no oracle expectation ${expectationFile} for dataset ${dataset.manifest.name} (pnpm matrix --update-expected records it)`, {
      cause: e,
    });
  }
  const expectation = parseExpectation(text, expectationFile);
  let engine: SuiteEngine | undefined;
  const { metric, dim } = dataset.manifest;
  registerConformance(
    rt,
    { target: target.name, dataset: dataset.manifest.name, capabilities: target.capabilities, shape: { metric, dim } },
    async () => {
      engine = options.open ? await options.open(target) : await openEmbeddedEngine(entry, driver, target.adapterOptions);
      const live = engine;
      return { target: target.name, capabilities: target.capabilities, tolerances: target.tolerances, index: target.index, dataset, expectation, connect: () => live.connect() };
    },
    {
      teardown: async () => engine?.close(),
      checks,
      ...(options.skip ? { skip: mapOf(options.skip) } : {}),
      ...(options.findings ? { findings: mapOf(options.findings) } : {}),
      ...(options.intermittentFindings ? { intermittentFindings: mapOf(options.intermittentFindings) } : {}),
    },
  );
  if (options.profiles?.length) {
    const wanted = options.profiles;
    rt.test(`pnpm matrix runs every check on ${target.name}: it is in profile${wanted.length > 1 ? 's' : ''} ${wanted.join(', ')}`, async () => {
      const out = wanted.filter((p) => !entry.profiles.get(p)?.includes(target.name));
      if (out.length)
        throw new MemoryMatrixError('INVALID_INPUT', `${target.name} is not in profile ${out.join(', ')} of ${entry.file}: the checks testSuiteChecks() leaves out no longer run on it in pnpm matrix`);
    });
  }
}
