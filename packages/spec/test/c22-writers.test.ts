import type { Failure } from '../src/comparator';
import type { LiveCell } from '../src/conformance/cell';
import { MemoryMatrixError } from '../src/errors';
import { runWriters } from '../src/checks/c22-writers';

const cell = { datasetName: 'd', target: 't@1', dataset: { manifest: { metric: 'cosine' } } } as LiveCell;

describe('runWriters (C22)', () => {
  test('a coded refusal stops that writer with a write-refused failure; the others finish', async () => {
    const failures: Failure[] = [];
    const done: number[][] = [[], [], []];
    const refusedCalls: string[] = [];
    const stopped = await runWriters(cell, failures, 3, '3 clients wrote', async (w, write) => {
      for (let call = 1; call <= 4; call++) {
        await write(
          `call ${call}`,
          async () => {
            if (w === 1 && call === 2) throw new MemoryMatrixError('BACKEND_ERROR', 'conflict');
          },
          () => refusedCalls.push(`${w}/${call}`),
        );
        done[w]!.push(call);
      }
    });
    expect([...stopped]).toEqual([1]);
    expect(done).toEqual([[1, 2, 3, 4], [1], [1, 2, 3, 4]]);
    expect(refusedCalls).toEqual(['1/2']);
    expect(failures).toEqual([
      expect.objectContaining({
        kind: 'write-refused',
        expected: 'acknowledged',
        actual: 'BACKEND_ERROR',
        message: 'd @ t@1: writer 1: call 2 refused while 3 clients wrote: BACKEND_ERROR: conflict',
      }),
    ]);
  });

  test('an uncoded error stops the check (rejects with it) after every writer settled', async () => {
    const failures: Failure[] = [];
    let finished = 0;
    const run = runWriters(cell, failures, 2, 'x', async (w, write) => {
      await write('call 1', async () => {
        if (w === 0) throw new TypeError('bug');
      });
      finished++;
    });
    await expect(run).rejects.toThrow('bug');
    expect(finished).toBe(1);
    expect(failures).toEqual([]);
  });
});
