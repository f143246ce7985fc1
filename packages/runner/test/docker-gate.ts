import { spawnSync } from 'node:child_process';
import { loadCatalog, recipeOf, recipeTag, type ResolvedTarget } from '@memory-matrix/targets';

/**
 * Why container tests cannot run here ('' when they can): no Docker engine, or an offline image
 * not built yet (`pnpm matrix images build`). Decided synchronously, because jest registers tests
 * synchronously. Under CI=true a missing engine or image is a failure, never a skip.
 */
export function containerGate(targets: ResolvedTarget[]): string {
  if (spawnSync('docker', ['info'], { timeout: 10_000 }).status !== 0) return 'no Docker engine answers (run .ci/docker-up.sh)';
  const missing = targets
    .filter((t) => t.provider === 'container')
    .map((t) => (recipeOf(t) ? recipeTag(recipeOf(t)!) : (t.image ?? t.name)))
    .filter((img) => spawnSync('docker', ['image', 'inspect', img], { timeout: 10_000 }).status !== 0);
  return missing.length ? `images not present: ${missing.join(', ')} (build them: pnpm matrix images build)` : '';
}

/**
 * `describe` for tests that need containers: runs them when the gate is open; otherwise, outside
 * CI, a visibly skipped suite whose title says why; under CI=true, one failing test saying why.
 */
export function describeWithContainers(title: string, targetNames: string[], fn: (targets: ResolvedTarget[]) => void): void {
  const catalog = loadCatalog();
  const targets = targetNames.map((n) => catalog.targets.get(n)!);
  const why = containerGate(targets);
  if (!why) return describe(title, () => fn(targets));
  if (process.env.CI === 'true') {
    describe(title, () =>
      test(`needs Docker under CI=true: ${why}`, () => {
        throw new Error(`CI=true but ${why}`);
      }),
    );
    return;
  }
  console.warn(`SKIPPED ${title}: ${why}`);
  describe.skip(`${title} — SKIPPED: ${why}`, () => fn(targets));
}
