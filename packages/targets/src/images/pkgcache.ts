import { copyFileSync, linkSync, mkdirSync, mkdtempSync, readdirSync, renameSync, rmSync, statSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { MemoryMatrixError } from '@memory-matrix/spec';

/**
 * The shared Debian package cache of the image builder: `$MM_PKG_CACHE`, else
 * `$XDG_CACHE_HOME/memory-matrix/debs`, else `~/.cache/memory-matrix/debs` (XDG Base Directory
 * spec's default for `XDG_CACHE_HOME`). Absolute path; the directory may not exist yet.
 * Throws `INVALID_INPUT` when `MM_PKG_CACHE` is set but not an absolute path.
 */
export function packageCacheDir(): string {
  const env = process.env.MM_PKG_CACHE;
  if (env !== undefined && env !== '') {
    if (!env.startsWith('/')) throw new MemoryMatrixError('INVALID_INPUT', `MM_PKG_CACHE must be an absolute path, got ${JSON.stringify(env)}`);
    return env;
  }
  const xdg = process.env.XDG_CACHE_HOME;
  return join(xdg && xdg.startsWith('/') ? xdg : join(homedir(), '.cache'), 'memory-matrix', 'debs');
}

/** What one build took from and gave to the shared cache. */
export interface PackageCacheUse {
  /** The shared cache directory (absolute). */
  dir: string;
  /** Packages debootstrap installed from a cached file (its own checksum check passed). */
  fromCache: number;
  /** `.deb` files this build downloaded (debootstrap and apt in setup steps), now in the cache. */
  fetched: number;
}

const WORK_PREFIX = '.build-';

/** True when a process with this pid runs (signal 0 probes without sending). */
function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * One build's view of the shared cache. Concurrency: a build never writes the shared directory
 * in place. It gets a private work dir `<cache>/.build-<pid>-XXXXXX` seeded with hard links of
 * every cached `.deb` (debootstrap `--cache-dir` and apt's archives dir point there); a corrupt
 * cached file fails debootstrap's or apt's own checksum check, is unlinked in the work dir only
 * and downloaded again. {@link publish} then moves each new file into the cache by link + atomic
 * rename, so another build sees a file complete or not at all. Same name = same package, version
 * and architecture (`<pkg>_<ver>_<arch>.deb`, debootstrap's and apt's naming).
 */
export class PackageCacheSession {
  /** Private work directory (absolute), removed by {@link dispose}. */
  readonly work: string;
  private readonly seeded = new Map<string, number>();

  /**
   * Creates the cache dir if needed, removes work dirs of builds whose process is gone, and seeds
   * a new work dir. Throws `TARGET_UNAVAILABLE` naming the cache dir when it cannot be created or
   * written (e.g. read-only, or a file in the way).
   */
  constructor(readonly dir: string) {
    try {
      mkdirSync(dir, { recursive: true });
      for (const e of readdirSync(dir)) {
        const pid = Number(/^\.build-(\d+)-/.exec(e)?.[1]);
        if (pid && pid !== process.pid && !alive(pid)) rmSync(join(dir, e), { recursive: true, force: true });
      }
      this.work = mkdtempSync(join(dir, `${WORK_PREFIX}${process.pid}-`));
      for (const f of readdirSync(dir).filter((n) => n.endsWith('.deb'))) {
        const to = join(this.work, f);
        try {
          linkSync(join(dir, f), to);
        } catch {
          copyFileSync(join(dir, f), to); // a filesystem without hard links
        }
        this.seeded.set(f, statSync(to).ino);
      }
    } catch (err) {
      throw new MemoryMatrixError('TARGET_UNAVAILABLE', `package cache ${dir} (MM_PKG_CACHE): cannot prepare it: ${(err as Error).message}`, { cause: err });
    }
  }

  /** Names of the `.deb` files in the work dir that did not come from the cache (downloaded, or a cached file replaced after a failed checksum). */
  fresh(): string[] {
    return readdirSync(this.work).filter((f) => f.endsWith('.deb') && this.seeded.get(f) !== statSync(join(this.work, f)).ino);
  }

  /**
   * Moves {@link fresh} files into the shared cache and returns how many. Call it only after the
   * step that wrote them succeeded: debootstrap downloads straight to the final name (a cut-short
   * download would be published half-written; the next build's checksum would catch it, but the
   * cache stays cleaner), apt through `partial/`. Each lands by `link` to a unique temp name then
   * `rename` (atomic on one filesystem). Throws `TARGET_UNAVAILABLE` naming the file when the
   * cache cannot be written.
   */
  publish(): number {
    const names = this.fresh();
    for (const [i, f] of names.entries()) {
      const from = join(this.work, f);
      const tmp = join(this.dir, `.tmp-${process.pid}-${i}-${f}`);
      try {
        try {
          linkSync(from, tmp);
        } catch {
          copyFileSync(from, tmp);
        }
        renameSync(tmp, join(this.dir, f));
      } catch (err) {
        rmSync(tmp, { force: true });
        throw new MemoryMatrixError('TARGET_UNAVAILABLE', `package cache ${this.dir}: cannot store ${f}: ${(err as Error).message}`, { cause: err });
      }
      this.seeded.set(f, statSync(from).ino);
    }
    return names.length;
  }

  /** Removes the work dir (the shared cache keeps its files: they are other links). Never throws. */
  dispose(): void {
    rmSync(this.work, { recursive: true, force: true });
  }
}

/**
 * Packages debootstrap took from its cache dir: the distinct `I: Validating <pkg> <version>` lines
 * of its output (printed for every .deb it checks) minus the ones it had to download (`fetchedNames`,
 * file names `<pkg>_<ver>_<arch>.deb` with `:` written `%3a`, as debootstrap names them).
 */
export function countFromCache(lines: string[], fetchedNames: string[]): number {
  const validated = new Set<string>();
  for (const l of lines) {
    const m = /^I: Validating (\S+) (\S+)\s*$/.exec(l);
    if (m) validated.add(`${m[1]}_${m[2].replace(/:/g, '%3a')}_`);
  }
  let n = 0;
  for (const v of validated) if (!fetchedNames.some((f) => f.startsWith(v))) n++;
  return n;
}
