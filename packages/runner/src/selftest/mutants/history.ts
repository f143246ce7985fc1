import { hasCode } from '@memory-matrix/spec';
import { needsCaps, type Mutant } from './proxy';

/**
 * Chat-history regressions. Public bug kinds: "the chat history is empty after the upgrade" — a
 * reader that meets a payload it cannot decode (an older or newer serialisation, C20) and returns
 * `[]` instead of failing (`try { JSON.parse } catch { return [] }`, LangChain's message
 * deserialisation falling back to an empty list); and "old sessions never expire" — the TTL set
 * on the list key but not on its companion key (a meta/index key written without `EXPIRE`).
 * `history-bad-payload-empty`: `read` returns `[]` where the adapter throws PAYLOAD_UNSUPPORTED.
 * `ttl-missing-one-key`: in a session opened with `ttlMs`, the backend's key listing (`keys`)
 * shows the first key without a TTL (ttlMs null), as a store that never set it would.
 */
export const historyBadPayloadEmpty: Mutant = {
  name: 'history-bad-payload-empty',
  family: 'history',
  bug: 'reading a history with a payload it cannot decode returns [] instead of PAYLOAD_UNSUPPORTED',
  requires: needsCaps('history'),
  fault: () => ({
    history: (inner) => ({
      read: async (opts) => {
        try {
          return await inner.read(opts);
        } catch (e) {
          if (hasCode(e, 'PAYLOAD_UNSUPPORTED')) return [];
          throw e;
        }
      },
    }),
  }),
};

export const ttlMissingOneKey: Mutant = {
  name: 'ttl-missing-one-key',
  family: 'history',
  bug: 'one key of a session with a TTL carries no TTL',
  requires: needsCaps('history', 'ttl'),
  fault: () => ({
    history: (inner, opts) => ({
      keys: async () => {
        const keys = await inner.keys();
        return opts.ttlMs === undefined ? keys : keys.map((k, i) => (i === 0 ? { key: k.key, ttlMs: null } : k));
      },
    }),
  }),
};

export const HISTORY_MUTANTS: readonly Mutant[] = [historyBadPayloadEmpty, ttlMissingOneKey];
