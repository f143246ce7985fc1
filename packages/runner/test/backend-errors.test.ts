import { cli, type CliResult } from './cli-helpers';

/**
 * C29 backend-errors and C28 index-in-effect through the real CLI on the embedded SQLite target
 * (no Docker, no `faults` needed for C29): every stale-handle, closed-client and payload call
 * ends in a coded error or an exact round trip; C28 is skipped by capability (vec0 has no ANN
 * index). The pgvector, Redis and Chroma cells run the same checks in `pnpm matrix`.
 */
describe('C28 / C29 on sqlite@3.53-vec0.1.9', () => {
  let r: CliResult;
  beforeAll(() => {
    r = cli(['--backend', 'sqlite@3.53-vec0.1.9', '--check', 'C28,C29']);
  }, 240_000);

  test('C29 passes with a code for every call on a dropped, recreated or closed collection', () => {
    expect({ status: r.status, stderr: r.status === 0 ? '' : r.stderr }).toEqual({ status: 0, stderr: '' });
    const c29 = r.report!.cells[0]!.checks.find((c) => c.id === 'C29')!;
    expect(c29.status).toBe('passed');
    for (const op of ['dropped.upsert', 'dropped.recall', 'dropped.count', 'dropped.get', 'recreated.upsert', 'recreated.recall', 'closed.upsert', 'closed.recall', 'closed.count']) {
      expect([op, c29.figures[op]]).toEqual([op, 'BACKEND_ERROR']);
    }
    // The contract refuses U+0000 in every string a memory holds (spec stored-values.ts, the golden
    // loader's rule too): the adapter's record validation refuses it with a code before SQLite sees it.
    expect(c29.figures['payload.upsert']).toBe('refused: INVALID_INPUT');
  });

  test('C28 is skipped by capability on a target without an ANN index', () => {
    expect(r.report!.cells[0]!.checks.find((c) => c.id === 'C28')).toMatchObject({ status: 'skipped', skipReason: 'capability: annIndexes' });
  });
});
