import { MemoryMatrixError } from '@memory-matrix/spec';

/**
 * Whether a reported version satisfies an expected one: equal, or `want` is a prefix that ends
 * at a dot boundary (`16` and `16.4` match `16.4`; `16.4` does not match `16.40`).
 */
export function versionMatches(got: string, want: string): boolean {
  return got === want || got.startsWith(`${want}.`);
}

/**
 * Compare reported components with the catalog's `expect`; throws TARGET_UNAVAILABLE listing
 * every mismatch (`expected postgres 16.4, server reports 18.6`) so a stale engine or a wrong
 * catalog entry fails the cell loudly instead of testing another version.
 */
export function checkExpected(components: Record<string, string>, expect: Record<string, string> | undefined, where: string): void {
  const wrong = Object.entries(expect ?? {})
    .filter(([k, want]) => components[k] === undefined || !versionMatches(components[k]!, want))
    .map(([k, want]) => `expected ${k} ${want}, server reports ${components[k] ?? 'none'}`);
  if (wrong.length) throw new MemoryMatrixError('TARGET_UNAVAILABLE', `${where}: ${wrong.join('; ')}`);
}
