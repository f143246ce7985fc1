import { matchesFilter, type MemoryRecord } from '@memory-matrix/spec';
import { compileRecallFilter, encodeScalar, eqEntry, hex, matchesNothing, numericField, parseInfo, parseModuleList, parseVsim, recordAttributes, redisVsimToCanonical } from '../src';
import { decodeDoc, encodeDoc } from '../src/codec';
import { validateRecords } from '../src/validate';

/**
 * Pure parts of the adapter (no server): the typed attribute encoding that makes VSIM's FILTER
 * exact, the docs-hash codec, reply parsers and input validation. What the server does with them
 * is tested against real containers in packages/targets/test/redis.test.ts and by the matrix.
 */
const rec = (over: Partial<MemoryRecord> = {}): MemoryRecord => ({
  id: 'm1',
  namespace: 'user-001',
  kind: 'fact',
  text: 'text 記憶 🧠',
  createdAt: '2024-05-01T09:30:00.123Z',
  metadata: { pinned: false, importance: 0, source: '', lang: '中文', thread: null },
  embedding: Float32Array.from([0.25, -0, 1e-40, -3]),
  ...over,
});

describe('typed attributes', () => {
  test('every JSON scalar type gets its own quote-free spelling, so 0, false, "", "0" and null never compare equal', () => {
    const spellings = [0, false, '', '0', null, 'false', 1, true, 1.5, -2, 1e21].map(encodeScalar);
    expect(new Set(spellings).size).toBe(spellings.length);
    expect(spellings.slice(0, 5)).toEqual(['n0', 'b0', 's', 's30', 'z']);
    for (const s of spellings) expect(s).toMatch(/^[a-z0-9.+-]+$/);
    expect(encodeScalar(-0)).toBe('n0'); // −0 === 0 in the spec's filter
    expect(() => encodeScalar(Number.NaN)).toThrow(/not finite/);
  });

  test('attributes and the FILTER expression name the same fields; empty IN lists match nothing', () => {
    const a = JSON.parse(recordAttributes(rec(), ['importance', 'rank'])) as Record<string, unknown>;
    expect(a.ns).toBe(encodeScalar('user-001'));
    expect(a.e).toContain(eqEntry('pinned', false));
    expect(a.k).toEqual(['pinned', 'importance', 'source', 'lang', 'thread'].map(hex));
    expect([a.t, a.tu]).toEqual([Date.parse('2024-05-01T09:30:00.123Z'), 0]);
    expect(a[numericField('importance')]).toBe(0);
    expect(a[numericField('rank')]).toBe('nan'); // registered key the record lacks: present, in no range
    expect(numericField('中文 key')).toMatch(/^x_[0-9a-f]+$/);
    expect(() => recordAttributes(rec(), [])).toThrow(/not in the numeric-key registry/);
    const expr = compileRecallFilter({ namespaces: ['user-001', 'user-002'], kinds: ['fact'], metadata: { pinned: false, importance: 0 } }, new Set())!;
    expect(expr).toBe(
      `(.ns in ["${encodeScalar('user-001')}", "${encodeScalar('user-002')}"]) and (.kind == "${encodeScalar('fact')}") and ("${eqEntry('pinned', false)}" in .e) and ("${eqEntry('importance', 0)}" in .e)`,
    );
    expect(compileRecallFilter(undefined, new Set())).toBeNull();
    expect(compileRecallFilter({ metadata: {} }, new Set())).toBeNull();
    expect(matchesNothing({ namespaces: [] })).toBe(true);
    expect(matchesNothing({ kinds: ['fact'] })).toBe(false);
  });

  test('the encoding agrees with the reference filter on every pair of scalar values', () => {
    const vals = [0, false, '', '0', null, 1, true, 'a', -0];
    for (const stored of vals) {
      for (const asked of vals) {
        const ref = matchesFilter({ namespace: 'n', kind: 'fact', metadata: { x: stored } }, { metadata: { x: asked } });
        expect([stored, asked, encodeScalar(stored) === encodeScalar(asked)]).toEqual([stored, asked, ref]);
      }
    }
  });
});

describe('docs-hash codec', () => {
  test('round-trips text, falsy metadata and the embedding bit for bit', () => {
    const r = rec();
    const back = decodeDoc(r.id, encodeDoc(r), 'mm:{c}:docs', 4);
    expect(back).toEqual({ ...r, embedding: expect.any(Float32Array) });
    expect([...new Uint8Array(back.embedding.buffer)]).toEqual([...new Uint8Array(r.embedding.buffer)]);
  });

  test('anything else is PAYLOAD_UNSUPPORTED naming key and id', () => {
    expect(() => decodeDoc('m1', '{"v":9}', 'mm:{c}:docs', 4)).toThrow(expect.objectContaining({ code: 'PAYLOAD_UNSUPPORTED', message: expect.stringContaining('mm:{c}:docs field "m1"') }));
    expect(() => decodeDoc('m1', encodeDoc(rec()), 'k', 5)).toThrow(/16 bytes, dim 5 needs 20/);
    expect(() => decodeDoc('m1', 'nope', 'k', 4)).toThrow(/not JSON/);
  });
});

describe('replies and scores', () => {
  test('VSIM pairs, INFO fields, MODULE LIST, 2s − 1', () => {
    expect(parseVsim(['a', '1', 'b', '0.5'], 'k')).toEqual([
      { id: 'a', s: 1 },
      { id: 'b', s: 0.5 },
    ]);
    expect(() => parseVsim(['a'], 'k')).toThrow(expect.objectContaining({ code: 'BACKEND_ERROR' }));
    expect(parseInfo('# Server\r\nredis_version:8.0.2\r\nredis_mode:standalone\r\n')).toEqual({ redis_version: '8.0.2', redis_mode: 'standalone' });
    expect(parseModuleList([['name', 'vectorset', 'ver', 1, 'path', '', 'args', []]])).toEqual({ vectorset: '1' });
    expect([1, 0.5, 0].map(redisVsimToCanonical)).toEqual([1, 0, -1]);
  });
});

describe('validation before any write', () => {
  test('one bad record fails the call with the code C11/C12 expect; last wins per id', () => {
    const ok = [rec({ id: 'b' }), rec({ id: 'a' }), rec({ id: 'b', text: 'newer' })];
    expect(validateRecords(ok, 4, 'c').map((r) => [r.id, r.text])).toEqual([
      ['a', 'text 記憶 🧠'],
      ['b', 'newer'],
    ]);
    const code = (rs: MemoryRecord[]) => {
      try {
        validateRecords(rs, 4, 'c');
        return null;
      } catch (e) {
        return (e as { code: string }).code;
      }
    };
    expect(code([rec(), rec({ id: 'x', embedding: new Float32Array(5) })])).toBe('DIMENSION_MISMATCH');
    expect(code([rec({ embedding: new Float32Array(4) })])).toBe('INVALID_VECTOR');
    expect(code([rec({ embedding: Float32Array.from([1, Number.NaN, 0, 0]) })])).toBe('INVALID_VECTOR');
    expect(code([rec({ metadata: { x: -0 } })])).toBe('INVALID_INPUT');
    expect(code([rec({ createdAt: '2024-05-01T09:30:00Z' })])).toBe('INVALID_INPUT');
    expect(code([rec({ text: 'lone \ud800' })])).toBe('INVALID_INPUT');
  });
});
