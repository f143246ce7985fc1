import { wrapMastraError } from '../src/errors';

// The shape @mastra/libsql 1.23.1 LibSQLVector.query throws for a NaN / ±Infinity query vector (dist/index.cjs: a
// MastraError with id MASTRA_VECTOR_LIBSQL_QUERY_INVALID_ARGS and message 'Unknown error', category USER, its words only in details.message, no cause). 1.x
// cannot load on this Node 20 test process, so the error is built as it is thrown; the matrix run on Node 22 shows it.
test('a 1.x refusal whose words are only in details.message keeps its code (INVALID_VECTOR)', () => {
  const thrown = Object.assign(new Error('Unknown error'), { id: 'MASTRA_VECTOR_LIBSQL_QUERY_INVALID_ARGS', details: { message: 'queryVector must be an array of finite numbers' } });
  const e = wrapMastraError(thrown, 'recall');
  expect(e).toMatchObject({ code: 'INVALID_VECTOR', cause: thrown });
  expect(e.message).toBe('mastra: recall failed: Unknown error <- queryVector must be an array of finite numbers');
});

test('an error with no known words stays BACKEND_ERROR', () => {
  expect(wrapMastraError(Object.assign(new Error('boom'), { details: { message: 'disk full' } }), 'upsert')).toMatchObject({ code: 'BACKEND_ERROR' });
});
