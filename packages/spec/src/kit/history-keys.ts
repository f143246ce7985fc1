// Storage keys of a chat session kept as rows (issue 33 kit): the sqlite and lancedb history
// adapters each listed `<prefix><session>#<turn>` and `<prefix><session>@<snapshot>` this way, and
// checked and encoded an append the same way.
import { MemoryMatrixError } from '../errors';
import type { ChatMessage, HistoryKey } from '../history';
import { codePoints, encodeChatMessage, validateChatMessage } from '../history-payload';
import { validateRawPayloads } from '../history-rows';
import type { InputRules } from '../record-validation';

/**
 * The `HistoryKey`s of a session stored as table rows without expiry: `<base>#<turn>` for each
 * turn label and `<base>@<snapshot>` for each snapshot id, sorted by key (UTF-16 code units,
 * `Array.prototype.sort`), each with `ttlMs: null` (rows never expire). `base` is
 * `<keyPrefix><sessionId>`; turn labels are given as the adapter spells them (zero-padded or not).
 * Pure; no error.
 */
export function rowHistoryKeys(base: string, turns: readonly (string | number)[], snapshots: readonly string[]): HistoryKey[] {
  const keys = [...turns.map((t) => `${base}#${t}`), ...snapshots.map((s) => `${base}@${s}`)];
  return keys.sort().map((key) => ({ key, ttlMs: null }));
}

/** An append to a history kept as rows, encoded: one payload (spec `encodeChatMessage`) and the code points of its content per message, in order. */
export interface RowAppend {
  payloads: string[];
  chars: number[];
}

/**
 * The checks and encoding of an `append` to a history kept as rows: `messages` an array
 * (INVALID_INPUT `<adapter>: append to <where>: messages must be an array`) of valid chat
 * messages (spec `validateChatMessage` under `rules`, `append to <where>: message <i>`), every
 * one checked before anything is written. Returns the encoded batch, or null for an empty call
 * (nothing to write).
 */
export function rowAppend(messages: unknown, where: string, rules: InputRules): RowAppend | null {
  if (!Array.isArray(messages)) throw new MemoryMatrixError('INVALID_INPUT', `${rules.adapter}: append to ${where}: messages must be an array`);
  messages.forEach((m: ChatMessage, i) => validateChatMessage(m, `append to ${where}: message ${i}`, rules));
  if (messages.length === 0) return null;
  return { payloads: messages.map(encodeChatMessage), chars: messages.map((m: ChatMessage) => codePoints(m.content)) };
}

/**
 * The checks of a `writeRaw` to a history kept as rows (spec `validateRawPayloads`, `writeRaw to
 * <where>`: INVALID_INPUT): the payloads as they are, each counted 0 characters (a raw payload
 * is not a message the window measures); null for an empty call (nothing to write).
 */
export function rowRawAppend(payloads: unknown, where: string, adapter: string): RowAppend | null {
  validateRawPayloads(payloads, `writeRaw to ${where}`, adapter);
  return payloads.length ? { payloads, chars: payloads.map(() => 0) } : null;
}
