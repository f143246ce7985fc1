import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { OWNER, processAlive } from '@memory-matrix/targets';

/** A temp root's name: `mm-run-<pid>-` and mkdtemp's six characters. */
const ROOT_NAME = /^mm-run-(\d+)-[A-Za-z0-9]{6}$/;
/** File in each root naming where its pid means something (container/labels.ts `OWNER`: host and PID namespace). */
const OWNER_FILE = '.owner';

/**
 * One temp root per CLI process, `<system temp>/mm-run-<pid>-XXXXXX`: `TMPDIR` points there, so
 * every temp dir this process and the processes it starts make lands inside it — the data dirs of
 * embedded stores, store processes and child cells, and the temp dirs client libraries make and
 * never remove (LanceDB 0.37.1 leaves an empty `.tmpXXXXXX` per `connect()` and its index builds
 * leave `shuffle_data` / `shuffle_offsets` dirs: 85 of them after one `--backend lancedb@0.37` run,
 * measured 2026-12-04). The root is removed when the process exits: after success, failure, and
 * SIGINT / SIGTERM (the runner stops its backends, then exits; the local guard has killed its store
 * processes by then). A process killed with SIGKILL leaves it; the next CLI started on the machine
 * removes it (`sweepStaleRoots`).
 *
 * `MM_SHARED_TMPDIR` keeps the system temp dir for the caches that are meant to outlive a run
 * (the PGlite initdb cache, the store-process bundles); a nested CLI (a child cell) keeps its
 * parent's. Returns the root. Throws what `mkdtempSync` throws (the system temp dir not writable).
 */
export function useTmpRoot(env: NodeJS.ProcessEnv = process.env): string {
  env.MM_SHARED_TMPDIR ??= os.tmpdir();
  sweepStaleRoots(os.tmpdir());
  const root = mkdtempSync(path.join(os.tmpdir(), `mm-run-${process.pid}-`));
  writeFileSync(path.join(root, OWNER_FILE), OWNER);
  shareTsxCache(root, env.MM_SHARED_TMPDIR);
  env.TMPDIR = root;
  process.on('exit', () => {
    try {
      rmSync(root, { recursive: true, force: true, maxRetries: 3 });
    } catch {
      // An exit handler must not throw; a file held open by a process still dying stays behind.
    }
  });
  return root;
}

/**
 * tsx keeps the JavaScript it compiled from our TypeScript in `<os.tmpdir()>/tsx-<uid>`, os.tmpdir()
 * as the process starts. The processes a run starts (child cells, C26's children, selftest
 * workers, a user's TypeScript driver) start with TMPDIR at the run's root, where that cache would
 * be empty, and each would compile the whole module graph again (measured: `memory-matrix targets`
 * with an empty cache 3.5–3.6 s user + 1.0 s system, with the cache 2.7–3.1 s + 0.5–0.7 s). So the
 * root gets a symlink `tsx-<uid>` to the shared cache (`shared`, the system temp dir); removing the
 * root removes the link, not the cache. Never throws: without the link the children compile again.
 */
export function shareTsxCache(root: string, shared: string | undefined): void {
  if (!shared) return;
  const name = `tsx-${os.userInfo().uid}`;
  try {
    mkdirSync(path.join(shared, name), { recursive: true, mode: 0o700 });
    symlinkSync(path.join(shared, name), path.join(root, name), 'dir');
  } catch {
    // No shared cache (read-only system temp dir, no symlinks): tsx makes its own in the root.
  }
}

/**
 * Removes the temp roots in `dir` that CLI processes left when they died without running their
 * exit handler (SIGKILL, the OOM killer, a CI time limit): directories named `mm-run-<pid>-XXXXXX`
 * whose `.owner` file names this host and PID namespace (`OWNER`) and whose pid is not alive here.
 * A root of a live process, of another PID namespace or host sharing the directory, or without an
 * owner file is kept. Returns the paths removed. Never throws: a root it cannot read or remove stays.
 */
export function sweepStaleRoots(dir: string): string[] {
  const removed: string[] = [];
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return removed;
  }
  for (const name of names) {
    const m = ROOT_NAME.exec(name);
    if (!m || processAlive(Number(m[1]))) continue;
    const root = path.join(dir, name);
    try {
      if (readFileSync(path.join(root, OWNER_FILE), 'utf8') !== OWNER) continue;
      rmSync(root, { recursive: true, force: true, maxRetries: 3 });
      removed.push(root);
    } catch {
      // Not ours to judge (no owner file, unreadable) or not removable: left as it is.
    }
  }
  return removed;
}
