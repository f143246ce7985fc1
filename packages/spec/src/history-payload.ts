import { MemoryMatrixError } from './errors';
import { CHAT_ROLES, type ChatMessage, type ChatRole } from './history';
import { checkMetadata, checkStoredText, type InputRules } from './record-validation';
import { isCanonicalInstant } from './time';

/**
 * Versioned chat-history payloads (docs/checks.md C20), one codec for every adapter that stores
 * messages as text (a Redis list element, a SQLite or LanceDB row): one message = one JSON object
 * whose first key is its format version `v`, so a session moved between backends reads the same.
 *
 * v2 (current, written by every adapter):
 *   {"v":2,"role":"user","content":"…","createdAt":"2024-05-01T09:30:00.123Z","metadata":{…}}
 * v1 (the earlier memory-matrix format, read and upgraded to v2 on read):
 *   {"v":1,"type":"human"|"ai"|"system"|"tool","text":"…","ts":<epoch ms>,"meta":{…}?}
 *   type → role (human→user, ai→assistant, system, tool), text → content,
 *   ts → createdAt (ISO, UTC, ms), meta → metadata (absent → {}).
 * Anything else — another version, an unversioned payload (e.g. LangChain's
 * `{"type":"human","data":{…}}`), malformed JSON, a missing or mistyped field, a message the
 * adapter's input rules refuse — is PAYLOAD_UNSUPPORTED naming where it was read (key and index,
 * or session and turn) and what is wrong; never skipped, never an empty list.
 */

/** The format version `encodeChatMessage` writes (the `v` key). */
export const HISTORY_PAYLOAD_VERSION = 2;

const V1_ROLES: Record<string, ChatRole> = { human: 'user', ai: 'assistant', system: 'system', tool: 'tool' };
/** `YYYY-MM-DDTHH:MM:SS.sssZ`: a message's createdAt has exactly millisecond precision (history.ts). */
const ISO_MS = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

/**
 * Validate one message before it is written: an object, a known role, `content` text the backend
 * stores byte-identically, `createdAt` a calendar-valid `YYYY-MM-DDTHH:MM:SS.sssZ` (time.ts), scalar
 * metadata. `rules` are the adapter's (record-validation.ts; `rules.adapter` leads every message).
 * Throws INVALID_INPUT naming `where` (e.g. `append to session s: message 3`) and the field.
 */
export function validateChatMessage(m: ChatMessage, where: string, rules: InputRules): void {
  if (typeof m !== 'object' || m === null) throw new MemoryMatrixError('INVALID_INPUT', `${rules.adapter}: ${where} is not an object`);
  if (!CHAT_ROLES.includes(m.role)) throw new MemoryMatrixError('INVALID_INPUT', `${rules.adapter}: ${where}: role must be one of ${CHAT_ROLES.join(', ')}, got ${JSON.stringify(m.role)}`);
  checkStoredText(m.content, `${where}: content`, rules);
  if (typeof m.createdAt !== 'string' || !ISO_MS.test(m.createdAt) || !isCanonicalInstant(m.createdAt)) {
    throw new MemoryMatrixError('INVALID_INPUT', `${rules.adapter}: ${where}: createdAt must be YYYY-MM-DDTHH:MM:SS.sssZ, got ${JSON.stringify(m.createdAt)}`);
  }
  checkMetadata(m.metadata, where, rules);
}

/** The v2 payload (JSON text, `v` first) of a message `validateChatMessage` accepted. */
export function encodeChatMessage(m: ChatMessage): string {
  return JSON.stringify({ v: HISTORY_PAYLOAD_VERSION, role: m.role, content: m.content, createdAt: m.createdAt, metadata: m.metadata });
}

/**
 * Decode one stored payload: v2 as is, v1 upgraded (module comment), then validated under the
 * adapter's `rules`. `where` names it in errors (`mm:history:{s}:messages[7]`, `session s turn 3`).
 * Throws PAYLOAD_UNSUPPORTED (`<adapter>: <where>: <why>; payload <first 120 characters>`).
 */
export function decodeChatMessage(raw: string, where: string, rules: InputRules): ChatMessage {
  const bad = (why: string) => new MemoryMatrixError('PAYLOAD_UNSUPPORTED', `${rules.adapter}: ${where}: ${why}; payload ${JSON.stringify(raw.length > 120 ? `${raw.slice(0, 120)}…` : raw)}`);
  let p: unknown;
  try {
    p = JSON.parse(raw);
  } catch (e) {
    throw bad(`not JSON (${(e as Error).message})`);
  }
  if (typeof p !== 'object' || p === null || Array.isArray(p)) throw bad('not a JSON object');
  const o = p as Record<string, unknown>;
  if (!('v' in o)) throw bad(`unversioned payload (no "v"${'data' in o && 'type' in o ? '; looks like a LangChain message_to_dict payload' : ''}); not a memory-matrix history payload`);
  const msg = o.v === 2 ? fromV2(o) : o.v === 1 ? fromV1(o) : null;
  if (msg === null) throw bad(`payload version ${JSON.stringify(o.v)} is not one this adapter reads (1, 2)`);
  if (typeof msg === 'string') throw bad(`v${String(o.v)} ${msg}`);
  try {
    validateChatMessage(msg, where, rules);
  } catch (e) {
    throw bad(`v${String(o.v)} decodes to an invalid message: ${(e as Error).message}`);
  }
  return msg;
}

/** A v2 object as a message, or what is wrong with it. */
function fromV2(o: Record<string, unknown>): ChatMessage | string {
  if (typeof o.role !== 'string' || typeof o.content !== 'string' || typeof o.createdAt !== 'string') return 'needs string role, content and createdAt';
  if (typeof o.metadata !== 'object' || o.metadata === null || Array.isArray(o.metadata)) return 'needs a metadata object';
  return { role: o.role as ChatRole, content: o.content, createdAt: o.createdAt, metadata: o.metadata as ChatMessage['metadata'] };
}

/** A v1 object upgraded to a message, or what is wrong with it. `ts` bound: ±8.64e15 ms is ECMAScript's Date range. */
function fromV1(o: Record<string, unknown>): ChatMessage | string {
  const role = typeof o.type === 'string' ? V1_ROLES[o.type] : undefined;
  if (!role) return `type ${JSON.stringify(o.type)} is not human, ai, system or tool`;
  if (typeof o.text !== 'string') return 'needs a string text';
  if (typeof o.ts !== 'number' || !Number.isInteger(o.ts) || o.ts < 0 || o.ts > 8.64e15) return `ts ${JSON.stringify(o.ts)} is not epoch milliseconds`;
  const meta = o.meta === undefined ? {} : o.meta;
  if (typeof meta !== 'object' || meta === null || Array.isArray(meta)) return 'meta is not an object';
  return { role, content: o.text, createdAt: new Date(o.ts).toISOString(), metadata: meta as ChatMessage['metadata'] };
}

/** Unicode code points of `s` (the unit of `HistoryWindow.maxChars`), counted without allocating. */
export function codePoints(s: string): number {
  let n = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c < 0xdc00 || c > 0xdfff) n++; // a low surrogate completes the pair counted at its high half
  }
  return n;
}
