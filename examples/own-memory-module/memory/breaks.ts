/**
 * The two bugs this module once shipped, kept as switches so that the matrix can be shown catching
 * them: `OWN_MEMORY_BREAK=swallow-connection-error` (recall answers "no memories" when the query
 * fails) and `OWN_MEMORY_BREAK=empty-on-bad-payload` (a chat history whose stored payload cannot be
 * read comes back empty). Comma-separated; unset in production.
 */
export const BREAKS = ['swallow-connection-error', 'empty-on-bad-payload'] as const;
export type Break = (typeof BREAKS)[number];

const on = (process.env.OWN_MEMORY_BREAK ?? '')
  .split(',')
  .map((s) => s.trim())
  .filter(Boolean);
for (const b of on) if (!(BREAKS as readonly string[]).includes(b)) throw new Error(`OWN_MEMORY_BREAK: unknown break ${JSON.stringify(b)} (known: ${BREAKS.join(', ')})`);

/** Whether the bug `b` is switched on. */
export function brokenBy(b: Break): boolean {
  return on.includes(b);
}
