import { MemoryMatrixError, type MemoryRecord } from '../src';
import { errorFromWire, errorToWire, queryFromWire, queryToWire, recordFromWire, recordToWire, vectorFromWire, vectorToWire } from '../src/store-process/wire';

/** The store-process wire codec (src/store-process/wire.ts): vectors bit for bit through JSON, errors keep their code and cause. */

const bits = (v: Float32Array) => Buffer.from(v.buffer, v.byteOffset, v.byteLength).toString('hex');

test('float32 vectors cross the wire bit for bit (−0, subnormal, max), from a view into a larger buffer', () => {
  const big = new Float32Array([9, -0, 1.4e-45, 3.4028234663852886e38, Math.fround(0.1), 7]);
  const view = big.subarray(1, 5);
  const back = vectorFromWire(JSON.parse(JSON.stringify(vectorToWire(view))) as string);
  expect(bits(back)).toBe(bits(view));
  expect(back.length).toBe(4);
});

test('a vector whose byte length is not a multiple of 4 is INVALID_INPUT', () => {
  expect(() => vectorFromWire(Buffer.from([1, 2, 3]).toString('base64'))).toThrow(expect.objectContaining({ code: 'INVALID_INPUT', message: expect.stringMatching(/3 bytes is not float32/) }));
});

test('records and queries round-trip through JSON with every other field unchanged', () => {
  const r: MemoryRecord = {
    id: 'm1',
    namespace: 'n',
    text: '記憶 🧠',
    kind: 'fact',
    createdAt: '2024-05-01T09:30:00.123Z',
    metadata: { a: 0, b: '', c: false, d: null },
    embedding: new Float32Array([1, -2.5]),
  };
  const back = recordFromWire(JSON.parse(JSON.stringify(recordToWire(r))));
  expect({ ...back, embedding: bits(back.embedding) }).toEqual({ ...r, embedding: bits(r.embedding) });
  const q = queryFromWire(JSON.parse(JSON.stringify(queryToWire({ vector: new Float32Array([0.5, 0.25]), k: 3, filter: { namespaces: ['n'] } }))));
  expect(q.k).toBe(3);
  expect(q.filter).toEqual({ namespaces: ['n'] });
  expect([...q.vector]).toEqual([0.5, 0.25]);
});

test('an adapter error keeps its code across the wire; one without a known code becomes BACKEND_ERROR', () => {
  const sent = errorToWire(new MemoryMatrixError('DIMENSION_MISMATCH', 'sqlite: dim 3 ≠ 4'));
  expect(sent).toEqual({ code: 'DIMENSION_MISMATCH', message: 'sqlite: dim 3 ≠ 4' });
  const got = errorFromWire(sent, 'sqlite@x (faults)');
  expect(got).toMatchObject({ code: 'DIMENSION_MISMATCH', message: 'sqlite: dim 3 ≠ 4 (in the store process of sqlite@x (faults))' });
  expect(errorToWire(Object.assign(new Error('disk I/O error'), { code: 'SQLITE_IOERR' }))).toEqual({ code: 'BACKEND_ERROR', message: 'disk I/O error' });
  expect(errorFromWire({ code: 'SOMETHING_ELSE', message: 'x' }, 'w').code).toBe('BACKEND_ERROR');
  expect(errorToWire('a string')).toEqual({ code: 'BACKEND_ERROR', message: 'a string' });
});

test('the backend error an adapter wrapped crosses the wire as the cause: name, message, code', () => {
  const backend = Object.assign(new Error('database is locked'), { name: 'SqliteError', code: 'SQLITE_BUSY' });
  const sent = errorToWire(new MemoryMatrixError('BACKEND_ERROR', 'sqlite: upsert failed: database is locked (SQLITE_BUSY)', { cause: backend }));
  expect(sent.cause).toEqual({ name: 'SqliteError', message: 'database is locked', code: 'SQLITE_BUSY' });
  const got = errorFromWire(JSON.parse(JSON.stringify(sent)), 'w');
  expect(got).toMatchObject({ code: 'BACKEND_ERROR', message: 'sqlite: upsert failed: database is locked (SQLITE_BUSY) (in the store process of w)' });
  expect(got.cause).toMatchObject({ name: 'SqliteError', message: 'database is locked', code: 'SQLITE_BUSY' });
  expect(errorFromWire(errorToWire(new MemoryMatrixError('INVALID_INPUT', 'x')), 'w').cause).toBeUndefined();
  expect(errorToWire(new MemoryMatrixError('BACKEND_ERROR', 'y', { cause: 'not an Error' })).cause).toBeUndefined();
});
