/** The adapter kit (docs/adding-a-backend.md "The kit"): what every adapter otherwise writes again, one file per role. */
// Adapter kit, collection side (issue 33): tie-complete top-k, minScore, recall order, last-write-wins, filter negation normal form, history row keys.
export { byScoreThenId, keepMinScore, lastWriteWins, TIE_MARGIN, tieCompleteTopK, tieCompleteTopKSync, tieGroupCut, type TopKOptions } from './top-k';
export { foldNegationNormalForm, toNegationNormalForm, type FilterLeaf, type NnfExpr, type NnfFold } from './negation-normal-form';
export { rowAppend, rowHistoryKeys, rowRawAppend, type RowAppend } from './history-keys';
// The adapter kit, part B (issue 33): record validation, store context, markers, versions (src/kit/).
export { COLLECTION_NAME_RE, invalidInput, MAX_SPEC_DIM, recordValidators, validateCollectionName, validateSpecBasics, type IdsValidator, type RecordValidators, type SpecLimits } from './validate';
export { codeByWords, errorText, KitStoreContext, runWrapped, SQLITE_LIKE, wrapBackendErrorIn, type ContextStyle } from './context';
export { closeLocalStore, ownedTempDir, removeOwnedDir, tempDirEngine, type TempDirEngine } from './temp-dir-engine';
// The adapter kit, small shared roles (issue 33): collection markers, the SQL filter compiler, distance → score, driver heads.
export { collectionMarker, collectionMarkerJson, indexTypeIn, readCollectionMarker, specOfMarker, type CollectionMarker, type MarkerRules } from './collection-marker';
export { compileSqlFilter, SQL_RANGE_OP, type SqlComparison, type SqlFilterDialect, type SqlRangeOp } from './sql-filter';
export { distanceToCanonical, type DistanceForm } from './distance-scores';
export { filterCannot, instantAsMicros, pushdownFilterExpr } from './filter-pushdown';
// The adapter kit, collection base (issue 33): MemoryCollection's common steps over the store's primitives.
export { checksFrom, KitCollection, type CollectionChecks, type CollectionStyle, type RankSource } from './collection-base';
// The adapter kit, last shared pieces (issue 33): the capability head of a vector adapter, records carried in a layer's metadata, operator-tree filters.
export { vectorCapabilities, VECTOR_STORE_FLAGS } from './vector-capabilities';
export { carriedMetadata, checkCarriedRecords, takeCarried, type CarriedFields, type CarriedKeys, type CarriedRecordRules } from './layer-records';
export { compileOperatorTree, type OperatorTreeStyle, type TreeLeafOperator, type TreeNode } from './operator-tree';
export { checkLayerQuery, LayerCollection, type LayerChecks } from './layer-collection';
export { recordOfRow, type MemoryRow } from './memory-row';
