import { readFileSync } from 'node:fs';
import { didYouMean, MemoryMatrixError } from '@memory-matrix/spec';
import { isMap, isScalar, parseDocument, type YAMLError } from 'yaml';
import { z, type ZodIssue, type ZodTypeAny } from 'zod';

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
 * naming the file: it cannot be read (`cannot read <what.name> <file>`), does not parse
 * (`<file>:<line>:<column>: <the yaml library's reason>` and the lines there, `yamlErrorMessage`),
 * or is not a mapping (`<file>:1: the <what.short> is empty / a list …; expected <what.expected>`).
 * Line numbers come from the `yaml` library's node ranges.
 */
export function readYamlMapping(file: string, what: { name: string; short: string; expected: string }): YamlMapping {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (e) {
    throw new MemoryMatrixError('USAGE', `cannot read ${what.name} ${file}: ${(e as Error).message}`, { cause: e });
  }
  const doc = parseDocument(text, { prettyErrors: false });
  if (doc.errors.length) throw new MemoryMatrixError('USAGE', yamlErrorMessage(file, text, doc.errors[0]!));
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

/**
 * `<file>:<line>:<column>: <reason>` and the lines there with a caret, for the `yaml` library's
 * parse error `e` (made with `prettyErrors: false`: its `pos` is an offset into `text`). An
 * indentation error the library places at the start of the line (column 1, where the indentation
 * begins) points at the line's first character instead: the mapping item that is out of line.
 */
export function yamlErrorMessage(file: string, text: string, e: YAMLError): string {
  const lines = text.split('\n').map((l) => l.replace(/\r$/, ''));
  const upTo = text.slice(0, Math.min(e.pos[0], text.length)).split('\n');
  const line = upTo.length;
  let column = upTo[line - 1]!.length + 1;
  if (e.code === 'BAD_INDENT' && column === 1) column += /^ */.exec(lines[line - 1] ?? '')![0].length;
  const shown = [...(line > 1 ? [lines[line - 2]!] : []), lines[line - 1] ?? '', `${' '.repeat(column - 1)}^`].map((l) => `  ${l}`);
  const end = text.slice(e.pos[0]).trim() === '' ? ' (at the end of the file)' : '';
  return `${file}:${line}:${column}: ${e.message}${end}\n\n${shown.join('\n')}\n`;
}

/** A time limit's field: `limits.loadTimeoutMs`, `start.setupTimeoutMs`, `start.timeoutMs`, `tolerances.faultClientTimeoutMs`. */
const LIMIT_KEY = /^(?:[a-zA-Z]+TimeoutMs|timeoutMs)$/;

/** Whether `i` is about a time limit's value (`LIMIT_KEY`; not an unknown key). */
export function isLimitIssue(i: ZodIssue): boolean {
  return i.code !== 'unrecognized_keys' && LIMIT_KEY.test(String(i.path[i.path.length - 1] ?? ''));
}

/** The issues about a time limit's value among `issues`, those inside a union's branches too (`adapters.<name>.limits`), in order. */
function limitIssues(issues: readonly ZodIssue[]): ZodIssue[] {
  return issues.flatMap((i) => (i.code === 'invalid_union' ? limitIssues(i.unionErrors.flatMap((e) => e.issues)) : isLimitIssue(i) ? [i] : []));
}

/** The message `fail` would throw for `at` (USAGE `<file>:<line>: <path>: <message>`), without throwing it. */
function failMessage(fail: YamlFail, at: ReadonlyArray<string | number>, message: string): string {
  try {
    fail(at, message);
  } catch (e) {
    return (e as Error).message;
  }
}

/** `<file>:<line>: …` messages in file order, then line order (a file's limits are checked in schema order, not as written). */
function byFileAndLine(messages: string[]): string[] {
  const key = (m: string): [string, number] => {
    const at = /^(.*?):(\d+|\?): /.exec(m);
    return at ? [at[1]!, Number(at[2])] : [m, 0];
  };
  return messages.sort((a, b) => {
    const [fa, la] = key(a);
    const [fb, lb] = key(b);
    return fa === fb ? (la || 0) - (lb || 0) : fa < fb ? -1 : 1;
  });
}

/**
 * Report the first zod issue through `fail`. When it is a bad time limit (`LIMIT_KEY`), every bad
 * time limit of the file(s) is reported in one USAGE error, one `<file>:<line>: <path>: <message>`
 * line each (a user fixing one limit sees the others at once). An unknown key (`unrecognized_keys`) is named at its
 * own line, with the closest keys `schema` knows there ("did you mean …?"). A required key that
 * is missing where the same mapping has an unknown key (`target:` for `targets:`) is reported as
 * that unknown key: the mistyped key is the error, the missing one its consequence.
 */
export function failOnIssues(issues: readonly ZodIssue[], fail: YamlFail, schema?: ZodTypeAny): never {
  const unknownAt = (at: ReadonlyArray<string | number>): Extract<ZodIssue, { code: 'unrecognized_keys' }> | undefined =>
    issues.find((i): i is Extract<ZodIssue, { code: 'unrecognized_keys' }> => i.code === 'unrecognized_keys' && samePath(i.path, at));
  const missing = (i: ZodIssue): boolean => i.code === 'invalid_type' && i.received === 'undefined' && i.path.length > 0;
  const first = issues[0]!;
  const issue = (missing(first) && unknownAt(first.path.slice(0, -1))) || first;
  const limits = limitIssues([issue]).length ? limitIssues(issues) : [];
  if (limits.length === 1) fail(limits[0]!.path, limits[0]!.message);
  if (limits.length > 1) throw new MemoryMatrixError('USAGE', byFileAndLine(limits.map((i) => failMessage(fail, i.path, i.message))).join('\n'));
  if (issue.code === 'unrecognized_keys') {
    const key = issue.keys[0]!;
    const siblings = issues.filter((i) => missing(i) && samePath(i.path.slice(0, -1), issue.path)).map((i) => String(i.path[i.path.length - 1]));
    const hint = didYouMean(key, (schema && keysAt(schema, issue.path)) ?? siblings, (k) => JSON.stringify(k));
    fail([...issue.path, key], `unknown key ${JSON.stringify(key)}${issue.keys.length > 1 ? ` (and ${issue.keys.slice(1).join(', ')})` : ''}${hint ? `; ${hint}` : ''}`);
  }
  return fail(issue.path, issue.message);
}

function samePath(a: ReadonlyArray<string | number>, b: ReadonlyArray<string | number>): boolean {
  return a.length === b.length && a.every((x, i) => x === b[i]);
}

/** The keys of the object `schema` has at `at` (through records, arrays, optional, default, effects; a discriminated union: the keys of all its options); undefined where it has none. */
function keysAt(schema: ZodTypeAny, at: ReadonlyArray<string | number>): string[] | undefined {
  let s: ZodTypeAny = schema;
  for (let i = 0; ;) {
    if (s instanceof z.ZodOptional || s instanceof z.ZodNullable) s = s.unwrap();
    else if (s instanceof z.ZodDefault) s = s.removeDefault();
    else if (s instanceof z.ZodEffects) s = s.innerType();
    else if (i === at.length && s instanceof z.ZodDiscriminatedUnion) return [...new Set((s.options as z.AnyZodObject[]).flatMap((o) => Object.keys(o.shape)))];
    else if (i === at.length) return s instanceof z.ZodObject ? Object.keys(s.shape) : undefined;
    else if (s instanceof z.ZodObject) s = s.shape[at[i++]!] ?? z.never();
    else if (s instanceof z.ZodRecord) [s, i] = [s.valueSchema, i + 1];
    else if (s instanceof z.ZodArray) [s, i] = [s.element, i + 1];
    else return undefined;
  }
}
