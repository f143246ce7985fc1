/**
 * @memory-matrix/spec — the public API (README.md: "Public API"). Every name here is used by
 * another package or its tests, or appears in the signature of one that is; everything else is
 * internal, and internal modules import each other directly, never through this file.
 * Groups, in order: errors; the contract; capabilities; canonical scores; input rules; filters
 * and scans; time and decay; chat history; store processes; durability, faults and eviction; golden data;
 * expectation; oracle; comparator and statistics; record differences; conformance registration;
 * checks.
 */

// Errors: stable codes, asserted by code (never instanceof across packages); "did you mean …?" for an unknown name.
export { MemoryMatrixError, hasCode, isMemoryMatrixError, type ErrorCode } from './errors';
export { didYouMean } from './did-you-mean';

// The contract every adapter implements, and the values it exchanges.
export type { IndexInEffect, MemoryCollection, MemoryStore, ScanOptions } from './adapter';
export { inAskedOrder } from './get-order';
export { yieldToEventLoop } from './yield';
export { calibrateHost, CALIBRATION_TTL_MS, describeLimit, hostCalibration, hostFactorOverride, MAX_HOST_FACTOR, REFERENCE_CPU_MS, scaledLimitMs, scaledTimeouts, type HostCalibration } from './host';
export { installedPackageVersion, pinnedPackageVersions, type VersionLookup } from './package-versions';
export {
  MAX_RECALL_K,
  MEMORY_KINDS,
  METRICS,
  type CollectionSpec,
  type IndexConfig,
  type MemoryKind,
  type MemoryRecord,
  type Metadata,
  type MetadataValue,
  type MetadataScalar,
  type FlatMetadata,
  type Metric,
  type RecallFilter,
  type RecallHit,
  type RecallQuery,
  type ServerInfo,
  type TimeDecay,
} from './types';
export {
  checkDeclaredIndexes,
  HNSW_ONLY_INDEXES,
  hnswIndexSchema,
  isHnsw,
  isIvfflat,
  ivfflatIndexSchema,
  noneIndexSchema,
  offeredIndexTypes,
  type HnswIndex,
  type IndexSchema,
  type IvfflatIndex,
} from './index-config';

// Capabilities and tolerances of a target.
export {
  capabilities,
  capabilitiesSchema,
  capabilityOverridesSchema,
  DEFAULT_CAPABILITIES,
  DEFAULT_TOLERANCES,
  offersCapability,
  PROVIDER_CAPABILITIES,
  READ_YOUR_WRITES_LEVELS,
  VECTOR_CAPABILITIES,
  type Capabilities,
  type ReadYourWrites,
  type Tolerances,
} from './capabilities';
export { missingCapabilities } from './capabilities-missing';

// Drivers: what one backend (or client, or a user's module) brings, and how it is started.
export { defineDriver, offeredProviders, type BackendDriver, type ClientFacet, type ProviderName, type ScoreConversion, type ServerAddress } from './driver';
export type {
  ContainerEndpoint,
  ContainerKind,
  EmbeddedEngine,
  EmbeddedFacet,
  EmbeddedInstance,
  Endpoint,
  ExecResult,
  FaultKindControls,
  LocalEndpoint,
  LocalEngine,
  LocalFacet,
  LocalFaultControls,
  LocalLaunch,
  ReportedVersions,
  UrlFacet,
  UrlInstance,
} from './driver-facets';
export {
  SAMPLE_FIELDS,
  sampleMappedColumns,
  type SampleColumnMapping,
  type SampleField,
  type SampleFieldSource,
  type SampleLayout,
  type SampleLayoutColumn,
  type SampleLayoutReference,
  type SampleRow,
  type SampleSnapshot,
  type SampleSource,
  type SampleSourceInfo,
  type SampleStratify,
  type SampleTableColumn,
  type SampleTableReference,
  type SampleTableShape,
} from './sample-layout';

// Canonical scores: the float64 reference and shared helpers (each driver converts its own native scores).
export { FLOAT32_MAX, negativeSqrtOfSquared, referenceScore, validateVector } from './scores';
// The tolerance model: allowed |score − oracle score| per pair from metric, dimension and norms.
export {
  dimensionFactor,
  FLOAT32_SUBNORMAL_SPACING,
  FLOAT32_UNIT_ROUNDOFF,
  gammaN,
  pairTolerance,
  pairTolerances,
  probabilisticGammaN,
  REFERENCE_DIM,
  tieBetween,
  toleranceScale,
  underflowTerm,
  uniformTolerances,
  vectorNorm,
  vectorPairTolerance,
} from './tolerance';
export type { DeclaredTolerances, L2Form, QueryTolerances, TieTolerance } from './tolerance';

// Input rules adapters enforce before anything is written.
export { identifierProblem, metadataKeyProblem, metadataNumberProblem, stringProblem } from './stored-values';
export {
  checkMetadata,
  checkStoredText,
  flatMetadata,
  refuseMetadataShapes,
  validateDeleteFilter,
  validateIdList,
  validateMemoryRecord,
  validateRecallFilter,
  validateRecallQuery,
  type InputRules,
} from './record-validation';

// Filters and keyset scans. The filter language (docs/filters.md): AST, parser, reference
// evaluator, surface form and operator lists; the golden filter set (golden-data/FORMAT.md "Filter sets").
export { matchesFilter, type FilterableRecord } from './filter';
export {
  FILTER_OPERATORS,
  fieldName,
  isFilterInstant,
  RANGE_OPERATORS,
  type FilterDocument,
  type FilterExpr,
  type FilterField,
  type FilterInstant,
  type FilterJson,
  type FilterOperator,
  type FilterRangeValue,
  type FilterScalar,
  type RangeOperator,
} from './filter-lang/types';
export { parseFilter } from './filter-lang/parse';
export { evaluateFilter } from './filter-lang/evaluate';
export { filterFields, filterOperators, filterToSurface, recallFilterExpr, unsupportedFilterOperators, validateFilterExpr } from './filter-lang/describe';
export { DERIVED_FILTER_KEYS, deriveFilterFields, FILTER_DERIVATION, filterSetMetadata } from './filter-set/derive';
export { buildFilterSet, FILTER_SET_K, FILTER_SET_QUERY_COUNT, filterSetDocuments, pickFilterQueries, readFilterCases, type FilterCaseSource } from './filter-set/build';
export { filterShapes, loadFilterSet, parseFilterSet, serializeFilterSet, type FilterCase, type FilterSet, type FilterSetHeader, type FilterShape } from './filter-set/file';
export { compareIdsBytes, keysetPage, MAX_SCAN_LIMIT, scanAll, validateScanOptions, type ScanAllResult } from './scan';
export { scanConformance } from './scan-conformance';

// Time and decay: canonical instants, decay validation, exact re-ranking by decayed score.
export { addMs, formatInstant, isCanonicalInstant, parseInstant, type Instant } from './time';
export { validateDecay, type DecayRequest } from './decay';
export { rerankWithDecay, type DecayCandidate, type DecayRerank } from './decay-rerank';

// Chat history: the contract, the versioned payload codec (C20), argument checks and the window rule.
export { CHAT_ROLES, type ChatHistory, type ChatMessage, type ChatRole, type HistoryKey, type HistoryOptions, type HistoryWindow } from './history';
export { codePoints, decodeChatMessage, encodeChatMessage, HISTORY_PAYLOAD_VERSION, validateChatMessage } from './history-payload';
export { DEFAULT_HISTORY_PREFIX, HISTORY_SESSION_RE, outsideWindow, rowHistorySession, validateHistoryWindow, validateRawPayloads, validateReadLast, type RowHistorySession } from './history-rows';

// Session snapshots (C26) and how another process reopens a store.
export { hasSnapshots, processRecipeOf, type ProcessRecipe, type ProcessReopenable, type SessionSnapshots, type SnapshotChatHistory, type SnapshotInfo } from './snapshots';

// Store processes: an embedded store served by a process the run starts and kills (faultProcess engines).
export { ProcessStore } from './store-process/client';
export { storeProcessBundle, type BundleBuild, type StoreProcessBundle } from './store-process/bundle';
export { storeProcessEngine, type StoreProcessEngine, type StoreProcessEngineSpec } from './store-process/engine';
export { serveStoreProcess, type StoreProcessServer, type StoreProcessService } from './store-process/server';

// Durability, fault control and eviction policies.
export {
  durabilityFigures,
  readDurabilityFigures,
  type ClientTimeouts,
  type ConnectOptions,
  type DurabilityConfiguration,
  type DurabilityFigures,
  type FaultControl,
  type FaultTarget,
  type WriteLockHold,
} from './durability';
export type { MemoryPolicy, MemoryPolicyState } from './eviction';

// Golden data: read (sha256-checked), write, fingerprint guard.
export type { GoldenDataset, GoldenPurpose, GoldenQuery } from './golden/types';
export type { GoldenManifest } from './golden/manifest';
export { loadGoldenDataset } from './golden/load';
export { datasetNamesIn } from './golden/manifest';
export { readGoldenFile } from './golden/read';
export { writeGoldenDataset, type GoldenDatasetInput } from './golden/write';
export { checkFingerprint } from './golden/fingerprint';

// Expectation: the recorded oracle results a run compares against.
export { parseExpectation, serializeExpectation, type Expectation, type ExpectationEntry, type ExpectationHeader, type ExpectationMeta } from './expectation';

// Exact oracle (float64 brute force).
export { ExactOracle, type OracleInput, type OracleResult } from './oracle';

// Comparator and statistics.
export {
  compareHits,
  tieGroupViolations,
  type TieGroupViolation,
  tieGroups,
  type CompareContext,
  type CompareOptions,
  type Comparison,
  type ComparisonFailureKind,
  type Failure,
  type FailureWhere,
  type FailureKind,
} from './comparator';
export { kendallTau, recallAtK, summarize, type Summary } from './stats';

// Record differences (migration gate, C01-style byte-exact comparison).
export { diffRecords, type RecordDifference, type RecordField, type VectorComparison } from './record-diff';

// Conformance: register the suite into a test runtime, the live cell, results.
export { registerConformance, type RegisterOptions } from './conformance/register';
export { datasetFit, fitCapabilities, fitIndex, fitNote, fitSkipReason, type DatasetFit, type DatasetShape } from './conformance/fit';
export { TEST_SUITE_CHECK_IDS, testSuiteChecks } from './conformance/test-checks';
export { DEFAULT_LOAD_SEED, LOAD_ORDER_METHOD, MAX_LOAD_SEED, mulberry32, parseLoadSeed, seededShuffle } from './load-order';
export { LIVENESS_LIMIT_MS, probeLiveness } from './conformance/liveness';
export { checkLimitMs, DEFAULT_CELL_LIMITS, howToRaise, LIMIT_ENV, limitMessage, limitOverrides, resolveLimits, runWithin, type CellLimits } from './conformance/limits';
export { armLimitTimer, MAX_LIMIT_MS, MAX_LIMIT_TEXT, timerDelayMs, withinLimit } from './timer';
export { blockedBy, type PreparedStep } from './conformance/prepare';
export { LiveCell, toRecallQuery, type CellConfig, type ProgressPhase, type QueryRun, type ScanMode, type SpawnedInstance } from './conformance/cell';
export { isFiltered, whereOf } from './conformance/where';
export type {
  CheckResult,
  CheckStatus,
  Figure,
  FigureTable,
  JudgedQuery,
  JudgedReplay,
  KnownFailureEntry,
  KnownFailureMatch,
  KnownFailureMiss,
  KnownFailureScope,
  KnownFailureVerdict,
  ResultSink,
} from './conformance/result';
export type { TestBody, TestFunction, TestRuntime } from './conformance/runtime';

// Checks: the catalogue, selection, dataset minimums, and helpers other packages' tests share.
export { CHECKS, selectChecks } from './checks/index';
export type { CheckDefinition, CheckOutcome } from './checks/check';
export type { ReleaseBaseline } from './checks/c05-baseline';
export { CHECK_MIN_MEMORIES, MIN_DATASET_MEMORIES, MIN_DATASET_QUERIES } from './checks/minimums';
export { datasetFilterSet, filterSetPath, OPERATOR_TABLE_TITLE, operatorTable, planC31, type C31Plan, type OperatorStatus } from './checks/c31-cases';
export { compareHistorySessions, type HistoryBaseline, type HistoryProblem } from './checks/c16-history';
export { indexedWithoutRecord } from './checks/c15-audit';
export { windowReference } from './checks/helpers/history';
export { oracleOver } from './checks/helpers/placement';
export { deleteVerified, type CheckedDelete, type DeleteVerdict } from './checks/helpers/delete-verified';
export { makeDirs } from './fs-dirs';
export {
  isPlainObject,
  MAX_METADATA_DEPTH,
  metadataKindOf,
  metadataPathJoin,
  metadataValueDifference,
  metadataValueEqual,
  metadataValueProblem,
  sortedMetadataValue,
  type MetadataShape,
  type MetadataValueProblem,
} from './metadata-value';
// The adapter kit (issue 33): collection side (top-k, filters' negation normal form, history keys) and store side (validation, context, engine).
export * from './kit';
