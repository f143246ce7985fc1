import { readFileSync } from 'node:fs';
import { CATALOG_FILE } from '@memory-matrix/catalog';
import { parse } from 'yaml';
import { didYouMean } from '../did-you-mean';
import { MemoryMatrixError } from '../errors';

/** A target entry as written in the catalog (matrix/targets.yaml `targets.<name>`): the keys `conformanceSuite` reads. */
export interface CatalogTargetEntry {
  backend: string;
  /** `embedded`, `container`, `local` or `url`; absent for a client target (`server:`). */
  provider?: string;
  /** The driver's embedded (or local) engine, for provider `embedded` / `local`. */
  engine?: string;
  /** A client target's server target. */
  server?: string;
  index?: { type: string; [param: string]: unknown };
  tolerances?: Record<string, unknown>;
  capabilities?: Record<string, unknown>;
  adapterOptions?: unknown;
}

/** One target of the catalog with what it inherits: the catalog's `defaults` and the profiles (name → target names). */
export interface CatalogTarget {
  /** The file the entry was read from (the built-in catalog, or the `catalog` file given). */
  file: string;
  name: string;
  entry: CatalogTargetEntry;
  /** The built-in catalog's `defaults` (`index`, `tolerances`), over which a given file's own `defaults` are laid. */
  defaults: { index?: { type: string; [param: string]: unknown }; tolerances?: Record<string, unknown> };
  /** Every profile of both files (a given file's replacing the built-in one of the same name) → its `targets`. */
  profiles: Map<string, readonly string[]>;
}

type Mapping = Record<string, unknown>;
const isMapping = (v: unknown): v is Mapping => v !== null && typeof v === 'object' && !Array.isArray(v);

/** The YAML mapping of `file`; INVALID_INPUT naming the file when it cannot be read, is not YAML or is not a mapping. */
function readMapping(file: string): Mapping {
  let doc: unknown;
  try {
    doc = parse(readFileSync(file, 'utf8'));
  } catch (e) {
    throw new MemoryMatrixError('INVALID_INPUT', `conformanceSuite: cannot read the catalog ${file}: ${(e as Error).message}`, { cause: e });
  }
  if (!isMapping(doc)) throw new MemoryMatrixError('INVALID_INPUT', `conformanceSuite: ${file} is not a YAML mapping (expected targets:, profiles:, defaults:)`);
  return doc;
}

/** `section` of `doc` (a mapping or absent); INVALID_INPUT naming the file and the key otherwise. */
function section(doc: Mapping, key: string, file: string): Mapping {
  const v = doc[key];
  if (v === undefined || v === null) return {};
  if (!isMapping(v)) throw new MemoryMatrixError('INVALID_INPUT', `conformanceSuite: ${file}: ${key} must be a mapping`);
  return v;
}

/**
 * Read target `name` from the built-in catalog (`@memory-matrix/catalog`'s targets.yaml, the
 * repository's matrix/targets.yaml) or, when `file` is given, from that file over the built-in
 * one: a memory-matrix.yaml or a catalog of the same format, whose `targets:` and `profiles:` are
 * taken first and whose `defaults:` keys replace the built-in ones (as `--config` layers a user's
 * file). Only the shape `conformanceSuite` reads is checked here; the whole schema is the
 * runner's (`memory-matrix targets` validates a file).
 * Throws (MemoryMatrixError): INVALID_INPUT naming the file (unreadable, not YAML, a section or
 * the entry not a mapping, no `backend` string, a profile without a `targets` list);
 * UNKNOWN_TARGET naming the target, the files and the closest known names (or its backend's targets).
 */
export function readCatalogTarget(name: string, file?: string): CatalogTarget {
  const builtIn = readMapping(CATALOG_FILE);
  const own = file === undefined ? undefined : readMapping(file);
  const targets = { ...section(builtIn, 'targets', CATALOG_FILE), ...(own ? section(own, 'targets', file!) : {}) };
  const from = own && Object.hasOwn(section(own, 'targets', file!), name) ? file! : CATALOG_FILE;
  if (!Object.hasOwn(targets, name)) {
    const ofBackend = Object.keys(targets).filter((k) => k.startsWith(`${name.split('@')[0]}@`));
    const hint = didYouMean(name, Object.keys(targets)) || (ofBackend.length ? `targets of backend ${name.split('@')[0]}: ${ofBackend.join(', ')}` : '');
    throw new MemoryMatrixError('UNKNOWN_TARGET', `conformanceSuite: unknown target "${name}" (not in ${[CATALOG_FILE, ...(file ? [file] : [])].join(' or ')})${hint ? `; ${hint}` : ''}`);
  }
  const entry = targets[name];
  if (!isMapping(entry) || typeof entry.backend !== 'string')
    throw new MemoryMatrixError('INVALID_INPUT', `conformanceSuite: ${from}: targets.${name} must be a mapping with a backend (the driver's name)`);
  const defaults = { ...section(builtIn, 'defaults', CATALOG_FILE), ...(own ? section(own, 'defaults', file!) : {}) } as CatalogTarget['defaults'];
  const profiles = new Map<string, readonly string[]>();
  for (const [src, doc] of [[CATALOG_FILE, builtIn] as const, ...(own ? [[file!, own] as const] : [])]) {
    for (const [p, v] of Object.entries(section(doc, 'profiles', src))) {
      const list = isMapping(v) ? v.targets : undefined;
      if (!Array.isArray(list)) throw new MemoryMatrixError('INVALID_INPUT', `conformanceSuite: ${src}: profiles.${p}.targets must be a list of target names`);
      profiles.set(p, list.map(String));
    }
  }
  return { file: from, name, entry: entry as unknown as CatalogTargetEntry, defaults, profiles };
}
