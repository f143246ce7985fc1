import { readFileSync } from 'node:fs';
import { MemoryMatrixError } from '@memory-matrix/spec';
import { isMap, isScalar, parseDocument } from 'yaml';
import type { ZodIssue } from 'zod';

/** Throws USAGE `<file>:<line>: <path.joined>: <message>` for the node at `at` (see `readYamlMapping`). */
export type YamlFail = (at: ReadonlyArray<string | number>, message: string) => never;

/** A YAML file read as one mapping, with line-accurate errors. */
export interface YamlMapping {
  file: string;
  /** The document as plain JavaScript (a mapping). */
  raw: Record<string, unknown>;
  /** Line (1-based) of the node at `at`, or of its nearest existing parent; '?' when none has a position. */
  lineOf(at: ReadonlyArray<string | number>): number | '?';
  fail: YamlFail;
}

/**
 * Read `file` as a YAML mapping (the target catalog, a user's memory-matrix.yaml). Throws USAGE
 * naming the file: it cannot be read (`cannot read <what.name> <file>`), does not parse (with its
 * line), or is not a mapping (`<file>:1: the <what.short> is empty / a list …; expected <what.expected>`).
 * Line numbers come from the `yaml` library's node ranges.
 */
export function readYamlMapping(file: string, what: { name: string; short: string; expected: string }): YamlMapping {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (e) {
    throw new MemoryMatrixError('USAGE', `cannot read ${what.name} ${file}: ${(e as Error).message}`, { cause: e });
  }
  const doc = parseDocument(text, { prettyErrors: true });
  if (doc.errors.length) {
    throw new MemoryMatrixError('USAGE', `${file}:${doc.errors[0].linePos?.[0].line ?? '?'}: ${doc.errors[0].message}`);
  }
  // Where the node at `path` starts: its key's position when it is a mapping entry (a block value
  // starts on the line after its key, and the key is what an error names), else its own.
  const startOf = (path: ReadonlyArray<string | number>): number | undefined => {
    if (path.length > 0) {
      const parent = doc.getIn(path.slice(0, -1), true);
      if (isMap(parent)) {
        const last = path[path.length - 1];
        const pair = parent.items.find((p) => (isScalar(p.key) ? p.key.value : p.key) === last);
        const key = pair?.key as { range?: [number, number] } | undefined;
        if (key?.range) return key.range[0];
      }
    }
    return (doc.getIn(path, true) as { range?: [number, number] } | undefined)?.range?.[0];
  };
  const lineOf = (at: ReadonlyArray<string | number>): number | '?' => {
    for (let n = at.length; n >= 0; n--) {
      const start = startOf(at.slice(0, n));
      if (start !== undefined) return text.slice(0, start).split('\n').length;
    }
    return '?';
  };
  const fail: YamlFail = (at, message) => {
    throw new MemoryMatrixError('USAGE', `${file}:${lineOf(at)}: ${at.join('.')}: ${message}`);
  };
  const raw: unknown = doc.toJS();
  if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) {
    throw new MemoryMatrixError('USAGE', `${file}:1: the ${what.short} is ${raw === null || raw === undefined ? 'empty' : `a ${Array.isArray(raw) ? 'list' : typeof raw}`}; expected ${what.expected}`);
  }
  return { file, raw: raw as Record<string, unknown>, lineOf, fail };
}

/** Report the first zod issue through `fail`: an unknown key (`unrecognized_keys`) is named at its own line. */
export function failOnIssue(issue: ZodIssue, fail: YamlFail): never {
  if (issue.code === 'unrecognized_keys')
    fail([...issue.path, issue.keys[0]!], `unknown key ${JSON.stringify(issue.keys[0])}${issue.keys.length > 1 ? ` (and ${issue.keys.slice(1).join(', ')})` : ''}`);
  return fail(issue.path, issue.message);
}
