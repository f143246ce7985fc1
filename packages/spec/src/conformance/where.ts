import type { FailureWhere } from '../comparator';
import type { Metric, RecallFilter, RecallQuery } from '../types';

/** Whether `filter` restricts anything (a namespace, kind, metadata or `where` condition); undefined or `{}` does not. */
export function isFiltered(filter: RecallFilter | undefined): boolean {
  return filter !== undefined && (filter.namespaces !== undefined || filter.kinds !== undefined || filter.metadata !== undefined || filter.where !== undefined);
}

/**
 * The where-fields (comparator `FailureWhere`) of a failure about a recall with `q`'s `filter` and
 * `minScore`, sent on `scan` to a collection of `metric`: what `knownFailures` scopes match on
 * (runner report/known.ts).
 */
export function whereOf(q: Pick<RecallQuery, 'filter' | 'minScore'>, scan: 'exact' | 'index', metric: Metric): FailureWhere {
  return { scan, metric, filtered: isFiltered(q.filter), threshold: q.minScore !== undefined };
}
