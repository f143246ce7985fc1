import type { ZodType, ZodTypeDef } from 'zod';
import type { MemoryStore } from './adapter';
import type { Capabilities } from './capabilities';
import type { ConnectOptions } from './connect-options';
import { checkDeclaredIndexes, type IndexSchema } from './index-config';
import type { SampleSource } from './sample-layout';
import type { Metric } from './types';
import type { ContainerKind, EmbeddedFacet, LocalFacet, UrlFacet } from './driver-facets';

/**
 * The driver contract: everything one backend (or one client library over a backend, or a
 * user's own memory module) brings to the matrix. An adapter package exports one `BackendDriver`;
 * the registry (packages/targets/src/registry.ts) lists the drivers, and the catalog
 * (matrix/targets.yaml) takes its backend names and container kinds from it. The providers
 * (`embedded`, `local`, `container`, `url`) are generic: each works for any driver that offers
 * the matching facet (driver-facets.ts), and a target whose driver lacks it is a catalog error.
 *
 * This module is types plus a few tiny helpers, so an adapter package can implement a driver
 * without depending on packages/targets (which depends on the adapters through the registry).
 * Generic machinery (containers, volumes, labels, exit guards, start slots, readiness polling,
 * version checks against the catalog's `expect`) stays in packages/targets; a facet only states
 * its backend's facts and speaks its protocol.
 *
 * Errors: facet methods throw `MemoryMatrixError` — TARGET_UNAVAILABLE when the server cannot be
 * used (not installed as pinned, not ready, no such engine), BACKEND_ERROR when a server call
 * fails, INVALID_INPUT for a bad setting or option — naming the `where` they are given.
 */
export interface BackendDriver<AdapterOptions = Record<string, unknown>> {
  /** Backend name, the part before `@` of a target (`toy@1` → `toy`); `[a-z][a-z0-9-]*`. */
  readonly name: string;
  /** One line for docs and `--help`, e.g. `In-memory toy store`. */
  readonly description: string;
  /** Capabilities the adapter declares before it connects (registration needs them to register skips). */
  readonly capabilities: Capabilities;
  /** Native → canonical score conversion of this backend, with its formula and source. */
  readonly scores: ScoreConversion;
  /**
   * Schema of the catalog's `adapterOptions` for this driver (e.g. Redis `quantization`); absent =
   * the driver takes none and any `adapterOptions` is a catalog error. Parsed once at catalog load
   * (failure: exit 2 naming the file, line and field); facets receive the parsed value.
   */
  readonly adapterOptions?: ZodType<AdapterOptions, ZodTypeDef, unknown>;
  /**
   * The index types this driver's targets may name (`index: { type: <key>, …params }`), each with
   * the zod schema of the whole index object (e.g. `{ hnsw: hnswIndexSchema }`, index-config.ts);
   * `none` is always offered and never declared. Absent = `none` only. The catalog parses a
   * target's index with the schema of its type at load (exit 2 naming the file, line and key; an
   * unknown type names the types offered); `capabilities.annIndexes` must be declared types.
   */
  readonly indexes?: Readonly<Record<string, IndexSchema>>;
  /** The driver can run its server in a container (provider `container`). */
  readonly container?: ContainerKind<AdapterOptions>;
  /** The driver can run its server inside this process (provider `embedded`). */
  readonly embedded?: EmbeddedFacet<AdapterOptions>;
  /** The driver can run its server as a local process on this host (provider `local`). */
  readonly local?: LocalFacet<AdapterOptions>;
  /** The driver can run against a server the user names by URL (provider `url`, `backend@url=<url>`). */
  readonly url?: UrlFacet<AdapterOptions>;
  /**
   * The driver is a CLIENT over another driver's server (a client library such as LangChain.js, or
   * a user's own memory module): its targets name a server target of the catalog
   * (`server: pgvector@pg17`) instead of a provider, and the server is started, faulted and stopped
   * exactly as that target; only the stores are this driver's (see `ClientFacet`).
   */
  readonly client?: ClientFacet<AdapterOptions>;
  /**
   * The driver can read a user's existing store, read-only, for `memory-matrix sample` (which
   * samples, redacts and writes a golden dataset from it; the generic part lives in
   * packages/runner/src/sample). Absent = `sample --from` never picks this driver.
   */
  readonly sampleSource?: SampleSource;
}

/**
 * How a client reaches a started server: a connection URL on loopback, as the client library's own
 * documentation takes it. It changes when a fault instance restarts (new mapped port): ask again
 * after every restart (`StartedBackend.address`, `FaultTarget.address`).
 */
export interface ServerAddress {
  /** `backend@version …` of the server instance (leads every message about it). */
  where: string;
  /** The server driver's name, e.g. `pgvector`. */
  backend: string;
  /**
   * The URL, e.g. `postgres://postgres@127.0.0.1:5433/postgres`, `redis://127.0.0.1:6380`,
   * `http://127.0.0.1:8000` — always loopback (or the user's own URL for a `url` target).
   */
  url: string;
}

/**
 * A client library (or a user's own memory module) over the server of another driver. The
 * generic client provider (packages/targets/src/client.ts) starts the server target the catalog
 * names, merges `preflight`'s versions into the cell's reported components (checked against the
 * client target's `expect`), and opens every store with `connect`: the cell's checks, fault
 * instances (C15, C23 kill / pause the SERVER under the client) and C16's older server alike.
 * Errors: `preflight` throws TARGET_UNAVAILABLE naming `where`; `connect` BACKEND_ERROR.
 */
export interface ClientFacet<AdapterOptions = Record<string, unknown>> {
  /** Names of the server drivers this client speaks to, e.g. `['pgvector']` (a catalog check). */
  readonly servers: readonly string[];
  /** One line for the cell's server line, e.g. `LangChain.js PGVectorStore (@langchain/community 1.1.29)`. */
  readonly description: string;
  /**
   * Synchronous: the client's packages are installed as pinned. Returns their versions as
   * components (`{ '@langchain/community': '1.1.29' }`). `adapterOptions`: the client target's
   * parsed `adapterOptions`, for a driver that runs one of several client versions (e.g. a second
   * major installed under an npm alias) and reports the one the target runs. Throws
   * TARGET_UNAVAILABLE naming `where`.
   */
  preflight(where: string, adapterOptions?: AdapterOptions): Record<string, string>;
  /**
   * A NEW store on a new client of the server at `server`. `opts.clientName` must reach the server
   * as the session's name where the protocol has one (pg `application_name`, Redis `CLIENT
   * SETNAME`): the fault checks drop connections by it. `adapterOptions`: the client target's
   * parsed `adapterOptions`.
   */
  connect(server: ServerAddress, opts: ConnectOptions | undefined, adapterOptions: AdapterOptions | undefined): Promise<MemoryStore>;
}

/** The provider names a driver can offer (one facet each). */
export type ProviderName = 'container' | 'embedded' | 'local' | 'url';

/** The providers `driver` offers, in a fixed order (for messages: "offers container, url"). */
export function offeredProviders(driver: Pick<BackendDriver<never>, ProviderName>): ProviderName[] {
  return (['container', 'embedded', 'local', 'url'] as const).filter((p) => driver[p] !== undefined);
}

/** Native → canonical score conversion (canonical: cosine similarity, inner product, or −Euclidean distance; higher is more similar). */
export interface ScoreConversion {
  /** The formula per metric and its source, e.g. `cosine distance d → 1 − d (<backend docs>)`. */
  readonly formula: string;
  /** Convert one native value (distance or similarity as the backend returns it) for `metric`. Plain arithmetic: NaN in → NaN out. */
  toCanonical(metric: Metric, native: number): number;
}

/**
 * Define a driver: identity at run time, after checking the name's shape and that every
 * `capabilities.annIndexes` entry is a declared index type (`indexes`, index-config.ts
 * `checkDeclaredIndexes`). Throws TypeError for a malformed name or an undeclared index type, at
 * module load of the adapter package (a programming error, not user input). A missing
 * `capabilities` or `annIndexes` is not checked here: the contract check reports it.
 */
export function defineDriver<O>(driver: BackendDriver<O>): BackendDriver<O> {
  if (!/^[a-z][a-z0-9-]*$/.test(driver.name)) throw new TypeError(`driver name must match [a-z][a-z0-9-]*, got ${JSON.stringify(driver.name)}`);
  // A driver without capabilities (or without annIndexes) is left to the contract check, which
  // names the missing member at the user's file:line (runner driver-module.ts); crashing here on
  // `undefined.annIndexes` would hide that under a load error.
  const annIndexes = (driver.capabilities as Partial<BackendDriver<O>['capabilities']> | undefined)?.annIndexes;
  if (Array.isArray(annIndexes)) checkDeclaredIndexes(driver.name, annIndexes, driver.indexes);
  return driver;
}
