import { hasCode } from '../../errors';

/** The error code `fn` rejects with; `'<no code>'` for an error without one; null when it resolves. */
export async function errorCode(fn: () => Promise<unknown>): Promise<string | null> {
  try {
    await fn();
    return null;
  } catch (e) {
    for (const c of ['DIMENSION_MISMATCH', 'INVALID_VECTOR', 'INVALID_INPUT', 'BACKEND_ERROR'] as const) if (hasCode(e, c)) return c;
    const code = (e as { code?: unknown })?.code;
    return typeof code === 'string' ? code : '<no code>';
  }
}
