import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { spawnSync } from 'node:child_process';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * Creates an empty build directory `<MM_BUILD_TMPDIR or os.tmpdir()>/mm-rootfs-XXXXXX` (absolute path).
 * The caller must hand it to {@link removeRootfs} in a `finally`.
 */
export async function makeRootfsDir(): Promise<string> {
  return mkdtemp(join(process.env.MM_BUILD_TMPDIR || tmpdir(), 'mm-rootfs-'));
}

/** Mount points at or below `dir`, deepest first (from /proc/self/mountinfo, field 5). */
export async function mountsUnder(dir: string): Promise<string[]> {
  let text = '';
  try {
    text = await readFile('/proc/self/mountinfo', 'utf8');
  } catch {
    return []; // no procfs: nothing we could unmount anyway
  }
  const prefix = dir.endsWith('/') ? dir : `${dir}/`;
  return (
    text
      .split('\n')
      .map((l) => l.split(' ')[4])
      .filter((p): p is string => !!p)
      // mountinfo escapes spaces etc. as \040 octal
      .map((p) => p.replace(/\\([0-7]{3})/g, (_, o: string) => String.fromCharCode(parseInt(o, 8))))
      .filter((p) => p === dir || p.startsWith(prefix))
      .sort((a, b) => b.length - a.length)
  );
}

/**
 * Removes a build directory safely: first lazily unmounts whatever debootstrap left mounted
 * below it (a failed debootstrap can leave proc, sys or a bind mount of /dev), then deletes with
 * `rm -rf --one-file-system`, which never descends into another filesystem (so a mount we could
 * not unmount, such as the host's /dev, is left untouched rather than emptied).
 * Resolves once done; throws only when the directory still exists afterwards.
 */
export async function removeRootfs(dir: string): Promise<void> {
  for (const m of await mountsUnder(dir)) spawnSync('umount', ['-l', m], { stdio: 'ignore' });
  const r = spawnSync('rm', ['-rf', '--one-file-system', '--', dir], { encoding: 'utf8' });
  if (r.status !== 0) {
    // Fall back to node's rm for the rest (e.g. rm missing); still refuse to cross mounts left.
    if ((await mountsUnder(dir)).length > 0) {
      throw new Error(`cannot remove build dir ${dir}: still has mounts; ${r.stderr ?? ''}`.trim());
    }
    await rm(dir, { recursive: true, force: true });
  }
}
