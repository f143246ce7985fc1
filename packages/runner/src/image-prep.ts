import os from 'node:os';
import pLimit from 'p-limit';
import { inspectImage, recipeOf, recipeTag, resolveImage, type ImageSource, type ResolvedTarget } from '@memory-matrix/targets';

/** What `prepareImages` gives the run. */
export interface ImagePrep {
  /**
   * Cell suite name (`<target> × <dataset>`) → a promise that settles once every image the cell needs
   * is present: undefined, or the Error of the build or pull that failed (its last lines in the
   * message). Never rejects. Only cells that had an image to wait for are in it.
   */
  ready: Map<string, Promise<Error | undefined>>;
  /** The images being built or pulled (their local tags), in start order; empty when all were present. */
  pending: string[];
}

/** One container image a cell needs: the target whose recipe or registry image gives it. */
interface Need {
  target: ResolvedTarget;
  /** The offline tag when the target has a recipe, else its registry image. */
  key: string;
}

/**
 * The container targets whose images the cell of `t` starts: its own (container provider), its
 * server's (a client target over a container server) and the `upgradeFrom` target's of either (C16
 * starts that image first). Deduplicated by target name.
 */
export function imageTargetsOf(t: ResolvedTarget): ResolvedTarget[] {
  const out = new Map<string, ResolvedTarget>();
  // A client target carries its server's provider and recipe: its images are the server's.
  for (const x of [t.serverTarget ?? t]) {
    if (x.provider === 'container') out.set(x.name, x);
    const from = x.upgradeFromTarget;
    if (from?.provider === 'container') out.set(from.name, from);
  }
  return [...out.values()];
}

/**
 * Builds at once: the smaller of the CPUs (`os.availableParallelism()`), the GiB of free memory
 * (a debootstrap + `docker import` of one image peaks near 1 GiB: dpkg, tar and the daemon's
 * import buffer; measured on the 2-core CI machine) and 3 (the Debian mirror and the disk are
 * shared), at least 1. Builds are mostly dpkg unpacking and I/O, one core each.
 */
export function buildParallelism(cpus = os.availableParallelism(), freeBytes = os.freemem()): number {
  return Math.max(1, Math.min(cpus, Math.floor(freeBytes / 2 ** 30), 3));
}

/**
 * Make sure every container image the run's cells need is present BEFORE those cells start, so that
 * no cell's setup limit counts an image build or pull, and the cells that need none (embedded, local,
 * url) run meanwhile. For each missing image (neither its offline tag nor its registry image is
 * local), `resolveImage` pulls or builds it (`source` as `--image-source`), at most
 * `buildParallelism()` at once, each image once however many cells need it. `log` gets one line per
 * image and phase (start, each build step, done or failed, with the elapsed seconds) and, every
 * `heartbeatMs` during a long step, a line with what the step is fetching. Checking what is present
 * is quick (one `docker image inspect` per image); when everything is, nothing is logged and `ready`
 * is empty. Never throws: a failure is the Error its cells' promises resolve to.
 * `cells` maps each cell's suite name to its target.
 */
export async function prepareImages(cells: ReadonlyMap<string, ResolvedTarget>, source: ImageSource, log: (line: string) => void, heartbeatMs = 15_000): Promise<ImagePrep> {
  const needs = new Map<string, Need[]>(); // suite → images
  const all = new Map<string, Need>(); // key → the first target naming it
  for (const [suite, t] of cells) {
    const list: Need[] = [];
    for (const x of imageTargetsOf(t)) {
      const recipe = recipeOf(x);
      const key = recipe && source !== 'registry' ? recipeTag(recipe) : (x.image ?? x.name);
      const need = all.get(key) ?? { target: x, key };
      all.set(key, need);
      list.push(need);
    }
    if (list.length) needs.set(suite, list);
  }
  const missing = new Set<string>();
  for (const n of all.values()) if (!(await present(n.target, source))) missing.add(n.key);
  const ready = new Map<string, Promise<Error | undefined>>();
  if (!missing.size) return { ready, pending: [] };
  const atOnce = buildParallelism();
  const limit = pLimit(atOnce);
  log(`images: ${missing.size} container image(s) missing (${[...missing].join(', ')}): obtaining them first, ${atOnce} at once; cells that need none start meanwhile`);
  const jobs = new Map<string, Promise<Error | undefined>>();
  for (const key of missing)
    jobs.set(
      key,
      limit(() => obtain(all.get(key)!.target, source, log, heartbeatMs)),
    );
  for (const [suite, list] of needs) {
    const mine = list.map((n) => jobs.get(n.key)).filter((p): p is Promise<Error | undefined> => p !== undefined);
    if (mine.length)
      ready.set(
        suite,
        Promise.all(mine).then((errs) => errs.find((e) => e !== undefined)),
      );
  }
  return { ready, pending: [...missing] };
}

/** Whether the image `resolveImage` would use for `t` is local already (no pull, no build). */
async function present(t: ResolvedTarget, source: ImageSource): Promise<boolean> {
  const recipe = recipeOf(t);
  if (source !== 'registry' && recipe && (await inspectImage(recipeTag(recipe)))) return true;
  return source !== 'debian' && t.image !== undefined && (await inspectImage(t.image)) !== undefined;
}

/** Pull or build the image of `t` (resolveImage), logging phases and a heartbeat; resolves to the failure, never rejects. */
async function obtain(t: ResolvedTarget, source: ImageSource, log: (line: string) => void, heartbeatMs: number): Promise<Error | undefined> {
  const t0 = Date.now();
  const secs = (): string => `${((Date.now() - t0) / 1000).toFixed(0)} s`;
  let step = 'start';
  let fetching = '';
  let lastLine = Date.now();
  const tail: string[] = [];
  const beat = setInterval(() => {
    if (Date.now() - lastLine < heartbeatMs) return;
    lastLine = Date.now();
    log(`images: ${t.name}: ${step}, ${secs()}${fetching ? ` — ${fetching}` : ''}`);
  }, heartbeatMs);
  beat.unref();
  const onLine = (line: string): void => {
    const l = line.replace(/^\s*\[[^\]]+\]\s*/, '').replace(`${t.name}: `, '');
    tail.push(l);
    if (tail.length > 8) tail.shift();
    const m = /^([a-z]+(?:\[\d+\])?): (start|done in .*)$/.exec(l);
    const fetched = /^debootstrap: I: (Retrieving|Validating|Unpacking|Configuring|Extracting) (.*)$/.exec(l);
    if (fetched) fetching = `${fetched[1]!.toLowerCase()} ${fetched[2]}`;
    if (m) {
      step = m[1]!;
      lastLine = Date.now();
      log(`images: ${t.name}: ${m[1]} ${m[2]} (${secs()})`);
    } else if (/^(building|installed:|built|cached:)/.test(l) || /pulling/.test(l)) {
      lastLine = Date.now();
      log(`images: ${t.name}: ${l}`);
    }
  };
  try {
    log(`images: ${t.name}: started`);
    const tag = await resolveImage(t, source, onLine);
    log(`images: ${t.name}: ready (${tag}) in ${secs()}`);
    return undefined;
  } catch (e) {
    const err = e as Error & { code?: string };
    log(`images: ${t.name}: FAILED after ${secs()}: ${err.message.split('\n')[0]}`);
    const last = tail.length ? `; its last lines: ${tail.slice(-5).join(' | ')}` : '';
    return Object.assign(new Error(`the image of ${t.name} could not be obtained: ${err.message}${last}`), { code: err.code ?? 'TARGET_UNAVAILABLE', cause: e });
  } finally {
    clearInterval(beat);
  }
}
