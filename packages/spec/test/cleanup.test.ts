import type { MemoryStore } from '../src/adapter';
import { dropAndClose, releaseSince, type CreatedCollection } from '../src/conformance/cleanup';

/** A client that records what was asked of it; `failDrop` names collections whose drop rejects. */
function recordingStore(log: string[], name: string, failDrop: string[] = []): MemoryStore {
  return {
    dropCollection: async (c: string) => {
      log.push(`${name} drop ${c}`);
      if (failDrop.includes(c)) throw new Error(`drop ${c} refused`);
    },
    close: async () => void log.push(`${name} close`),
  } as unknown as MemoryStore;
}

describe('releaseSince (a check releases its own clients and collections)', () => {
  it('drops and closes only what came after the mark, and keeps the golden collection and its client', async () => {
    const log: string[] = [];
    const before = recordingStore(log, 'before');
    const golden = recordingStore(log, 'golden');
    const own = recordingStore(log, 'own');
    const held = {
      stores: [before, golden, own],
      created: [
        { store: before, name: 'earlier' },
        { store: golden, name: 'mm_golden' },
        { store: own, name: 'scratch' },
      ] as CreatedCollection[],
    };
    await releaseSince(held, { stores: 1, created: 1 }, 'mm_golden');
    expect(log).toEqual(['own drop scratch', 'own close']);
    expect(held.stores).toEqual([before, golden]);
    expect(held.created.map((c) => c.name)).toEqual(['earlier', 'mm_golden']);
  });

  it('leaves a collection whose drop failed, with its client open, for the final cleanup', async () => {
    const log: string[] = [];
    const own = recordingStore(log, 'own', ['stuck']);
    const held = { stores: [own], created: [{ store: own, name: 'stuck' }] };
    await releaseSince(held, { stores: 0, created: 0 }, undefined);
    expect(log).toEqual(['own drop stuck']);
    expect(held.created.map((c) => c.name)).toEqual(['stuck']);
    expect(held.stores).toEqual([own]);
  });
});

describe('dropAndClose (the cell final cleanup)', () => {
  it('drops newest first, closes every client even after a failed drop, and returns what failed', async () => {
    const log: string[] = [];
    const a = recordingStore(log, 'a', ['x']);
    const left = await dropAndClose(
      [
        { store: a, name: 'x' },
        { store: a, name: 'y' },
      ],
      [a],
      false,
    );
    expect(log).toEqual(['a drop y', 'a drop x', 'a close']);
    expect(left.created.map((c) => c.name)).toEqual(['x']);
    expect(left.stores).toEqual([]);
    expect(String(left.errors[0])).toContain('drop x refused');
  });
});
