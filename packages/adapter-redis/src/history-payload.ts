import { codePoints, decodeChatMessage, encodeChatMessage, HISTORY_PAYLOAD_VERSION, validateChatMessage, type ChatMessage } from '@memory-matrix/spec';
import { REDIS_RULES } from './validate';

/**
 * Versioned history payloads (docs/checks.md C20): one list element = one message, in the spec's
 * codec (spec history-payload.ts: v2 written, v1 upgraded on read, anything else
 * PAYLOAD_UNSUPPORTED naming the key and the index in the list; never skipped, never an empty
 * list), under Redis's input rules (validate.ts `REDIS_RULES`). The Lua script (history-script.ts)
 * writes the version into the session's meta hash.
 */

/** The format version written (the `v` key). */
export const PAYLOAD_VERSION = HISTORY_PAYLOAD_VERSION;
export { codePoints };
/** The v2 payload of a (validated) message. */
export const encodeMessage = encodeChatMessage;

/** Validate one message (INVALID_INPUT naming `where`). */
export function validateMessage(m: ChatMessage, where: string): void {
  validateChatMessage(m, where, REDIS_RULES);
}

/** Decode one stored payload (v2, or v1 upgraded); `key`/`index` name it in errors (`<key>[<index>]`). Throws PAYLOAD_UNSUPPORTED. */
export function decodeMessage(raw: string, key: string, index: number): ChatMessage {
  return decodeChatMessage(raw, `${key}[${index}]`, REDIS_RULES);
}
