import { readFileSync } from 'node:fs';
import { MemoryMatrixError } from '@memory-matrix/spec';
import { parseDocument } from 'yaml';
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
  const lineOf = (at: ReadonlyArray<string | number>): number | '?' => {
    for (let n = at.length; n >= 0; n--) {
      const node = doc.getIn(at.slice(0, n), true) as { range?: [number, number] } | undefined;
      if (node?.range) return text.slice(0, node.range[0]).split('\n').length;
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
