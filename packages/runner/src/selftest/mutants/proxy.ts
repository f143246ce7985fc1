import type { Capabilities, ChatHistory, HistoryOptions, MemoryCollection, MemoryStore } from '@memory-matrix/spec';
import { overlay } from '../overlay';

/**
 * A fault injected at the contract level (packages/spec/src/adapter.ts `MemoryStore` /
 * `MemoryCollection`, history.ts `ChatHistory`): functions that replace some methods of a
 * collection or a chat history, each receiving the real object to delegate to. Methods a fault
 * does not name are the real ones, bound to the real object; nothing else changes.
 */
export interface ContractFault {
  /** Replacements for methods of every collection the store creates or opens. */
  collection?(inner: MemoryCollection): Partial<MemoryCollection>;
  /** Replacements for methods of every chat history the store opens; `opts` as given to `openHistory`. */
  history?(inner: ChatHistory, opts: HistoryOptions): Partial<ChatHistory>;
}

/**
 * A regression kind real users hit, as a fault any driver's store can carry (the user's own
 * included: it wraps the store, never the adapter's code).
 * - `name`: kebab-case id, what `--mutant` takes;
 * - `family`: the file (bug family) it comes from;
 * - `bug`: one line naming the public bug kind it stands for;
 * - `requires(caps)`: null when the target's capabilities let the bug show at all, else the
 *   reason it does not apply (the mutant is then reported as `n/a`, never as caught or escaped);
 * - `fault(caps)`: the contract fault to inject.
 */
export interface Mutant {
  readonly name: string;
  readonly family: string;
  readonly bug: string;
  requires(caps: Capabilities): string | null;
  fault(caps: Capabilities): ContractFault;
}

/** `requires` of a mutant that needs capability flags: the first missing one as `capability: <name>`, else null. */
export function needsCaps(...names: Array<keyof Capabilities>): (caps: Capabilities) => string | null {
  return (caps) => {
    const missing = names.find((n) => !caps[n]);
    return missing ? `capability: ${missing}` : null;
  };
}

/** A collection carrying `fault` (the collection itself when the fault touches no collection method). */
export function faultCollection(inner: MemoryCollection, fault: ContractFault): MemoryCollection {
  return fault.collection ? overlay(inner, fault.collection(inner)) : inner;
}

/**
 * `store` with `fault` injected: every collection it creates or opens and every chat history it
 * opens carry the fault; everything else (capabilities, serverInfo, close, snapshots…) is the
 * store's own. Pure wrapping: the store is not changed and may still be used directly.
 */
export function faultStore(store: MemoryStore, fault: ContractFault): MemoryStore {
  const over: Partial<MemoryStore> = {
    createCollection: async (spec) => faultCollection(await store.createCollection(spec), fault),
    openCollection: async (name) => faultCollection(await store.openCollection(name), fault),
  };
  const history = fault.history;
  if (history && store.openHistory) {
    const open = store.openHistory.bind(store);
    over.openHistory = async (opts) => {
      const h = await open(opts);
      return overlay(h, history(h, opts));
    };
  }
  return overlay(store, over);
}
