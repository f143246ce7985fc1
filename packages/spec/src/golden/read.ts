import { readFileSync } from 'node:fs';
import { MemoryMatrixError } from '../errors';

/**
 * `readFileSync(file)` for golden files: a file that exists but cannot be read (a directory in
 * its place, no permission, an I/O error) is GOLDEN_MISSING naming the file and the system's reason.
 */
export function readGoldenFile(file: string): Buffer {
  try {
    return readFileSync(file);
  } catch (e) {
    const err = e as NodeJS.ErrnoException;
    throw new MemoryMatrixError('GOLDEN_MISSING', `${file} cannot be read: ${err.code ? `${err.code} ` : ''}${err.message.replace(/^\w+: /, '')}`, { cause: e });
  }
}
