import { CONTAINER_LABELS } from './labels';
import { removeContainersSync } from './cleanup';

/**
 * Process-level disposal guard. Ryuk (testcontainers' reaper) cannot run here (its image cannot
 * be pulled), so this process removes what it started:
 * - on normal exit and on a crash (`exit` fires after an uncaught exception too);
 * - on SIGINT / SIGTERM: removes, then re-raises the signal so the process dies of it (exit
 *   status 130 / 143 in a shell); if another listener swallows the re-raised signal, the process
 *   exits with 128 + n one second later. A caller that must finish work first (a CLI writing
 *   partial reports) installs the guard with `{ exitOnSignal: false }` and exits itself; the
 *   containers are removed all the same.
 *   (Re-raising is what also lets `signal-exit`, loaded by testcontainers' dependencies, pass
 *   the signal on: it only acts when it is the last listener.)
 * Removal is synchronous (`docker rm -f`), the only thing an `exit` handler can do. It covers the
 * ids registered here and every container labelled with one of this process's run ids *and* this
 * pid — which also catches a container created but not yet registered when the signal came.
 */

const live = new Map<string, string>(); // container id → target (for messages)
const runIds = new Set<string>();
let installed = false;
let removing = false;
let exitOnSignal = true;

const SIGNALS: Record<'SIGINT' | 'SIGTERM', number> = { SIGINT: 2, SIGTERM: 15 };

function removeAllSync(reason: string): void {
  if (removing) return;
  removing = true;
  try {
    const sets = [...runIds].map((r) => [`${CONTAINER_LABELS.run}=${r}`, `${CONTAINER_LABELS.pid}=${process.pid}`]);
    const err = removeContainersSync([...live.keys()], sets);
    live.clear();
    if (err) process.stderr.write(`[memory-matrix] container cleanup on ${reason}: ${err}\n`);
  } finally {
    removing = false;
  }
}

function onExit(): void {
  if (live.size > 0 || runIds.size > 0) removeAllSync('exit');
}

function onSignal(signal: NodeJS.Signals): void {
  removeAllSync(signal);
  if (!exitOnSignal) return; // the caller owns the exit
  uninstallGuard();
  process.kill(process.pid, signal); // default action once nobody else listens
  // Someone else listens and did not end the process: end it as the shell would report it.
  setTimeout(() => process.exit(128 + (SIGNALS[signal as keyof typeof SIGNALS] ?? 0)), 1_000).unref();
}

/**
 * Installs the exit/signal handlers once per process (idempotent). `exitOnSignal` (default
 * true) ends the process after cleanup on SIGINT / SIGTERM; false only cleans up.
 */
export function installGuard(opts: { exitOnSignal?: boolean } = {}): void {
  if (opts.exitOnSignal !== undefined) exitOnSignal = opts.exitOnSignal;
  if (installed) return;
  installed = true;
  process.on('exit', onExit);
  for (const s of Object.keys(SIGNALS) as NodeJS.Signals[]) process.on(s, onSignal);
}

/** Removes the handlers (the guard re-installs on the next {@link registerRun}). */
export function uninstallGuard(): void {
  if (!installed) return;
  installed = false;
  process.off('exit', onExit);
  for (const s of Object.keys(SIGNALS) as NodeJS.Signals[]) process.off(s, onSignal);
}

/** Records that this process starts containers for `runId` (installs the guard). */
export function registerRun(runId: string): void {
  runIds.add(runId);
  installGuard();
}

/** Records a created container (`id` full or short) of `target`. */
export function registerContainer(id: string, target: string): void {
  live.set(id, target);
}

/** Forgets a container that was stopped and removed by its owner. */
export function unregisterContainer(id: string): void {
  live.delete(id);
}

/** Ids of containers this process started and has not stopped yet. */
export function liveContainerIds(): string[] {
  return [...live.keys()];
}
