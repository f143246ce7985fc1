import type { ZodError } from 'zod';
import { MemoryMatrixError } from '../errors';

/**
 * The first zod issue as `field "<a.b.0>": <message>`; unknown keys as `unknown field "<k>"`.
 * Used for manifest.json and for every JSON Lines record.
 */
export function zodMessage(err: ZodError): string {
  const issue = err.issues[0]!;
  if (issue.code === 'unrecognized_keys') {
    const at = issue.path.length ? ` in "${issue.path.join('.')}"` : '';
    return `unknown field ${issue.keys.map((k) => `"${k}"`).join(', ')}${at}`;
  }
  const field = issue.path.length ? issue.path.join('.') : '(record)';
  if (issue.code === 'invalid_type' && issue.received === 'undefined') return `field "${field}": missing (expected ${issue.expected})`;
  return `field "${field}": ${issue.message}`;
}

/** GOLDEN_INVALID naming `<file>:<line>` (1-based line), e.g. `x/memories.jsonl:12: field "kind": …`. */
export function invalidAt(file: string, line: number, message: string, cause?: unknown): MemoryMatrixError {
  return new MemoryMatrixError('GOLDEN_INVALID', `${file}:${line}: ${message}`, cause === undefined ? undefined : { cause });
}
