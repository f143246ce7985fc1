import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/**
 * One temp root per CLI process, `<system temp>/mm-run-<pid>-XXXXXX`: `TMPDIR` points there, so
 * every temp dir this process and the processes it starts make lands inside it — the data dirs of
 * embedded stores, store processes and child cells, and the temp dirs client libraries make and
 * never remove (LanceDB 0.37.1 leaves an empty `.tmpXXXXXX` per `connect()` and its index builds
 * leave `shuffle_data` / `shuffle_offsets` dirs: 85 of them after one `--backend lancedb@0.37` run,
 * measured 2026-12-04). The root is removed when the process exits: after success, failure, and
 * SIGINT / SIGTERM (the runner stops its backends, then exits; the local guard has killed its store
 * processes by then). A process killed with SIGKILL leaves it, like any temp dir.
 *
 * `MM_SHARED_TMPDIR` keeps the system temp dir for the caches that are meant to outlive a run
 * (the PGlite initdb cache, the store-process bundles); a nested CLI (a child cell) keeps its
 * parent's. Returns the root. Throws what `mkdtempSync` throws (the system temp dir not writable).
 */
export function useTmpRoot(env: NodeJS.ProcessEnv = process.env): string {
  env.MM_SHARED_TMPDIR ??= os.tmpdir();
  const root = mkdtempSync(path.join(os.tmpdir(), `mm-run-${process.pid}-`));
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
