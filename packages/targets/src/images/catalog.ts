import { readFileSync } from 'node:fs';
import { parse } from 'yaml';
import { MemoryMatrixError } from '@memory-matrix/spec';
import { validateRecipe, type ImageRecipe } from './recipe';

/** The container part of a catalog target (matrix/targets.yaml): image, offline recipe, start, expect. */
export interface ContainerTargetEntry {
  /** `backend@version`. */
  name: string;
  /** Backend (driver) name. */
  backend: string;
  /** The official image a user with a registry pulls (informational here). */
  image?: string;
  /** How to build an equivalent image offline. */
  offline: ImageRecipe;
  /** How the provider starts it: server kind and start timeout before `MM_START_TIMEOUT_SCALE`. */
  start: { kind: 'postgres'; timeoutMs?: number };
  /** Versions the server must report (catalog `expect`). */
  expect: Record<string, string>;
}

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * Turns one parsed catalog entry into a typed {@link ContainerTargetEntry}. `where` names the
 * source for messages (e.g. `matrix/targets.yaml targets.<backend>@<version>`).
 * Throws `INVALID_INPUT` naming `where` and the field.
 */
export function parseContainerTarget(name: string, entry: unknown, where: string): ContainerTargetEntry {
  const bad = (field: string, why: string): never => {
    throw new MemoryMatrixError('INVALID_INPUT', `${where}: field ${field} ${why}`);
  };
  if (!isObj(entry)) return bad('(entry)', 'must be a map');
  if (entry.provider !== 'container') bad('provider', `must be 'container', got ${JSON.stringify(entry.provider)}`);
  if (typeof entry.backend !== 'string') bad('backend', 'must be a string');
  const off = entry.offline;
  if (!isObj(off)) return bad('offline', 'must be a map');
  const strList = (v: unknown, f: string): string[] => (Array.isArray(v) && v.every((x) => typeof x === 'string') ? (v as string[]) : bad(f, 'must be a list of strings'));
  const recipe: ImageRecipe = {
    name,
    tag: typeof off.tag === 'string' ? off.tag : bad('offline.tag', 'must be a string'),
    suite: typeof off.suite === 'string' ? off.suite : bad('offline.suite', 'must be a string'),
    packages: strList(off.packages, 'offline.packages'),
    setup: off.setup === undefined ? [] : strList(off.setup, 'offline.setup'),
    env: isObj(off.env) ? Object.fromEntries(Object.entries(off.env).map(([k, v]) => [k, String(v)])) : {},
    cmd: off.cmd === undefined ? undefined : strList(off.cmd, 'offline.cmd'),
    expose: off.expose === undefined ? undefined : (off.expose as number[]),
    mirror: off.mirror === undefined ? undefined : String(off.mirror),
  };
  try {
    validateRecipe(recipe);
  } catch (err) {
    bad('offline', (err as Error).message);
  }
  const start = isObj(entry.start) ? entry.start : {};
  if (start.kind !== 'postgres') bad('start.kind', `must be 'postgres', got ${JSON.stringify(start.kind)}`);
  if (start.timeoutMs !== undefined && !(typeof start.timeoutMs === 'number' && start.timeoutMs > 0)) bad('start.timeoutMs', 'must be a positive number of milliseconds');
  const expect = isObj(entry.expect) ? Object.fromEntries(Object.entries(entry.expect).map(([k, v]) => [k, String(v)])) : {};
  return {
    name,
    backend: entry.backend as string,
    image: typeof entry.image === 'string' ? entry.image : undefined,
    offline: recipe,
    start: { kind: 'postgres', timeoutMs: start.timeoutMs as number | undefined },
    expect,
  };
}

/**
 * Reads container target `name` (synchronously: test files decide skips at load time) from the
 * first of `files` that lists it. A `.yaml` file is read
 * as a catalog (`targets.<name>`); a `.md` file contributes the `targets:` maps of its ```yaml
 * fences (how matrix/images.md proposes entries before they are merged into the catalog).
 * Throws `UNKNOWN_TARGET` when no file lists it, `INVALID_INPUT` when the entry is malformed.
 */
export function readContainerTarget(name: string, files: string[]): ContainerTargetEntry {
  for (const file of files) {
    let text: string;
    try {
      text = readFileSync(file, 'utf8');
    } catch {
      continue; // a missing file is simply not a source
    }
    const docs = file.endsWith('.md') ? [...text.matchAll(/^```ya?ml\n([\s\S]*?)^```/gm)].map((m) => m[1] ?? '') : [text];
    for (const doc of docs) {
      const parsed: unknown = parse(doc);
      const targets = isObj(parsed) && isObj(parsed.targets) ? parsed.targets : undefined;
      if (targets && name in targets) return parseContainerTarget(name, targets[name], `${file} targets.${name}`);
    }
  }
  throw new MemoryMatrixError('UNKNOWN_TARGET', `container target ${name} is listed in none of: ${files.join(', ')}`);
}
