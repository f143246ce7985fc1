import type { Metadata } from './types';

/**
 * The chat-history contract (docs/checks.md C17, C18, C20, C22): an ordered log of messages per
 * session, with a window, TTLs and versioned payloads. Any adapter may implement it through
 * `MemoryStore.openHistory`; targets that do declare the `history` (and `ttl`) capability.
 * Errors are `MemoryMatrixError`: INVALID_INPUT (bad argument, named), PAYLOAD_UNSUPPORTED (a
 * stored payload this adapter cannot decode: never an empty list instead), BACKEND_ERROR
 * (the backend's error as `cause`).
 */

/** Who said it. */
export type ChatRole = 'user' | 'assistant' | 'system' | 'tool';
export const CHAT_ROLES: readonly ChatRole[] = ['user', 'assistant', 'system', 'tool'];

/**
 * One message.
 * - `content`: any well-formed Unicode text (CJK, emoji, empty), stored byte-identically.
 * - `createdAt`: ISO-8601 UTC instant with milliseconds, e.g. `2024-05-01T09:30:00.123Z`.
 * - `metadata`: JSON scalars; falsy values (0, "", false, null) and their types round-trip.
 */
export interface ChatMessage {
  role: ChatRole;
  content: string;
  createdAt: string;
  metadata: Metadata;
}

/**
 * A window: what survives a trim. Both limits may be given (both then hold).
 * - `maxMessages`: keep the newest n messages (integer ≥ 1).
 * - `maxChars`: keep the newest messages whose `content` lengths, in Unicode code points, sum to
 *   at most this (integer ≥ 1); the newest message is always kept, even when longer on its own.
 */
export interface HistoryWindow {
  maxMessages?: number;
  maxChars?: number;
}

/** Options of `MemoryStore.openHistory`. */
export interface HistoryOptions {
  /** Session id, 1..200 chars of `[A-Za-z0-9._:@-]`. */
  sessionId: string;
  /** Caller-chosen key (or table/collection) prefix; adapter default when absent (e.g. `mm:history:`). */
  keyPrefix?: string;
  /** TTL in ms on EVERY key (row, document) the session owns; none when absent. Integer ≥ 1. */
  ttlMs?: number;
  /** Reset the TTL of every key of the session on each write (sliding). Default true. */
  refreshTtlOnWrite?: boolean;
  /** Applied atomically with every append. */
  window?: HistoryWindow;
}

/** A key (row, document) the session owns, with its remaining TTL in ms (null: none). */
export interface HistoryKey {
  key: string;
  ttlMs: number | null;
}

/** One session's history, bound to one client. */
export interface ChatHistory {
  readonly sessionId: string;
  readonly keyPrefix: string;
  /**
   * Name of the stored payload format when it is not memory-matrix's own versioned one (e.g.
   * `langchain`: a client library's messages): C20 reads its legacy cases from
   * `golden-data/legacy/history-payloads.<format>.json`. Absent = memory-matrix's format
   * (`history-payloads.json`).
   */
  readonly payloadFormat?: string;
  /** Append in order, atomically (one call's messages are contiguous), then apply the window and TTL. Throws INVALID_INPUT. */
  append(messages: ChatMessage[]): Promise<void>;
  /** All messages oldest first, or the newest `last` (≥ 1). Empty for an unknown/expired session. Throws PAYLOAD_UNSUPPORTED. */
  read(opts?: { last?: number }): Promise<ChatMessage[]>;
  /** Number of messages stored. */
  length(): Promise<number>;
  /** Trim to `window` now; returns how many messages were removed. */
  trim(window: HistoryWindow): Promise<number>;
  /** Delete every key of the session. Missing is not an error. */
  clear(): Promise<void>;
  /** Every key the session owns as the backend lists it (never from memory), sorted, with its TTL. */
  keys(): Promise<HistoryKey[]>;
  /** Store payloads verbatim, as an older client would have (C20); TTL rules apply, no window. */
  writeRaw(payloads: string[]): Promise<void>;
  /** The stored payloads verbatim, oldest first. */
  readRaw(): Promise<string[]>;
}
