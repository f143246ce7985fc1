/**
 * @memory-matrix/spec/testing — test support for adapter packages, kept out of the main entry
 * (`@memory-matrix/spec`) so nothing a runtime imports reads the catalog or expects jest's
 * globals: `conformanceSuite`, an adapter's conformance test in a few lines (conformance-suite.ts),
 * and what it resolves a catalog target into.
 */
export { conformanceSuite, type ConformanceSuiteOptions } from './conformance-suite';
export { readCatalogTarget, type CatalogTarget, type CatalogTargetEntry } from './catalog-target';
export { openEmbeddedEngine, resolveSuiteTarget, type SuiteEngine, type SuiteTarget } from './target-cell';
