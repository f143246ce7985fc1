import { rmSync } from 'node:fs';
import type { ChildProcess } from 'node:child_process';

/**
 * Exit guard of the local provider. Two layers, so that no server outlives its parent:
 * 1. here: when this process exits (normally, `process.exit`, or after an uncaught exception)
 *    every server it started and did not stop is killed (SIGKILL) and its temp dir removed,
 *    synchronously (an `exit` handler can do nothing else);
 * 2. in the driver's launcher script (a `LocalEngine`'s): it watches its parent pid and ends itself,
 *    removing its dir, as soon as the parent is gone — which covers death by a signal (SIGINT,
 *    SIGTERM, SIGKILL), where no `exit` handler runs. A Ctrl-C in a terminal reaches the launcher
 *    directly too (same process group) and ends it the same way.
 * The guard adds NO signal listener: a listener would take away the default action of SIGINT /
 * SIGTERM (dying of it) from plain scripts, and the runner has its own (it stops its backends,
 * writes the partial report and exits).
 */

interface Owned {
  child: ChildProcess;
  dataDir: string;
}

const owned = new Set<Owned>();
let installed = false;

/** Kill every owned server (SIGKILL) and remove its data dir; synchronous, never throws. */
export function killAllSync(): void {
  for (const o of owned) {
    try {
      if (o.child.exitCode === null && o.child.signalCode === null) o.child.kill('SIGKILL');
    } catch {
      // already gone
    }
    try {
      rmSync(o.dataDir, { recursive: true, force: true });
    } catch {
      // best effort while the process dies
    }
  }
  owned.clear();
}

/** Register a started server; returns the function that forgets it (after a clean stop). */
export function guardProcess(child: ChildProcess, dataDir: string): () => void {
  const o = { child, dataDir };
  owned.add(o);
  if (!installed) {
    installed = true;
    process.on('exit', killAllSync);
  }
  return () => {
    owned.delete(o);
  };
}

/** Servers this process started and has not stopped yet (pids; for tests and diagnostics). */
export function liveLocalPids(): number[] {
  return [...owned].map((o) => o.child.pid ?? -1);
}
