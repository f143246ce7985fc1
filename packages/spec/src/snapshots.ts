import type { MemoryStore } from './adapter';
import type { ChatHistory, ChatMessage } from './history';

/**
 * Snapshots of a chat session (C26): the checkpoints a local agent store saves and rolls back to.
 * A `ChatHistory` that has them also implements `SessionSnapshots`; targets that do declare the
 * `snapshots` capability. Errors are `MemoryMatrixError`: INVALID_INPUT (an unknown snapshot id,
 * naming session and id), PAYLOAD_UNSUPPORTED, BACKEND_ERROR (the backend's error as `cause`).
 */

/** One saved snapshot: its id (adapter-chosen, stable) and how many messages it holds. */
export interface SnapshotInfo {
  id: string;
  messages: number;
}

/** Snapshot operations of one session, bound to one client. */
export interface SessionSnapshots {
  /** Save the session's current messages as a new snapshot, atomically; returns its id. */
  saveSnapshot(): Promise<string>;
  /** Every snapshot of the session, oldest first, read from the backend. */
  listSnapshots(): Promise<SnapshotInfo[]>;
  /** The messages snapshot `id` holds, oldest first. Throws INVALID_INPUT for an unknown id. */
  readSnapshot(id: string): Promise<ChatMessage[]>;
  /**
   * Replace the session's messages by snapshot `id`'s, atomically (another client sees the state
   * before or after, never a mix), leaving every snapshot in place. Throws INVALID_INPUT for an
   * unknown id.
   */
  rollback(id: string): Promise<void>;
}

/** A chat history with snapshots. */
export type SnapshotChatHistory = ChatHistory & SessionSnapshots;

/** Whether `h` implements `SessionSnapshots` (all four members are functions). */
export function hasSnapshots(h: ChatHistory): h is SnapshotChatHistory {
  const s = h as Partial<SessionSnapshots>;
  return typeof s.saveSnapshot === 'function' && typeof s.listSnapshots === 'function' && typeof s.readSnapshot === 'function' && typeof s.rollback === 'function';
}

/**
 * How ANOTHER OS process opens the same store (C26 runs its writers as child processes): a child
 * `require`s `module` (an absolute path, loaded through tsx so TypeScript sources work), calls its
 * export `exportName` with `options` (JSON) and awaits a `MemoryStore`. Only for stores whose
 * state lives where another process can reach it (a file, a server); the store must not own
 * anything the child would remove on close.
 */
export interface ProcessRecipe {
  module: string;
  exportName: string;
  options: unknown;
}

/** A store that can say how another process opens it (`processRecipe`). */
export interface ProcessReopenable {
  processRecipe(): ProcessRecipe;
}

/** The store's process recipe, or null when it has none. */
export function processRecipeOf(store: MemoryStore): ProcessRecipe | null {
  const s = store as Partial<ProcessReopenable>;
  return typeof s.processRecipe === 'function' ? s.processRecipe() : null;
}
