import { MemoryMatrixError } from '@memory-matrix/spec';
import { ADAPTER } from './context';

/**
 * A SQL string literal of `value`: `'…'` with every `'` doubled (SQL standard; DataFusion reads no
 * backslash escapes in '…' literals, so `\` stays itself). Any Unicode, U+0000 included, is kept;
 * a lone surrogate (not UTF-8 encodable) is INVALID_INPUT.
 */
export function quoteString(value: string): string {
  if (typeof value !== 'string') throw new MemoryMatrixError('INVALID_INPUT', `${ADAPTER}: a SQL string literal needs a string, got ${typeof value}`);
  if (Buffer.from(value, 'utf8').toString('utf8') !== value)
    throw new MemoryMatrixError('INVALID_INPUT', `${ADAPTER}: a SQL string literal must be well-formed Unicode (lone surrogate in ${JSON.stringify(value)})`);
  return `'${value.replace(/'/g, "''")}'`;
}
